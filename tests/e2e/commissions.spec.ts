import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { pdfText } from '../fixtures/pdf';
import { MINIMAL_PDF } from '../fixtures/documents';
import { ACCOUNTS, DEMO_PASSWORD, signIn, waitForIslands, type DemoAccount } from './helpers';
import { startOwnServer, type OwnServer, ownPort } from './own-server';
import { formatBRL } from '../../src/lib/products/money';

/**
 * Issue 15, commissions and income statements as partners and the insurer live them (decision 041).
 * A server of its own: started once (the seed sells and pays at past instants), then started again on
 * the same database with its clock OFFSET_DAYS ahead, so every payment of the seed lies in a closed
 * month — what a nota fiscal invoices — whatever day the suite runs.
 *
 * - The partner cancels a paid policy: the clawback shows on the current month's statement.
 * - The partner sends the nota of a closed month — a wrong amount refused in pt-BR first — and the
 *   insurer's ADMIN approves it.
 * - The income statement PDF, opened in both generations, totals what the statements owe, month by month.
 * - The pages at 1366 and 390 px (screenshots under test-results/commissions-screens), none scrolling sideways.
 */
const PORT = ownPort('commissions');
const OFFSET_DAYS = 40;
const HORIZONTE = '11222333000181';
const SHOTS = join('test-results', 'commissions-screens');
const NOT_FOUND = 'Desculpe, esta página não está disponível.';

/** The server's today (Brasília), OFFSET_DAYS ahead of the machine's. */
const serverToday = () => new Date(Date.now() - 3 * 3_600_000 + OFFSET_DAYS * 86_400_000).toISOString().slice(0, 10);
const cents = (text: string) => Number(text.replace(/[^\d,]/g, '').replace(',', '.')) * 100;
const MONTHS = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
];

