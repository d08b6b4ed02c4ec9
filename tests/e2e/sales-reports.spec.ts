import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { ACCOUNTS, signIn } from './helpers';

/**
 * Issue 15, sales reports as partners ask for them (decision 042): the form in each generation, the
 * report made in the background with its progress on the list (which reloads itself while work is
 * under way), the file downloaded and read back — CSV parsed, XLSX read with its typed cells —, bad
 * input refused in pt-BR with nothing stored, and another user's report a 404.
 */
const SHOTS = join('test-results', 'reports-screens');

/** Waits on the list (it reloads itself every 3 s while a report is under way) until the report is ready. */
async function waitUntilReady(page: Page, id: string) {
  const card = page.getByTestId(`relatorio-${id}`);
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-status', 'PRONTO', { timeout: 30_000 });
  return card;
}

async function download(page: Page, card: ReturnType<Page['getByTestId']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), card.getByTestId('baixar').click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), path };
}

test('v2: a CSV report of the policies issued, watched until ready, downloaded and read back', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/relatorios/vendas/consulta');
  await page.getByTestId('novo-relatorio').click();
  await expect(page).toHaveURL(/\/v2\/relatorios\/vendas\/cadastro$/);
  const form = page.getByTestId('form-relatorio');
  await form.getByLabel('Apólices emitidas').check();
  await form.getByLabel('Residencial', { exact: true }).check();
  await form.getByLabel('CSV (planilha em texto)').check();
  await form.getByRole('button', { name: 'Gerar relatório' }).click();

  await expect(page).toHaveURL(/\/v2\/relatorios\/vendas\/consulta\?novo=\d+/);
  const id = new URL(page.url()).searchParams.get('novo')!;
  const card = page.getByTestId(`relatorio-${id}`);
  await expect(card).toContainText('Apólices emitidas de');
  await expect(card).toContainText('Residencial');
  await expect(card).toContainText(ACCOUNTS.partnerAdmin.name);
  // The job looks for work every 2 s, so the list first shows the report waiting (rarely already
  // made): waiting or under way, it shows its progress and the page reloads itself.
  if ((await card.getAttribute('data-status')) !== 'PRONTO') {
    await expect(card.getByRole('progressbar')).toBeVisible();
    await expect(card.locator('.progress label')).toHaveText(/^(Na fila|Gerando: \d+ %)$/);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Parar de atualizar' })).toBeVisible();
  }
  const card2 = await waitUntilReady(page, id);
  await expect(card2.getByTestId('linhas')).toHaveText(/^\d+ de \d+$/);
  // Once nothing is under way the page stops reloading itself.
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);

  const file = await download(page, card2);
  expect(file.name).toBe(`relatorio-vendas-${id}-apolices.csv`);
  const { readFileSync } = await import('node:fs');
  const bytes = readFileSync(file.path);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes.toString('utf8').slice(1), { delimiter: ';' });
  expect(records[0]!.slice(0, 3)).toEqual(['Apólice', 'Emitida em', 'Produto']);
  const rows = records.slice(1);
  expect(rows.length).toBe(Number((await card2.getByTestId('linhas').textContent())!.split(' ')[0]));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row[2]).toBe('Residencial');
  // The policy number keeps its leading zero in a spreadsheet: its digits and a tab, quoted (decision 058).
  for (const row of rows) expect(row[0]).toMatch(/^0\d+\t$/);

  // Another user's report is not theirs to download.
  const other = await page.context().browser()!.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, ACCOUNTS.subagent);
  const foreign = await otherPage.goto(`/v2/relatorios/vendas/arquivo/${id}`);
  expect(foreign!.status()).toBe(404);
  await expect(otherPage.getByTestId(`relatorio-${id}`)).toHaveCount(0);
  await other.close();

  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/v2/relatorios/vendas/consulta');
    await page.screenshot({ path: join(SHOTS, `consulta-${width}.png`), fullPage: true });
    await page.goto('/v2/relatorios/vendas/cadastro');
    await page.screenshot({ path: join(SHOTS, `cadastro-${width}.png`), fullPage: true });
  }
});

