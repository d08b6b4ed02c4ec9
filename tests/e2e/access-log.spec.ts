import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { parse } from 'csv-parse/sync';
import { ACCOUNTS, BASE_URL, openDrawer, screenshotsAt, signIn, signOut } from './helpers';

/**
 * Issue 17, the access log as the insurer's ADMIN uses it (decision 049): a partner signs in, opens an
 * insured's policy and its PDF, and signs out; a partner's administrator creates a permission group;
 * the ADMIN finds each of these in Gestão › Log de Acesso by user, event and record — who, when, from
 * where, which policy —, sees that every view counts (a second look is a second row), exports the
 * filtered log as CSV, reads it back, and finds the export itself on the log. The run shares one
 * database: counts are taken before and after, never assumed. Screenshots under
 * test-results/access-log-screens.
 */
const INSURED_CPF = '381.926.457-46'; // Rafael Nogueira Pinto, the demo partner's life policy
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const shoot = (page: Page, name: string) => screenshotsAt(page, 'access-log-screens', name);

/** Fills the log's filters and submits them (blank values clear a filter). */
async function filter(page: Page, values: { usuario?: string; evento?: string; registro?: string }) {
  await page.getByLabel('Usuário (nome ou e-mail)').fill(values.usuario ?? '');
  await page.getByLabel('Evento').selectOption({ label: values.evento ?? 'Todos' });
  await page.getByLabel('Registro (número)').fill(values.registro ?? '');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByTestId('log-acesso')).toBeVisible();
}

/** How many events the table's caption counts for the filters shown. */
async function total(page: Page): Promise<number> {
  const caption = (await page.getByTestId('log-acesso').locator('caption').textContent()) ?? '';
  const match = /— (\d+) eventos?,/.exec(caption);
  return match ? Number(match[1]) : 0;
}

const rows = (page: Page) => page.getByTestId('evento');

