import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, DEMO_PASSWORD, path, screenshotsAt, signIn } from './helpers';
import { sellResidential } from './selling';
import { PRODUCT_REGISTRATIONS } from '../../src/lib/insurer';
import { pdfText } from '../fixtures/pdf';
import { startOwnServer, type OwnServer, ownPort } from './own-server';

/**
 * The v2 quote and proposal history (/v2/historico) over the demo seed's quotes of
 * parceiro@parceiro.demo: a residential quote at planos, a life proposal and a residential quote
 * that expired. Its pages are counted from the seed, so it runs on a server of its own: the sales
 * other journeys make as the same partner would push the seed's quotes off the first page.
 */
const PORT = ownPort('history');
let server: OwnServer | undefined;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer(PORT);
});
test.afterAll(() => server?.dispose());
test.use({ baseURL: `http://127.0.0.1:${PORT}` });
const INSURED = {
  open: 'Marina Costa Alves',
  sent: 'Rafael Nogueira Pinto',
  expired: 'Juliana Ferreira Rocha',
  subagent: 'Paulo Henrique Dias',
} as const;

const table = (page: Page) => page.getByRole('table', { name: /^Cotações e propostas/ });
const rowOf = (page: Page, insured: string) => table(page).getByRole('row').filter({ hasText: insured });
/** Each row's status badge (an undecided proposal's acceptance clock follows it in the same cell). */
const statusCells = (page: Page) => table(page).locator('tbody td[data-label="Situação"] .status');

test('the partner sees the demo quotes with their statuses, masked documents and no own history button', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico');
  await expect(page.getByRole('heading', { level: 1, name: 'Histórico de cotações e propostas' })).toBeVisible();
  await expect(page).toHaveTitle(/Histórico de cotações e propostas/);

  await expect(rowOf(page, INSURED.open)).toContainText('Em elaboração');
  await expect(rowOf(page, INSURED.open)).toContainText('Residencial');
  await expect(rowOf(page, INSURED.open)).toContainText('***.185.963-**');
  await expect(rowOf(page, INSURED.sent)).toContainText('Proposta aceita');
  await expect(rowOf(page, INSURED.sent)).toContainText(/Proposta \d+/);
  await expect(rowOf(page, INSURED.sent)).toContainText(/R\$ \d/);
  await expect(rowOf(page, INSURED.expired)).toContainText('Vencida');
  // Only the partner's own quotes, and never a whole CPF.
  await expect(rowOf(page, INSURED.subagent)).toHaveCount(0);
  const html = await page.content();
  expect(html).not.toContain('274.185.963-91');
  expect(html).not.toContain('27418596391');
  await expect(page.getByRole('link', { name: 'Histórico', exact: true })).toHaveCount(0);
});

test('an undecided proposal shows its acceptance clock in both generations, readable at 390 px', async ({ page }) => {
  // seed-policies.ts: a residential proposal referred 3 days ago, a life one waiting for documents since 6 days ago.
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico?status=PROPOSTA_EM_ANALISE');
  const referred = rowOf(page, 'Sérgio Almeida Prado').locator('td[data-label="Situação"]');
  await expect(referred).toContainText('Proposta em análise');
  await expect(referred).toContainText(/Aceite em até 22 dias \(até \d{2}\/\d{2}\/\d{4}\)/);
  const waiting = rowOf(page, 'Lívia Campos Teixeira').locator('td[data-label="Situação"]');
  await expect(waiting).toContainText(/Prazo suspenso desde \d{2}\/\d{2}\/\d{4}: aguarda documentos \(restam 23 dias\)/);
  // A decided proposal has no clock left.
  await expect(rowOf(page, INSURED.sent).locator('td[data-label="Situação"]')).toHaveText('Proposta aceita');
  await screenshotsAt(page, 'history', 'v2-prazo-aceite');

  // The legacy history, of a legacy sale the rules refer (mixed construction).
  await page.context().clearCookies();
  await signIn(page, ACCOUNTS.legacySeller);
  const nrProposta = await sellResidential(page, { generation: 'v1', mixed: true });
  await page.goto(`/historico?numero=${nrProposta}`);
  const legacy = table(page).locator('tbody td[data-label="Situação"]');
  await expect(legacy).toHaveCount(1);
  await expect(legacy).toContainText('Proposta em análise');
  await expect(legacy).toContainText(/Aceite em até 25 dias \(até \d{2}\/\d{2}\/\d{4}\)/);
  await screenshotsAt(page, 'history', 'v1-prazo-aceite');
});