test('v2: bad input is refused in pt-BR, keeps what was typed and stores nothing', async ({ page }) => {
  await signIn(page, ACCOUNTS.subagent);
  await page.goto('/v2/relatorios/vendas/consulta');
  const before = await page.locator('[data-testid^="relatorio-"]').count();
  await page.goto('/v2/relatorios/vendas/cadastro');
  const form = page.getByTestId('form-relatorio');
  await form.getByLabel('De', { exact: true }).fill('2026-05-01');
  await form.getByLabel('Até', { exact: true }).fill('2026-04-01');
  await form.getByRole('button', { name: 'Gerar relatório' }).click();
  await expect(page.getByText('A data inicial deve ser anterior ou igual à final.')).toBeVisible();
  await expect(form.getByLabel('De', { exact: true })).toHaveValue('2026-05-01');
  // A product or company that is not one of the form's, posted by hand: messages, nothing stored.
  const posted = await page.request.post('/v2/relatorios/vendas/cadastro', {
    form: { de: '2026-01-01', ate: '2026-01-31', tipo: 'apolices', formato: 'csv', produtos: 'XX', empresa: '11222333000181' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(posted.status()).toBe(400);
  expect(await posted.text()).toContain('Produto desconhecido: XX.');
  await page.goto('/v2/relatorios/vendas/consulta');
  await expect(page.locator('[data-testid^="relatorio-"]')).toHaveCount(before);
});

test('legacy: an XLSX report read back with its typed cells', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await page.goto('/novo-relatorio-vendas');
  const form = page.getByTestId('form-relatorio');
  await form.getByLabel('Cotações').check();
  await form.getByLabel('Excel (XLSX)').check();
  await form.getByRole('button', { name: 'Gerar relatório' }).click();
  await expect(page).toHaveURL(/\/relatorio-vendas\?novo=\d+/);
  const id = new URL(page.url()).searchParams.get('novo')!;
  const card = await waitUntilReady(page, id);
  const file = await download(page, card);
  expect(file.name).toBe(`relatorio-vendas-${id}-cotacoes.xlsx`);
  const sheet = await readSheet(file.path);
  expect(sheet[0]!.slice(0, 4)).toEqual(['Cotação', 'Criada em', 'Produto', 'Situação']);
  expect(sheet.length).toBeGreaterThan(1);
  for (const row of sheet.slice(1)) {
    expect(row[1]).toBeInstanceOf(Date);
    if (row[10] !== null) expect(typeof row[10]).toBe('number');
  }
});

test('who may ask: a seller without RELATORIO_VENDAS and a legacy group without RELATORIO_GESTAO are refused, and nothing is stored', async ({
  browser,
}) => {
  const count = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.insurerAdmin); // sees every report
    await page.goto('/v2/relatorios/vendas/consulta');
    const list = page.locator('ul.reports');
    const label = (await list.count()) ? await list.getAttribute('aria-label') : '0';
    await context.close();
    return Number(label!.split(' ')[0]);
  };
  const before = await count();
  const form = { de: '2026-01-01', ate: '2026-01-31', tipo: 'apolices', formato: 'csv' };
  for (const [account, request] of [
    [ACCOUNTS.partner, '/v2/relatorios/vendas/cadastro'],
    [ACCOUNTS.legacyConsultant, '/novo-relatorio-vendas'],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, account);
    expect((await page.goto(request))!.status()).toBe(403);
    const posted = await page.request.post(request, { form, headers: { origin: new URL(page.url()).origin }, maxRedirects: 0 });
    expect(posted.status()).toBe(403);
    await context.close();
  }
  expect(await count()).toBe(before);
});

/**
 * Sends a burst of requests for reports as the user's browser session would, all at once; answers
 * their statuses (303: stored; 429: over the user's cap) and the refusals' pages.
 */
async function burst(page: Page, path: string, count: number) {
  const form = { de: '2026-01-01', ate: '2026-01-31', tipo: 'cotacoes', formato: 'csv' };
  const origin = new URL(page.url()).origin;
  const answers = await Promise.all(
    Array.from({ length: count }, () => page.request.post(path, { form, headers: { origin }, maxRedirects: 0 })),
  );
  return Promise.all(answers.map(async (a) => ({ status: a.status(), body: a.status() === 429 ? await a.text() : '' })));
}

const QUEUE_FULL = /Você já tem 5 relatórios na fila ou sendo gerados, o máximo por usuário\./;

for (const { generation, account, novo } of [
  { generation: 'v2', account: ACCOUNTS.subagent, novo: '/v2/relatorios/vendas/cadastro' },
  { generation: 'legacy', account: ACCOUNTS.legacySeller, novo: '/novo-relatorio-vendas' },
] as const) {
  test(`${generation}: one user's reports beyond the cap are refused (429) with a message on the page`, async ({ page }) => {
    await signIn(page, account);
    await page.goto(novo);
    // Fifteen at once: at most the cap is stored (the job may finish one meanwhile), the rest are 429.
    const answers = await burst(page, novo, 15);
    expect(answers.every((a) => a.status === 303 || a.status === 429)).toBe(true);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    for (const a of refused) expect(a.body).toMatch(QUEUE_FULL);

    // The form in the browser, sent while the queue is full, says why on the page. The job may have
    // made a report since the burst: then the queue is filled again and the form sent once more.
    for (let attempt = 1; ; attempt++) {
      await page.goto(novo);
      const form = page.getByTestId('form-relatorio');
      await form.getByLabel('Cotações').check();
      await burst(page, novo, 6);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === novo),
        form.getByRole('button', { name: 'Gerar relatório' }).click(),
      ]);
      if (response.status() === 429 || attempt === 3) {
        expect(response.status()).toBe(429);
        break;
      }
    }
    const alert = page.getByTestId('erro-fila');
    await expect(alert).toHaveText(QUEUE_FULL);
    await expect(alert.getByRole('link', { name: 'Ver meus relatórios' })).toBeVisible();
    await expect(page.getByTestId('form-relatorio').getByLabel('Cotações')).toBeChecked();
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `fila-cheia-${generation}-${width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  });
}
