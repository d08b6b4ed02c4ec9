import { expect, request as playwrightRequest, type Page } from '@playwright/test';
import { test } from './fixtures';
import { pdfText } from '../fixtures/pdf';
import { PRODUCT_REGISTRATIONS } from '../../src/lib/insurer';
import { ACCOUNTS, BASE_URL, latestEmail, screenshotsAt, signIn, waitForIslands, type Generation } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 13, the policy's documents in both generations: a sale accepted at once becomes a policy
 * whose page links its PDF and, for each installment still payable, the boleto PDF with the same
 * linha digitável the page shows. Whoever is not signed in to that generation gets no PDF.
 */
const POLICIES = { v1: '/apolices', v2: '/v2/apolices' } as const;
const LOGIN = { v1: '/signin', v2: '/v2/login' } as const;

/** Follows a PDF link with the page's session and answers the document's text. */
async function openPdf(page: Page, href: string): Promise<string> {
  const response = await page.request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect(response.headers()['cache-control']).toContain('no-store');
  const body = await response.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  return (await pdfText(new Uint8Array(body))).replace(/\s+/g, ' ');
}

async function sellAndOpenPolicy(page: Page, generation: Generation): Promise<string> {
  await sellResidential(page, { generation, method: 'Boleto bancário' });
  await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
  const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();
  await page.goto(`${POLICIES[generation]}/${nrApolice}`);
  await expect(page.getByTestId('nr-apolice')).toHaveText(nrApolice);
  return nrApolice;
}

// Whoever sees a policy's installments sees how to pay them (issue 27, item 5; decision 059): the legacy
// seller too, though his group lacks CLIENTES_CONSULTA_PAGAMENTO.
for (const [generation, account] of [
  ['v2', ACCOUNTS.partner],
  ['v1', ACCOUNTS.legacySeller],
] as const) {
  test(`${generation}: sell → policy → its PDF and the boleto PDF of an installment`, async ({ page, baseURL }) => {
    await signIn(page, account);
    const nrApolice = await sellAndOpenPolicy(page, generation);

    const policyLink = page.getByRole('link', { name: 'Baixar apólice (PDF)' });
    const policyHref = (await policyLink.getAttribute('href'))!;
    expect(policyHref).toBe(`${generation === 'v2' ? '/v2/relatorios/pdf' : '/relatorios'}/apolice/apolice/${nrApolice}`);
    const policy = await openPdf(page, policyHref);
    expect(policy).toContain(`Nº da apólice ${nrApolice}`);
    expect(policy).toContain('Mariana Alves Pereira');
    expect(policy).toContain('Código SUSEP');
    // Circular SUSEP 642/2021: the product's SUSEP process, the broker's registration, the Condições Gerais and where to read them.
    expect(policy).toContain(`Processo SUSEP ${PRODUCT_REGISTRATIONS.RES!.process}`);
    expect(policy).toMatch(/Registro SUSEP do corretor (\d{5,15}|Não se aplica)/);
    if (generation === 'v2') expect(policy).toContain('Registro SUSEP do corretor 202031234');
    expect(policy).toContain(
      `Condições Gerais do produto Residencial, registradas na SUSEP sob o processo nº ${PRODUCT_REGISTRATIONS.RES!.process}`,
    );
    expect(policy).toContain(PRODUCT_REGISTRATIONS.RES!.conditionsUrl);

    const boletoLink = page.getByTestId('boleto-pdf-1');
    const line = (await page.getByTestId('linha-1').textContent())!.trim();
    const boleto = await openPdf(page, (await boletoLink.getAttribute('href'))!);
    expect(boleto).toContain(line);
    expect(boleto).toContain(`apólice nº ${nrApolice}`);

    // Signed out — or signed in to the other generation only — the PDF asks for this generation's login.
    const stranger = await playwrightRequest.newContext({ baseURL, maxRedirects: 0 });
    const refused = await stranger.get(policyHref);
    expect(refused.status()).toBe(302);
    expect(new URL(refused.headers().location!, baseURL).pathname).toBe(LOGIN[generation]);
    await stranger.dispose();
  });
}

