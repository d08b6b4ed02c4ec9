import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { productFor } from '../../src/lib/products/catalog';
import { formatBRL } from '../../src/lib/products/money';
import { resolveCapitals } from '../../src/lib/products/engine';
import { pdfText } from '../fixtures/pdf';
import { answer, fillInsured } from './selling';

/**
 * Selling in v2 (issue 5), as a partner does it in the browser: from the offer on /v2/home through
 * every step of the line's flow to a proposal number, then finding the quote in the history. The
 * forms are filled from the catalog's own questions, so a line that gains a question is still sold.
 */

const LINES = [
  { code: 'RES', card: 'Residencial', path: 'simulador-residencial' },
  { code: 'AFU', card: 'Agrícola', path: 'simulador-agricola' },
  { code: 'MU', card: 'Máquinas e Equipamentos', path: 'simulador-maquinas' },
  { code: 'EAU', card: 'Empresarial', path: 'simulador-empresarial' },
  { code: 'EVI', card: 'Empresarial Individual', path: 'simulador-empresarial-individual' },
  { code: 'VEU', card: 'Vida', path: 'simulador-vida' },
  { code: 'IPU', card: 'Itens Pessoais', path: 'simulador-itens-pessoais' },
] as const;

async function startFromHome(page: Page, card: string) {
  await page.goto('/v2/home');
  await page.getByRole('link', { name: `Simular ${card}`, exact: true }).click();
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await waitForIslands(page);
}

for (const line of LINES) {
  test(`${line.card}: from the offer on /v2/home to a proposal number, then in the history`, async ({ page }) => {
    const product = productFor(line.code)!;
    await signIn(page, ACCOUNTS.partner);
    await startFromHome(page, line.card);
    await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/cadastro/iniciar/`));
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();

    await fillInsured(page, product);
    for (const question of product.cadastroQuestions) await answer(page, question);
    await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();

    if (product.riskQuestions.length > 0) {
      await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/risco/\\d+/editar$`));
      await waitForIslands(page);
      for (const question of product.riskQuestions) await answer(page, question);
      await page.getByRole('button', { name: 'Continuar' }).click();
    }

    await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/planos/\\d+/editar$`));
    const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 2 })).toHaveCount(product.plans.length);
    const plan = product.plans[product.plans.length - 1]!;
    await page.getByRole('button', { name: `Escolher ${plan.name}` }).click();

    await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/contratacao/${nrCotacao}/editar$`));
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Cartão de crédito' }).check();
    const installments = page.getByLabel('Parcelas');
    const options = await installments.locator('option').count();
    await installments.selectOption({ index: Math.min(2, options - 1) });
    if (product.beneficiaries) {
      await page.getByRole('button', { name: 'Adicionar beneficiário' }).click();
      await page.getByLabel('Nome do beneficiário 1').fill('João Alves Pereira');
      await page.getByLabel('Parentesco').selectOption('filho');
    }
    await page.getByRole('button', { name: 'Continuar' }).click();

    await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/resumo/${nrCotacao}`));
    await expect(page.getByTestId('remuneracao')).toContainText('Resolução CNSP nº 382/2020');
    const total = (await page.getByTestId('premio-total').textContent())!.trim();
    await waitForIslands(page);
    await page.getByLabel('Li e aceito o termo de presente proposta.').check();
    await page.getByRole('button', { name: 'Enviar proposta' }).click();

    await expect(page).toHaveURL(new RegExp(`/v2/${line.path}/${product.finalStep}/${nrCotacao}/visualizar$`));
    const nrProposta = (await page.getByTestId('nr-proposta').textContent())!.trim();
    expect(nrProposta).toMatch(/^\d{12}$/);
    await expect(page.getByTestId('situacao-proposta')).toHaveText(/^(Aceita|Em análise)$/);

    const pdf = await page.request.get(`/v2/relatorios/pdf/proposta/${nrCotacao}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const text = await pdfText(new Uint8Array(await pdf.body()));
    expect(text).toContain(nrProposta);
    expect(text).toContain(total);

    await page.goto(`/v2/historico?simulador=${line.code}`);
    await expect(page.getByRole('link', { name: nrCotacao, exact: true })).toBeVisible();
  });
}