test('filters by product and by status with the GET form, and clears the filters', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico');

  await page.getByLabel('Produto').selectOption({ label: 'Vida' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\/v2\/historico\?.*simulador=VEU/);
  await expect(page.getByLabel('Produto')).toHaveValue('VEU');
  await expect(rowOf(page, INSURED.sent)).toBeVisible();
  await expect(rowOf(page, INSURED.open)).toHaveCount(0);
  await expect(table(page).locator('tbody td[data-label="Produto"]').first()).toHaveText('Vida');

  await page.getByLabel('Produto').selectOption({ label: 'Todos' });
  await page.getByLabel('Situação').selectOption({ label: 'Vencida' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/status=VENCIDA/);
  await expect(rowOf(page, INSURED.expired)).toBeVisible();
  await expect(rowOf(page, INSURED.sent)).toHaveCount(0);
  for (const status of await statusCells(page).allTextContents()) expect(status).toBe('Vencida');

  await page.getByRole('link', { name: 'Limpar filtros' }).click();
  await expect(page).toHaveURL(path('/v2/historico'));
  await expect(page.getByLabel('Situação')).toHaveValue('');
});

test('the simulator header’s ?simulador=RES selects the product; bad filters show messages beside the fields', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico?simulador=res');
  await expect(page.getByLabel('Produto')).toHaveValue('RES');
  await expect(rowOf(page, INSURED.open)).toBeVisible();
  await expect(rowOf(page, INSURED.sent)).toHaveCount(0);

  const response = await page.goto('/v2/historico?de=2026-11-30&ate=2026-11-01&documento=123');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('alert')).toContainText('Verifique os filtros destacados.');
  await expect(page.getByLabel('Até')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('A data final não pode ser anterior à data inicial.')).toBeVisible();
  await expect(page.getByText('Informe um CPF ou CNPJ válido.')).toBeVisible();
  await expect(page.getByLabel('CPF/CNPJ do segurado')).toHaveValue('123');
  await expect(table(page)).toContainText('Corrija os filtros destacados para ver as cotações.');
});

test('an expired quote opens read-only with the “venceu” alert and cannot be contracted', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico?status=VENCIDA');
  const row = rowOf(page, INSURED.expired);
  const nrCotacao = (await row.locator('td[data-label="Número"] a').textContent())!.trim();
  await row.getByRole('link', { name: `Abrir a cotação ${nrCotacao}` }).click();
  // It stopped at the resumo, and opens there read-only: no proposal can be sent.
  await expect(page).toHaveURL(new RegExp(`/v2/simulador-residencial/resumo/${nrCotacao}/visualizar$`));
  await expect(page.getByRole('alert').filter({ hasText: 'venceu' })).toContainText('não contratá-la');
  await expect(page.getByRole('button', { name: 'Enviar proposta' })).toHaveCount(0);
  await expect(page.locator('main button[type="submit"]')).toHaveCount(0);

  await page.goto(`/v2/simulador-residencial/contratacao/${nrCotacao}/editar`);
  await expect(page.getByRole('alert').filter({ hasText: 'venceu' })).toBeVisible();
  await expect(page.locator('main button[type="submit"]')).toHaveCount(0);
});

test('the PDF links answer PDFs: the quote’s, and the proposal’s once sent', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/historico?simulador=VEU');
  const row = rowOf(page, INSURED.sent);
  const nrCotacao = (await row.locator('td[data-label="Número"] a').textContent())!.trim();
  for (const name of [`PDF da cotação ${nrCotacao}`, /^PDF da proposta \d+$/]) {
    const href = await row.getByRole('link', { name }).getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status(), href!).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    // Both name the product's SUSEP process and its Condições Gerais (decision 062); the proposal, when the insurer received it.
    const text = (await pdfText(new Uint8Array(await pdf.body()))).replace(/\s+/g, ' ');
    expect(text).toContain(`Processo SUSEP ${PRODUCT_REGISTRATIONS.VEU!.process}`);
    expect(text).toContain(PRODUCT_REGISTRATIONS.VEU!.conditionsUrl);
    expect(text.includes('Recebida pela seguradora em'), href!).toBe(href!.includes('/proposta/'));
  }
  await expect(rowOf(page, INSURED.open)).toHaveCount(0);
});