test('v2: another company’s user gets the 404 page for the policy and its boleto', async ({ browser }) => {
  const seller = await (await browser.newContext()).newPage();
  await signIn(seller, ACCOUNTS.partner);
  const nrApolice = await sellAndOpenPolicy(seller, 'v2');
  const boletoHref = (await seller.getByTestId('boleto-pdf-1').getAttribute('href'))!;

  const other = await (await browser.newContext()).newPage();
  await signIn(other, ACCOUNTS.subagent);
  for (const href of [`/v2/relatorios/pdf/apolice/apolice/${nrApolice}`, boletoHref]) {
    const response = await other.request.get(href);
    expect(response.status(), href).toBe(404);
    expect(response.headers()['content-type']).toContain('text/html');
  }
});

test('the seller and the insured are told of the issuance; the insured’s link opens the PDF without an account', async ({
  page,
  browser,
}) => {
  await signIn(page, ACCOUNTS.partner);
  const nrApolice = await sellAndOpenPolicy(page, 'v2');

  const toSeller = await latestEmail(page, ACCOUNTS.partner.email, `Apólice ${nrApolice} emitida — Mariana Alves Pereira`);
  expect(toSeller.links).toContain(`${BASE_URL}/v2/apolices/${nrApolice}`);

  const toInsured = await latestEmail(page, 'mariana.pereira@exemplo.com.br', `Sua apólice de seguro Residencial nº ${nrApolice}`);
  const link = toInsured.links.find((href) => href.includes('/apolice-digital/'))!;
  expect(link).toMatch(/\/apolice-digital\/[\w-]{43}$/);
  const insured = await browser.newContext(); // no session at all
  const response = await insured.request.get(link);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect((await pdfText(new Uint8Array(await response.body()))).replace(/\s+/g, ' ')).toContain(`Nº da apólice ${nrApolice}`);
  // One character changed and it opens nothing.
  const altered = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  expect((await insured.request.get(altered)).status()).toBe(404);
  // …and the insured who opens it is told why and what to do.
  const page404 = await insured.newPage();
  await page404.goto(altered);
  await expect(page404.getByRole('heading', { name: 'Este link da apólice não está mais disponível.' })).toBeVisible();
  await expect(page404.getByText('Os links enviados por e-mail valem 30 dias')).toBeVisible();
  await insured.close();
});

const DETAIL = 'Seguro incluído no financiamento do imóvel';

for (const [generation, account] of [
  ['v2', ACCOUNTS.partner],
  ['v1', ACCOUNTS.legacySeller],
] as const) {
  test(`${generation}: a cancellation's PDF and the policy's endorsements say its reason in words, never its code`, async ({ page }) => {
    test.setTimeout(120_000); // a sale and a cancellation, every step through the browser
    await signIn(page, account);
    const nrApolice = await sellAndOpenPolicy(page, generation);
    await page.getByRole('link', { name: 'Endossos' }).click();
    const home = page.url();
    await page.getByRole('link', { name: 'Cancelar apólice' }).click();
    await waitForIslands(page);
    // The day the field offers (today); nothing is paid yet, so nothing is refunded.
    await page.getByRole('radio', { name: 'O segurado' }).check();
    await page.getByLabel('Motivo', { exact: true }).selectOption({ label: 'Contratou outro seguro' });
    await page.getByLabel('Observações (opcional)').fill(DETAIL);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
    await page.getByRole('button', { name: 'Ver o resumo' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/resumo\?/);
    await page.getByRole('link', { name: 'Continuar', exact: true }).click();
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByRole('button', { name: 'Sim, cancelar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/sucesso\?/);
    const nrEndosso = (await page.getByTestId('nr-endosso').textContent())!.trim();

    const pdf = await openPdf(page, (await page.getByTestId('endosso-pdf').getAttribute('href'))!);
    expect(pdf).toContain(`Nº da apólice ${nrApolice}`);
    expect(pdf).toContain(`Motivo Contratou outro seguro — ${DETAIL}`);
    expect(pdf).not.toContain('OUTRO_SEGURO');

    await page.goto(home);
    const row = page.getByTestId('endossos').getByRole('row').filter({ hasText: nrEndosso });
    await expect(row.getByTestId('motivo')).toHaveText(`Motivo: Contratou outro seguro — ${DETAIL}`);
    await expect(page.getByTestId('endossos')).not.toContainText('OUTRO_SEGURO');
    await screenshotsAt(page, 'endorsements', `${generation}-motivo`);
  });
}