test('the ADMIN finds sign-ins, a permission change and the views of an insured’s data in the access log, and exports them', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const partnerEmail = ACCOUNTS.partner.email;

  // The ADMIN opens the log from the menu: Gestão › Log de Acesso.
  await signIn(page, ACCOUNTS.insurerAdmin);
  const drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: 'Gestão' }).click();
  await drawer.getByRole('link', { name: 'Log de Acesso' }).click();
  await expect(page).toHaveURL(/\/v2\/log-acesso$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log de acesso' })).toBeVisible();

  // A partner, in a browser of their own, signs in and opens an insured's policy.
  const partnerContext = await browser.newContext({ baseURL: BASE_URL });
  const partner = await partnerContext.newPage();
  await signIn(partner, ACCOUNTS.partner);
  await partner.goto(`/v2/apolices?segurado=${encodeURIComponent(INSURED_CPF)}`);
  const nrApolice = (await partner.getByRole('table').getByRole('link').first().textContent())!.trim();
  await partner.getByRole('link', { name: nrApolice }).click();
  await expect(partner).toHaveURL(new RegExp(`/v2/apolices/${nrApolice}$`));
  await expect(partner.getByRole('heading', { level: 1 })).toContainText(nrApolice);

  // The ADMIN finds the view: the partner, the event, the policy.
  await filter(page, { usuario: partnerEmail, evento: 'Dados de segurado visualizados', registro: nrApolice });
  await expect(page).toHaveURL(
    new RegExp(`usuario=${encodeURIComponent(partnerEmail)}.*evento=DADOS_SEGURADO_VISUALIZADOS.*registro=${nrApolice}`),
  );
  const views = await total(page);
  expect(views).toBeGreaterThanOrEqual(1);
  const newest = rows(page).first();
  await expect(newest).toContainText('Dados de segurado visualizados');
  await expect(newest).toContainText(`Eduarda Lima (${partnerEmail})`);
  await expect(newest).toContainText('Horizonte');
  await expect(newest).toContainText('127.0.0.1');
  await expect(newest.getByTestId('registro')).toHaveText(`Apólice ${nrApolice}`);
  await expect(newest).toContainText('Página da apólice');

  // Every look counts: the page again is one row more, and its PDF is an export of the data.
  await partner.reload();
  await expect(partner.getByRole('heading', { level: 1 })).toContainText(nrApolice);
  const pdfHref = (await partner.getByTestId('apolice-pdf').getAttribute('href'))!;
  const pdf = await partner.request.get(pdfHref);
  expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf']);
  await page.reload();
  await expect.poll(() => total(page)).toBe(views + 1);
  await filter(page, { usuario: partnerEmail, evento: 'Dados de segurado baixados ou exportados', registro: nrApolice });
  await expect(rows(page).first()).toContainText('PDF da apólice');
  await expect(rows(page).first().getByTestId('registro')).toHaveText(`Apólice ${nrApolice}`);

  // The partner's sign-in and sign-out are there too.
  await signOut(partner, 'v2');
  await partnerContext.close();
  await filter(page, { usuario: partnerEmail, evento: 'Entrada no portal' });
  await expect(rows(page).first()).toContainText('Entrada no portal');
  await filter(page, { usuario: partnerEmail, evento: 'Saída do portal' });
  await expect(rows(page).first()).toContainText('Saída do portal');
  await expect(rows(page).first()).toContainText('127.0.0.1');

  // A partner's administrator creates a permission group; the ADMIN finds who did it and what.
  const group = `Conferência ${stamp()}`;
  const adminContext = await browser.newContext({ baseURL: BASE_URL });
  const partnerAdmin = await adminContext.newPage();
  await signIn(partnerAdmin, ACCOUNTS.partnerAdmin);
  await partnerAdmin.goto('/v2/usuario/permissoes/cadastro');
  await partnerAdmin.getByLabel('Empresa', { exact: true }).selectOption('11222333000181');
  await partnerAdmin.getByLabel('Nome do grupo').fill(group);
  await partnerAdmin.getByRole('checkbox', { name: 'Métricas' }).check();
  await partnerAdmin.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(partnerAdmin).toHaveURL(/\/v2\/usuario\/permissoes\/sucesso/);
  await adminContext.close();
  await filter(page, { usuario: ACCOUNTS.partnerAdmin.email, evento: 'Grupo de permissões criado' });
  const created = rows(page).filter({ hasText: group });
  await expect(created).toHaveCount(1);
  await expect(created).toContainText('Daniel Souza');
  await expect(created).toContainText('incluídas METRICAS');

  // The partner's views of that policy, exported as CSV and read back.
  await filter(page, { usuario: partnerEmail, registro: nrApolice });
  const shown = await total(page);
  await shoot(page, 'log-filtered');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('exportar-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^log-de-acesso-\d{4}-\d{2}-\d{2}-a-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(shown);
  expect(records.every((r) => r.Registro === `Apólice ${nrApolice}` && r.Usuário === `Eduarda Lima (${partnerEmail})`)).toBe(true);
  const details = records.map((r) => r.Detalhe);
  expect(details).toContain('Página da apólice');
  expect(details).toContain('PDF da apólice');
  expect(records[0]).toMatchObject({
    IP: '127.0.0.1',
    'Data e hora (Brasília)': expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/),
  });

  // The export is on the log, with its filters.
  await filter(page, { usuario: ACCOUNTS.insurerAdmin.email, evento: 'Log de acesso exportado' });
  await expect(rows(page).first()).toContainText(`usuário "${partnerEmail}"`);
  await expect(rows(page).first()).toContainText(`registro ${nrApolice}`);

  // A refused filter says why, in pt-BR, and offers no export.
  await page.getByLabel('De', { exact: true }).fill('2026-03-31');
  await page.getByLabel('Até', { exact: true }).fill('2026-03-01');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByLabel('Até', { exact: true })).toHaveAccessibleDescription('A data final não pode ser anterior à data inicial.');
  await expect(page.getByTestId('exportar-csv')).toHaveCount(0);
  await shoot(page, 'log-refused');
});

test('nobody but the insurer’s ADMIN opens the log or its CSV', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  for (const url of ['/v2/log-acesso', '/v2/log-acesso/exportar.csv']) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(403);
  }
  const api = await page.request.get('/api/bff/v1/log-acesso', { headers: { 'x-portal-session': 'cookie' } });
  expect(api.status()).toBe(403);
});