test('the sub-delegated user sees their own quote only; the partner admin sees both companies’ with the seller', async ({ page }) => {
  await signIn(page, ACCOUNTS.subagent);
  await page.goto('/v2/historico');
  await expect(rowOf(page, INSURED.subagent)).toBeVisible();
  await expect(rowOf(page, INSURED.open)).toHaveCount(0);
  await expect(rowOf(page, INSURED.expired)).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto(`/v2/historico?documento=${encodeURIComponent('593.817.264-00')}`);
  await expect(rowOf(page, INSURED.subagent)).toContainText('Felipe Araújo');
  await page.goto('/v2/historico?documento=46281937546');
  await expect(rowOf(page, INSURED.expired)).toContainText('Eduarda Lima');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form filters and the table renders on the server', async ({ page }) => {
    const login = await page.request.post('/api/gateway/login', {
      data: { userName: ACCOUNTS.partner.email, password: DEMO_PASSWORD },
      headers: { 'x-portal-session': 'cookie' },
    });
    expect(login.status()).toBe(200);
    await page.goto('/v2/historico');
    await page.getByLabel('Situação').selectOption({ label: 'Proposta enviada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect(page).toHaveURL(/status=PROPOSTA_EM_ANALISE/);
    await expect(rowOf(page, INSURED.sent)).toBeVisible();
    for (const status of await statusCells(page).allTextContents())
      expect(status).toMatch(/^Proposta (em análise|aguardando documentos|aceita|recusada)$/);
  });

  test('pages of 10 with links that keep the filters', async ({ page }) => {
    const login = await page.request.post('/api/gateway/login', {
      data: { userName: ACCOUNTS.partner.email, password: DEMO_PASSWORD },
      headers: { 'x-portal-session': 'cookie' },
    });
    expect(login.status()).toBe(200);
    // Enough residential quotes for a second page, made through the quote API as the simulator does.
    const offers = await (await page.request.get('/api/bff/v1/ofertas', { headers: { 'x-portal-session': 'cookie' } })).json();
    const nrOferta = offers.dado.find((o: { code: string }) => o.code === 'RES').nrOferta;
    for (let i = 1; i <= 10; i++) {
      const created = await page.request.post('/api/bff/v1/cotacoes', {
        headers: { 'x-portal-session': 'cookie' },
        data: {
          nrOferta,
          segurado: {
            tipoPessoa: 'PF',
            nome: `Cliente Paginação ${i}`,
            cpf: '59381726400',
            dataNascimento: '1980-01-01',
            email: 'cliente@exemplo.com.br',
            telefone: '(11) 98888-7777',
            endereco: {
              cep: '01310-100',
              logradouro: 'Avenida Paulista',
              numero: '1',
              bairro: 'Bela Vista',
              cidade: 'São Paulo',
              uf: 'SP',
            },
          },
          respostas: { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 'R$ 200.000,00', alarme: false },
        },
      });
      expect(created.status(), await created.text()).toBe(200);
    }
    await page.goto('/v2/historico?simulador=RES');
    const pagination = page.getByRole('navigation', { name: 'Paginação: cotações e propostas' });
    await expect(pagination).toContainText(/Página 1 de \d+/);
    await expect(table(page).locator('tbody tr')).toHaveCount(10);
    await pagination.getByRole('link', { name: 'Próxima' }).click();
    // A keyset page (lib/keyset-pages.ts): the link names the row page 2 starts after.
    await expect(page).toHaveURL(/\/v2\/historico\?simulador=RES&page=2&cursor=[\w-]+$/);
    await expect(page.getByLabel('Produto')).toHaveValue('RES');
    await expect(pagination.getByRole('link', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');
    await expect(rowOf(page, INSURED.expired)).toBeVisible(); // the oldest residential quote moved to page 2
    for (const product of await table(page).locator('tbody td[data-label="Produto"]').allTextContents())
      expect(product).toBe('Residencial');
  });
});

test('the history page has no serious accessibility violations', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  for (const url of ['/v2/historico', '/v2/historico?de=2026-13-01']) {
    await page.goto(url);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
    expect(serious, url).toEqual([]);
  }
});
