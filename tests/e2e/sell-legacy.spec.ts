import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands, apiSignIn } from './helpers';
import { productFor } from '../../src/lib/products/catalog';
import { pdfText } from '../fixtures/pdf';
import { answer, fillInsured } from './selling';

/**
 * Selling in the legacy generation (issue 6, docs/decisions/019-legacy-sell.md): the legacy seller
 * goes from the offer on /home through the legacy routes of each of the five simulators to a
 * proposal number, and finds the quote in /historico. Forms are filled from the catalog's questions,
 * as in sell-v2.spec.ts. Then the offer permissions (403) and the /ofertas pages.
 */

const LINES = [
  { code: 'RES', card: 'Residencial', line: 'residencial' },
  { code: 'AFU', card: 'Agrícola', line: 'agricola' },
  { code: 'VEU', card: 'Vida', line: 'vida' },
  { code: 'MU', card: 'Máquinas e Equipamentos', line: 'maquinas' },
  { code: 'EAU', card: 'Empresarial', line: 'empresarial' },
] as const;

for (const { code, card, line } of LINES) {
  test(`${card}: from the offer on /home through /simulador-${line} to a proposal number, then in /historico`, async ({ page }) => {
    const product = productFor(code)!;
    const base = `/simulador-${line}`;
    await signIn(page, ACCOUNTS.legacySeller);
    await page.getByRole('link', { name: `Simular ${card}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/cadastro\\?oferta=\\d+$`));
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    // The legacy header: 'Nova Simulação' and 'Histórico' of this line.
    await expect(page.getByRole('link', { name: 'Histórico', exact: true })).toHaveAttribute('href', `/historico?funcionalidade=${line}`);

    await fillInsured(page, product);
    for (const question of product.cadastroQuestions) await answer(page, question);
    await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();

    if (product.riskQuestions.length > 0) {
      await expect(page).toHaveURL(new RegExp(`^[^?]*${base}/risco/\\d+/editar$`));
      await waitForIslands(page);
      for (const question of product.riskQuestions) await answer(page, question);
      await page.getByRole('button', { name: 'Continuar' }).click();
    }

    await expect(page).toHaveURL(new RegExp(`${base}/planos/\\d+/editar$`));
    const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
    await waitForIslands(page);
    const plan = product.plans[0]!;
    await page.getByRole('button', { name: `Escolher ${plan.name}` }).click();

    await expect(page).toHaveURL(new RegExp(`${base}/contratacao/${nrCotacao}/editar$`));
    // A reload resumes the step from its address.
    await page.reload();
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Boleto bancário' }).check();
    await page.getByRole('button', { name: 'Continuar' }).click();

    // SPEC §2: life and machinery resumo/{nr}, agricultural resumo/{nr}/{nrType}.
    const resumo = { vida: '', maquinas: '', agricola: '/1', residencial: '/editar', empresarial: '/editar' }[line];
    await expect(page).toHaveURL(new RegExp(`${base}/resumo/${nrCotacao}${resumo}$`));
    await expect(page.getByRole('link', { name: 'Baixar a cotação em PDF' })).toHaveAttribute('href', `/relatorios/cotacao/${nrCotacao}`);
    await waitForIslands(page);
    await page.getByLabel('Li e aceito o termo de presente proposta.').check();
    await page.getByRole('button', { name: 'Enviar proposta' }).click();

    // Residential's finalizacao is plain in SPEC §2: it resumes the latest proposal, this one.
    await expect(page).toHaveURL(new RegExp(`${base}/${product.finalStep}/${nrCotacao}/visualizar$`));
    const nrProposta = (await page.getByTestId('nr-proposta').textContent())!.trim();
    expect(nrProposta).toMatch(/^\d{12}$/);
    await expect(page.getByRole('link', { name: 'Ir para o histórico' })).toHaveAttribute('href', `/historico?funcionalidade=${line}`);
    await expect(page.getByRole('link', { name: 'Nova simulação' })).toHaveAttribute('href', `${base}/cadastro`);

    const pdf = await page.request.get(`/relatorios/proposta/${nrCotacao}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(await pdfText(new Uint8Array(await pdf.body()))).toContain(nrProposta);

    await page.getByRole('link', { name: 'Ir para o histórico' }).click();
    await expect(page).toHaveURL(new RegExp(`/historico\\?funcionalidade=${line}$`));
    const link = page.getByRole('link', { name: nrCotacao, exact: true });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page.getByTestId('nr-proposta')).toHaveText(nrProposta);
  });
}

test("the plain agricultural cadastro lets the seller choose among the line's products; Nova Simulação leads there", async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await page.goto('/simulador-agricola/cadastro');
  await expect(page.getByRole('heading', { level: 1, name: 'Agrícola' })).toBeVisible();
  const choices = page.getByRole('link', { name: /^Iniciar simulação/ });
  await expect(choices).toHaveCount(4); // AFU, PR, FL, PRS — never AFS, which starts elsewhere
  await page.getByRole('link', { name: 'Iniciar simulação com a oferta Floresta — Horizonte' }).click();
  await expect(page).toHaveURL(/\/simulador-agricola\/cadastro\?oferta=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: productFor('FL')!.name })).toBeVisible();

  await waitForIslands(page);
  await page.getByRole('button', { name: 'Nova Simulação' }).click();
  await page.getByRole('button', { name: 'sim', exact: true }).click();
  await expect(page).toHaveURL(/\/simulador-agricola\/cadastro$/);
});

test('the consultant sells only residential and life: the other legacy simulators answer 403', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacyConsultant);
  const cards = page.getByRole('link', { name: /^Simular / });
  await expect(cards).toHaveText(['Simular Residencial', 'Simular Vida']);
  for (const path of ['/simulador-agricola/cadastro', '/simulador-maquinas/planos', '/simulador-empresarial/resumo/2026000001/editar']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
  }
  expect((await page.goto('/simulador-residencial/cadastro'))?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Residencial' })).toBeVisible();
  expect((await page.goto('/simulador-itens-pessoais/cadastro'))?.status()).toBe(404);
});

test('/ofertas lists the offers the seller may sell, by tab and product', async ({ page, baseURL }) => {
  // An offer of the seller's company that has ended (created through the provider admin's API).
  const admin = await playwrightRequest.newContext({ baseURL });
  const headers = { 'x-portal-session': 'cookie' };
  await apiSignIn(admin, ACCOUNTS.insurerAdmin, { base: baseURL });
  const companies = (await (await admin.get('/api/bff/v1/empresas', { headers })).json()).dado as { id: number; nome: string }[];
  const simulators = (await (await admin.get('/api/plataforma/v1/simuladores', { headers })).json()).resultado as {
    id: number;
    tipoSimulador: { cdTipoSimulador: string };
  }[];
  const created = await admin.post('/api/bff/v1/ofertas', {
    headers,
    data: {
      idSimulador: simulators.find((s) => s.tipoSimulador.cdTipoSimulador === 'VG')!.id,
      empresas: [companies.find((c) => c.nome === 'Horizonte Seguros')!.id],
      nome: 'Vida Flex — Campanha 2025',
      vigenciaInicio: '2025-01-01',
      vigenciaFim: '2025-12-31',
      comissao: '15',
      ativo: true,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  await admin.dispose();

  await signIn(page, ACCOUNTS.legacySeller);
  await page.goto('/ofertas');
  const table = page.getByRole('table');
  await expect(table.getByRole('caption')).toHaveText(/^Vigentes: \d+ ofertas$/);
  await expect(table.getByRole('cell', { name: 'Residencial — Horizonte', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Vida Flex — Campanha 2025', exact: true })).toHaveCount(0);

  await page.getByLabel('Produto').selectOption({ label: 'Vida Flex' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\/ofertas\/vigentes\?produto=VG$/);
  await expect(table.getByRole('caption')).toHaveText('Vigentes: 1 oferta');
  await expect(table.getByRole('cell', { name: 'Vida Flex — Horizonte', exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Encerradas' }).click();
  await expect(page).toHaveURL(/\/ofertas\/encerradas\?produto=VG$/);
  await expect(table.getByRole('cell', { name: 'Vida Flex — Campanha 2025', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Encerrada', exact: true })).toBeVisible();

  await page.goto('/ofertas/todas?produto=VG');
  await expect(table.getByRole('caption')).toHaveText('Todas: 2 ofertas');
  await page.getByRole('link', { name: 'Simular Vida Flex — Horizonte' }).click();
  await expect(page).toHaveURL(/\/simulador-vida\/cadastro\?oferta=\d+$/);

  expect((await page.goto('/ofertas/outras'))?.status()).toBe(404);
  await page.goto('/ofertas-disponiveis');
  await expect(page.getByRole('link', { name: 'Simular Vida Flex', exact: true })).toBeVisible();
});

test('the legacy offers, history and offer choice pages have no serious accessibility violations', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  for (const url of [
    '/home',
    '/ofertas',
    '/ofertas/todas?produto=RES',
    '/ofertas-disponiveis',
    '/historico?funcionalidade=vida',
    '/simulador-agricola/cadastro',
  ]) {
    await page.goto(url);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
    expect(serious, url).toEqual([]);
  }
});