test('the sub-delegated user opens only their three simulators: another start route is 403', async ({ page }) => {
  await signIn(page, ACCOUNTS.subagent);
  for (const path of [
    '/v2/simulador-agricola/cadastro/iniciar/2/2',
    '/v2/simulador-maquinas/cadastro',
    '/v2/simulador-empresarial-individual/cadastro/iniciar/6',
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(403);
  }
  await startFromHome(page, 'Residencial');
  await expect(page).toHaveURL(/\/v2\/simulador-residencial\/cadastro\/iniciar\/\d+\/\d+$/);
});

// Issue 27: SPEC §2 gives every v2 simulator a risco route. Individual business (and residential, life),
// without risk questions, answered 404 there while the other lines resumed: now each redirects.
test('every v2 line’s plain risco redirects (to the latest open quote, or home), none is a 404', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  for (const line of ['empresarial-individual', 'residencial', 'vida', 'empresarial', 'maquinas', 'agricola', 'itens-pessoais']) {
    const answer = await page.request.get(`/v2/simulador-${line}/risco`, { maxRedirects: 0 });
    expect(answer.status(), line).toBe(303);
    expect(answer.headers().location, line).toMatch(new RegExp(`^/v2/(home|simulador-${line}/(planos|risco|cadastro)/\\d+/editar)$`));
  }
});

test('bad input at cadastro shows pt-BR messages beside the fields and saves nothing', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await startFromHome(page, 'Residencial');
  const start = page.url();
  await page.getByLabel('CPF').pressSequentially('11111111111');
  await page.getByLabel('E-mail').fill('sem-arroba');
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page.getByText('Informe o nome completo.')).toBeVisible();
  await expect(page.getByText('Informe um CPF válido.')).toBeVisible();
  await expect(page.getByLabel('Nome completo')).toBeFocused();
  expect(page.url()).toBe(start);
});

test('a double click on "Enviar proposta" sends one proposal', async ({ page }) => {
  const product = productFor('IPU')!;
  await signIn(page, ACCOUNTS.partner);
  await startFromHome(page, 'Itens Pessoais');
  await fillInsured(page, product);
  for (const question of product.cadastroQuestions) await answer(page, question);
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/risco\//);
  await waitForIslands(page);
  for (const question of product.riskQuestions) await answer(page, question);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/planos\//);
  const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
  await waitForIslands(page);
  await page.getByRole('button', { name: `Escolher ${product.plans[0]!.name}` }).click();
  await expect(page).toHaveURL(/\/contratacao\//);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/resumo\//);
  await waitForIslands(page);
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();

  // Two sends race: a double click, and the same request from a second tab.
  const send = () =>
    page.request.post(`/api/bff/v1/cotacoes/${nrCotacao}/proposta`, {
      data: { aceiteTermo: true },
      headers: { 'x-portal-session': 'cookie', origin: new URL(page.url()).origin },
    });
  const [first, second] = await Promise.all([send(), send(), page.getByRole('button', { name: 'Enviar proposta' }).dblclick()]);
  const numbers = [(await first.json()).dado.nrProposta, (await second.json()).dado.nrProposta];
  await expect(page).toHaveURL(/\/proposta\/\d+\/visualizar$/);
  await expect(page.getByTestId('nr-proposta')).toHaveText(numbers[0]);
  expect(numbers[1]).toBe(numbers[0]);
});

test('planos re-prices in the browser as a sum insured changes, and refuses one out of range', async ({ page }) => {
  const product = productFor('VEU')!;
  await signIn(page, ACCOUNTS.partner);
  await startFromHome(page, 'Vida');
  await fillInsured(page, product);
  for (const question of product.cadastroQuestions) await answer(page, question);
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/planos\//);
  await waitForIslands(page);
  const plan = page.getByRole('region', { name: product.plans[0]!.name });
  const before = await plan.locator('.plan-total').textContent();
  const adjustable = resolveCapitals(product, {}, product.plans[0]!.id).find((c) => c.adjustable)!;
  const capital = plan.getByLabel(adjustable.name);
  const retype = async (reais: string) => {
    await capital.click();
    await capital.press('Control+a');
    await capital.pressSequentially(reais);
  };
  await retype(String((adjustable.min + adjustable.step) / 100));
  await expect(plan.locator('.plan-total')).not.toHaveText(before!);
  await retype('1');
  await expect(plan.getByRole('alert')).toContainText('entre');
  await expect(plan.getByRole('alert')).toContainText(formatBRL(adjustable.min));
  await expect(plan.getByRole('button')).toBeDisabled();
});
