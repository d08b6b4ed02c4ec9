import { readFileSync } from 'node:fs';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { startOwnServer, type OwnServer, ownPort } from './own-server';
import { sellResidential } from './selling';

/**
 * Issue 13, the payment pages as partners use them, on a server of this spec's own (its database
 * leaves the shared one's accounts alone). A v2 seller holding BOLETOS finds the seed's overdue
 * installment (Fernanda Lima Souza's 2nd of 4, sold 50 days ago) on /v2/boleto and issues its 2ª via;
 * a legacy user sells, is paid on the demo bank, and finds the payment in /consulta-pagamento and in
 * /relatorio-pagamento's CSV.
 */
const PORT = ownPort('payment-pages');
const OVERDUE_INSURED = 'Fernanda Lima Souza';
let server: OwnServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer(PORT);
});
test.afterAll(() => server?.dispose());

const pageOn = async (browser: Browser): Promise<Page> =>
  (await browser.newContext({ baseURL: server.base, acceptDownloads: true })).newPage();

test('v2: a seller with BOLETOS finds the overdue installment, issues its 2ª via, gets its PDF and sees it paid', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await pageOn(browser);
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/boleto');
  await expect(page.getByRole('heading', { level: 1, name: '2ª via de boleto' })).toBeVisible();
  await expect(page.getByTestId('busca-vazia')).toBeVisible();
  // Nothing searched: no 2ª via island (the page's own JavaScript is that island only).
  const secondCopyIslands = page.locator('astro-island[component-url*="SecondCopyForm"]');
  await expect(secondCopyIslands).toHaveCount(0);

  const search = async (field: string, value: string) => {
    await page.getByLabel(field).fill(value);
    await page.getByRole('button', { name: 'Buscar' }).click();
  };
  await search('Segurado (nome ou CPF/CNPJ)', 'ab');
  await expect(page.getByText('Informe o CPF/CNPJ ou ao menos uma palavra do nome do segurado com 3 letras ou mais.')).toBeVisible();
  await page.getByLabel('Segurado (nome ou CPF/CNPJ)').fill('');
  await search('Número da apólice', '99999999');
  await expect(page.getByText('Nenhuma parcela em aberto ou vencida encontrada para esta busca.')).toBeVisible();

  await page.getByLabel('Número da apólice').fill('');
  await search('Segurado (nome ou CPF/CNPJ)', OVERDUE_INSURED);
  const row = page.getByTestId(/^parcela-\d+-2$/);
  const nrApolice = /^parcela-(\d+)-2$/.exec((await row.getAttribute('data-testid'))!)![1]!;
  await expect(row).toContainText('Vencida');
  await expect(row).toContainText('2/4');
  await expect(row).toContainText('***.330.107-**');
  // The open 3rd and 4th installments link to the policy's boleto and Pix; only the overdue one has the island.
  await expect(
    page.getByTestId(`parcela-${nrApolice}-3`).getByRole('link', { name: /^Boleto e Pix na página da apólice/ }),
  ).toHaveAttribute('href', `/v2/apolices/${nrApolice}#pagamento`);
  await expect(page.getByTestId(`parcela-${nrApolice}-3`).getByTestId('boleto-pdf')).toHaveAttribute(
    'href',
    `/v2/relatorios/pdf/boleto/apolice/${nrApolice}?parcela=3`,
  );
  await expect(secondCopyIslands).toHaveCount(1);
  await waitForIslands(page);
  await row.getByRole('button', { name: 'Emitir 2ª via da parcela 2' }).click();

  // The island reloads the page: the 2ª via's linha digitável, Pix and QR code are shown in the row.
  const issued = page.getByTestId(`segunda-via-${nrApolice}-2`);
  await expect(issued).toBeVisible();
  await expect(issued.getByTestId('linha')).toHaveText(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
  await expect(issued.getByTestId('pix')).toHaveText(/^000201.*6304[0-9A-F]{4}$/);
  await expect(issued.getByRole('img', { name: /QR code Pix da 2ª via da parcela 2/ })).toBeVisible();
  await expect(issued).toContainText('com multa e juros');
  const total = /total (R\$ [\d.]+,\d{2})/.exec((await issued.textContent())!)![1]!;

  // Issue 27 item 12: the 2ª via has its PDF here too, with its own line.
  const pdf = await page.request.get((await issued.getByTestId('boleto-pdf').getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  // Paid on the demo bank, the policy's page shows what was paid — the 2ª via's total, not the installment's value.
  const line = (await issued.getByTestId('linha').textContent())!.trim();
  const bank = await pageOn(browser);
  await signIn(bank, ACCOUNTS.insurerAdmin);
  await bank.goto('/banco-demonstracao');
  await waitForIslands(bank);
  await bank.getByLabel('Linha digitável ou Pix copia e cola').fill(line);
  await bank.getByRole('button', { name: 'Pagar' }).click();
  await expect(bank.getByRole('status')).toContainText(`Pago: 2ª parcela da apólice ${nrApolice}, ${total}.`);
  await page.goto(`/v2/apolices/${nrApolice}`);
  await expect(page.getByTestId('parcela-2')).toContainText('Paga em');
  await expect(page.getByTestId('pago-2')).toHaveText(total);
});

test('legacy: a payment received shows in Consulta de pagamentos and in the report’s CSV', async ({ browser }) => {
  const seller = await pageOn(browser);
  await signIn(seller, ACCOUNTS.legacyAdmin);
  await sellResidential(seller, { generation: 'v1', method: 'Pix (à vista)' });
  const nrApolice = (await seller.getByTestId('nr-apolice').textContent())!.trim();
  await seller.goto(`/apolices/${nrApolice}`);
  const pix = (await seller.getByTestId('pix-1').textContent())!.trim();

  const bank = await pageOn(browser);
  await signIn(bank, ACCOUNTS.insurerAdmin);
  await bank.goto('/banco-demonstracao');
  await waitForIslands(bank);
  await bank.getByLabel('Linha digitável ou Pix copia e cola').fill(pix);
  await bank.getByRole('button', { name: 'Pagar' }).click();
  await expect(bank.getByRole('status')).toContainText('Pago:');

  // Issue 27 item 12, legacy: the paid installment's boleto PDF says when it was paid and links the policy.
  const gone = await seller.goto(`/relatorios/boleto/apolice/${nrApolice}?parcela=1`);
  expect(gone!.status()).toBe(410);
  await expect(seller.getByRole('heading', { level: 1 })).toHaveText(/^Parcela paga em \d{2}\/\d{2}\/\d{4}$/);
  await expect(seller.getByRole('link', { name: `Ver a apólice nº ${nrApolice}` })).toHaveAttribute('href', `/apolices/${nrApolice}`);

  await seller.goto('/consulta-pagamento');
  await seller.getByLabel('Número da apólice').fill(nrApolice);
  await seller.getByRole('button', { name: 'Buscar' }).click();
  const payments = seller.getByTestId('pagamentos');
  await expect(payments.getByRole('row')).toHaveCount(2); // the header and the one installment
  await expect(payments).toContainText('Paga');
  await expect(payments).toContainText('(Pix)');

  await seller.goto('/relatorio-pagamento?de=2026-01-01&ate=2027-06-30');
  await expect(seller.getByText('O período pode ter no máximo 1 ano: diminua o intervalo.')).toBeVisible();
  await seller.goto('/relatorio-pagamento');
  await expect(seller.getByTestId('totais')).toContainText('Residencial');
  await expect(seller.getByTestId('pagamentos')).toContainText(nrApolice);
  const [download] = await Promise.all([seller.waitForEvent('download'), seller.getByTestId('exportar-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^pagamentos-\d{4}-\d{2}-01-a-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe('Data do pagamento;Apólice;Produto;Segurado;CPF/CNPJ;Parcela;Valor pago (R$);Meio');
  expect(lines.find((l) => l.includes(nrApolice))).toMatch(/;Residencial;.*;1 de 1;\d+,\d{2};Pix$/);
});