let first: OwnServer | undefined;
let server: OwnServer | undefined;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  first = await startOwnServer(PORT);
  // The seed has run once a sign-in answers (the database opens, migrates and seeds on first use),
  // and the server takes SIGTERM gracefully once it has said where it listens.
  const base = first.base;
  await expect(async () => {
    const login = await fetch(`${base}/api/gateway/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: ACCOUNTS.partner.email, password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(first!.output()).toContain('Portal de Parceiros em');
  }).toPass({ timeout: 120_000 });
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  server = await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: String(OFFSET_DAYS) }, first);
});
test.afterAll(() => {
  server?.dispose();
  first?.dispose();
});

async function pageAs(browser: Browser, account: DemoAccount): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server!.base })).newPage();
  await signIn(page, account);
  return page;
}

async function openPdf(page: Page, href: string): Promise<{ text: string; bytes: Buffer }> {
  const response = await page.request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const bytes = await response.body();
  return { text: (await pdfText(new Uint8Array(bytes))).replace(/\s+/g, ' '), bytes };
}

test('v2: a cancellation’s clawback on the statement; a closed month’s nota sent, a wrong amount refused, then approved by the ADMIN', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const partner = await pageAs(browser, ACCOUNTS.partner);

  // The seed's policy paid up by Pix, cancelled by its insured today: the partner gives back commission.
  await partner.goto('/v2/apolices?segurado=Eduardo%20Martins');
  await partner
    .getByRole('link', { name: /^\d{15}$/ })
    .first()
    .click();
  const nrApolice = (await partner.getByTestId('nr-apolice').textContent())!.trim();
  await partner.getByRole('link', { name: 'Endossos' }).click();
  await partner.getByRole('link', { name: 'Cancelar apólice' }).click();
  await waitForIslands(partner);
  await partner.getByRole('radio', { name: 'O segurado' }).check();
  await partner.getByLabel('Motivo', { exact: true }).selectOption({ label: 'Venda ou perda do bem segurado' });
  await partner.getByLabel('Cancelar a partir de').fill(serverToday());
  await partner.getByRole('button', { name: 'Continuar' }).click();
  await expect(partner).toHaveURL(/\/cancelamento\/coberturas\?/);
  await waitForIslands(partner);
  await partner.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
  await partner.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(partner).toHaveURL(/\/cancelamento\/resumo\?/);
  const clawback = cents((await partner.getByTestId('estorno').textContent())!);
  expect(clawback).toBeGreaterThan(0);
  await partner.getByRole('link', { name: 'Informar a conta da restituição' }).click();
  await waitForIslands(partner);
  await partner.getByRole('radio', { name: 'Pix', exact: true }).check();
  // The refund goes to the insured's own CPF key (decision 056), which the step shows.
  const expected = (await partner.getByText(/^Titular esperado:/).textContent()) ?? '';
  await partner.getByLabel('Chave Pix').fill(/\d{3}\.\d{3}\.\d{3}-\d{2}/.exec(expected)![0]);
  await partner.getByRole('button', { name: 'Confirmar cancelamento' }).click();
  await partner.getByRole('button', { name: 'Sim, cancelar' }).click();
  await expect(partner).toHaveURL(/\/cancelamento\/sucesso\?/);

  // This month's statement: the clawback, set against the month's commissions.
  await partner.goto('/v2/comissoes/extrato-comissoes');
  await expect(partner.getByTestId('extrato-titulo')).toContainText('Corretora Horizonte Seguros Ltda.');
  const row = partner.getByTestId('estornos').getByRole('row').filter({ hasText: nrApolice });
  await expect(row).toContainText(`− ${formatBRL(clawback)}`);
  await expect(partner.getByTestId('total-estornos')).toHaveText(`− ${formatBRL(clawback)}`);
  const earned = cents((await partner.getByTestId('total-comissoes').textContent())!);
  await expect(partner.getByTestId('valor-a-faturar')).toHaveText(formatBRL(Math.max(0, earned - clawback)));
  // The CSV says the same, as a spreadsheet in pt-BR reads it.
  const csv = await partner.request.get((await partner.getByTestId('exportar-csv').getAttribute('href'))!);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const csvText = (await csv.body()).toString('utf8');
  expect(csvText.charCodeAt(0)).toBe(0xfeff);
  expect(csvText).toContain(`Estorno;`);
  // The policy number as text a spreadsheet keeps, leading zero and all (decision 058).
  expect(csvText).toContain(`;"${nrApolice}\t";`);
  // Each amount in its own column, positive: a cell starting with '-' would be escaped into text.
  expect(csvText).toContain(`;Comissão;Estorno\r\n`);
  expect(csvText).toContain(`;;${(clawback / 100).toFixed(2).replace('.', ',')}\r\n`);

  // The nota of a closed month: from the list, to the upload, with the statement's amount.
  await partner.goto('/v2/comissoes/nota-fiscal');
  await expect(partner.getByTestId('sem-notas')).toBeVisible();
  await partner.getByTestId('nova-nota').click();
  await expect(partner).toHaveURL(/\/v2\/comissoes\/envio-nota/);
  await waitForIslands(partner);
  await partner.getByLabel('Competência').selectOption({ index: 1 });
  const month = await partner.getByLabel('Competência').inputValue();
  expect(month < serverToday().slice(0, 7)).toBe(true);
  const owed = (await partner.getByTestId('valor-do-extrato').locator('strong').textContent())!.trim();
  await partner.getByLabel('Número da nota fiscal').fill('2026000123');
  await partner.getByLabel('Valor da nota (R$)').fill('1,00');
  await partner
    .getByLabel('Arquivo da nota')
    .setInputFiles({ name: 'nota-comissoes.pdf', mimeType: 'application/pdf', buffer: Buffer.from(MINIMAL_PDF) });
  await partner.getByRole('button', { name: 'Enviar nota fiscal' }).click();
  await expect(partner.getByText(`O valor da nota (R$ 1,00) difere do total do extrato`)).toBeVisible();
  await partner.getByLabel('Valor da nota (R$)').fill(owed.replace('R$ ', ''));
  await partner.getByRole('button', { name: 'Enviar nota fiscal' }).click();
  await expect(partner).toHaveURL(/\/v2\/comissoes\/nota-fiscal\?enviada=\d+/);
  await expect(partner.getByTestId('nota-resultado')).toContainText('enviada');
  const nota = partner.getByTestId(`nota-${HORIZONTE}-${month}`);
  await expect(nota.getByTestId('situacao')).toHaveText('Enviada');
  await expect(nota.getByTestId('valor')).toHaveText(owed);
  // The month's statement owes exactly that, and now shows its nota; a second nota is not offered.
  await nota.getByRole('link', { name: 'Extrato do mês' }).click();
  await expect(partner.getByTestId('valor-a-faturar')).toHaveText(owed);
  await expect(partner.getByTestId('nota-do-mes')).toContainText('Enviada');
  await partner.goto(`/v2/comissoes/envio-nota?competencia=${month}`);
  await expect(partner.locator('option', { hasText: new RegExp(`^${MONTHS[Number(month.slice(5)) - 1]!.toLowerCase()} de`) })).toHaveCount(
    0,
  );

  // The insurer's ADMIN approves it.
  const admin = await pageAs(browser, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/comissoes/nota-fiscal');
  const pending = admin.getByTestId(`nota-${HORIZONTE}-${month}`);
  await pending.scrollIntoViewIfNeeded();
  await expect(pending.locator('astro-island[ssr]')).toHaveCount(0);
  await pending.getByRole('button', { name: /^Aprovar da nota 2026000123/ }).click();
  await expect(admin).toHaveURL(/decidida=\d+/);
  await expect(admin.getByTestId('nota-resultado')).toContainText('aprovada');
  await expect(admin.getByTestId(`nota-${HORIZONTE}-${month}`).getByTestId('situacao')).toHaveText('Aprovada');
  await partner.goto('/v2/comissoes/nota-fiscal');
  await expect(partner.getByTestId(`nota-${HORIZONTE}-${month}`).getByTestId('situacao')).toHaveText('Aprovada');
  await admin.context().close();
  await partner.context().close();
});

test('the income statement PDF in both generations totals what the statements owe, month by month', async ({ browser }) => {
  test.setTimeout(120_000);
  const manager = await pageAs(browser, ACCOUNTS.partnerAdmin);
  await manager.goto('/v2/informe-rendimentos');
  const year = Number(serverToday().slice(0, 4)) - 1;
  const link = manager.getByTestId(`informe-${HORIZONTE}`).getByRole('link', { name: new RegExp(`^Informe ${year}`) });
  const href = (await link.getAttribute('href'))!;
  expect(href).toBe(`/v2/relatorios/pdf/informe-rendimentos/${HORIZONTE}/corretora-horizonte-seguros-ltda/${year}`);
  const { text, bytes } = await openPdf(manager, href);
  expect(text).toContain('Comprovante Anual de Rendimentos Pagos ou Creditados e de Retenção de Imposto de Renda na Fonte');
  expect(text).toContain('Seguradora Demo S.A.');
  expect(text).toContain('Corretora Horizonte Seguros Ltda.');
  expect(text).toContain(`Ano-calendário ${year}`);

  // Each month of the PDF is what that month's statement owes; the total row is their sum.
  const rows = [...text.matchAll(new RegExp(`(\\p{L}+)/${year} 8045 .*?(R\\$ [\\d.]+,\\d{2}) (R\\$ [\\d.]+,\\d{2})`, 'gu'))];
  expect(rows.length).toBeGreaterThan(0);
  let gross = 0;
  let withheld = 0;
  for (const [, name, amount, tax] of rows) {
    const month = `${year}-${String(MONTHS.indexOf(name!) + 1).padStart(2, '0')}`;
    await manager.goto(`/v2/comissoes/extrato-comissoes?empresa=${HORIZONTE}&competencia=${month}`);
    await expect(manager.getByTestId('valor-a-faturar')).toHaveText(amount!);
    gross += cents(amount!);
    withheld += cents(tax!);
  }
  expect(text).toContain(`Total ${formatBRL(gross)} ${formatBRL(withheld)}`);
  writePdfImage(bytes, 'informe-v2');

  // A year without income says so; a CPF/CNPJ the manager does not act for is the 404 page.
  await manager.goto(`/v2/relatorios/pdf/informe-rendimentos/${HORIZONTE}/corretora-horizonte-seguros-ltda/2020`);
  await expect(manager.getByTestId('sem-rendimentos')).toContainText(
    'Não há rendimentos de comissões de Corretora Horizonte Seguros Ltda.',
  );
  await expect(manager.getByTestId('sem-rendimentos')).toContainText('2020');
  const foreign = await manager.request.get(`/v2/relatorios/pdf/informe-rendimentos/11144477735/bruno-carvalho/${year}`);
  expect(foreign.status()).toBe(404);
  expect(await foreign.text()).toContain(NOT_FOUND);
  await manager.context().close();

  // The legacy generation: the same statement, at its own address.
  const legacy = await pageAs(browser, ACCOUNTS.legacyAdmin);
  await legacy.goto('/informe-rendimentos');
  const legacyHref = (await legacy
    .getByTestId(`informe-${HORIZONTE}`)
    .getByRole('link', { name: new RegExp(`^Informe ${year}`) })
    .getAttribute('href'))!;
  expect(legacyHref).toBe(`/relatorios/informe-rendimentos/${HORIZONTE}/corretora-horizonte-seguros-ltda/${year}`);
  const legacyPdf = await openPdf(legacy, legacyHref);
  expect(legacyPdf.text).toContain(`Total ${formatBRL(gross)} ${formatBRL(withheld)}`);
  await legacy.context().close();
});

/** The PDF's first page as an image beside the screenshots (pdftoppm, when the machine has it). */
function writePdfImage(bytes: Buffer, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const file = join(SHOTS, `${name}.pdf`);
  writeFileSync(file, bytes);
  if (existsSync('/usr/bin/pdftoppm'))
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, join(SHOTS, name)]);
}

test('the pages at 1366 and 390 px: screenshots, and nothing scrolls sideways on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const views: [DemoAccount, string, string][] = [
    [ACCOUNTS.partner, '/v2/comissoes/extrato-comissoes', 'extrato-mes-corrente'],
    [ACCOUNTS.partner, '/v2/comissoes/envio-nota', 'envio-nota'],
    [ACCOUNTS.partner, '/v2/comissoes/nota-fiscal', 'notas-parceiro'],
    [ACCOUNTS.insurerAdmin, '/v2/comissoes/nota-fiscal', 'notas-admin'],
    [ACCOUNTS.partnerAdmin, '/v2/informe-rendimentos', 'informe-v2'],
    [ACCOUNTS.legacyAdmin, '/informe-rendimentos', 'informe-legado'],
  ];
  const signedIn = new Map<string, Page>();
  for (const [account, path, name] of views) {
    if (!signedIn.has(account.email)) signedIn.set(account.email, await pageAs(browser, account));
    const page = signedIn.get(account.email)!;
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(path);
      await waitForIslands(page);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll, `${path} at ${width} px`).toBeLessThanOrEqual(width);
    }
  }
  // A closed month with its lines.
  const partner = signedIn.get(ACCOUNTS.partner.email)!;
  await partner.goto('/v2/comissoes/extrato-comissoes');
  const closed = partner.locator('nav.months a').nth(1);
  if ((await closed.count()) > 0) {
    const href = (await closed.getAttribute('href'))!;
    for (const width of [1366, 390]) {
      await partner.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await partner.goto(href);
      await partner.screenshot({ path: join(SHOTS, `extrato-mes-fechado-${width}.png`), fullPage: true });
      expect(await partner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }
  for (const page of signedIn.values()) await page.context().close();
});
