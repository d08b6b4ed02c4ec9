import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ACCOUNTS, signIn, waitForIslands, type DemoAccount } from './helpers';
import { sellResidential } from './selling';
import { MINIMAL_PDF } from '../fixtures/documents';

/**
 * Issue 14, documents as the partner and the insurer live them, in both generations: the insurer asks
 * for documents of a referred proposal; the partner sends a PDF from the proposal's page (the bar
 * shows the upload's progress), a text file dressed as a PDF is refused in pt-BR, and the proposal
 * goes back to analysis with its clock running; another user of the same company finds and downloads
 * the very bytes sent; a user outside the scope gets the 404 page for the download's address.
 */
const NOT_FOUND = 'Desculpe, esta página não está disponível.';

async function pageAs(browser: Browser, account: DemoAccount): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

/** The provider's ADMIN asks for documents of a referred proposal in the analysis queue. */
async function askForDocuments(browser: Browser, nrProposta: string) {
  const admin = await pageAs(browser, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/propostas/analise');
  // The queue's decisions hydrate once in view (client:visible): wait for this proposal's own.
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await item.scrollIntoViewIfNeeded();
  await expect(item.locator('astro-island[ssr]')).toHaveCount(0);
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  await item.getByLabel('Documentos pedidos ao parceiro').fill('Laudo de vistoria do imóvel.');
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));
  await admin.context().close();
}

/** From the proposal page waiting for documents: a refused file, then the PDF; answers the download's address. */
async function sendDocuments(partner: Page): Promise<string> {
  await partner.reload();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Aguardando documentos');
  await partner.getByTestId('enviar-documentos').click();
  await expect(partner).toHaveURL(/\/documentos\/envio\?proposta=\d+$/);
  await expect(partner.getByTestId('envio-situacao')).toHaveText('Aguardando documentos');
  await expect(partner.getByTestId('envio-pedido')).toContainText('Laudo de vistoria do imóvel.');
  await waitForIslands(partner);

  const form = partner.getByRole('form', { name: /Enviar documento da proposta/ });
  await form.getByLabel('Tipo de documento').selectOption({ label: 'Laudo de vistoria' });
  // A text file named .pdf: its bytes say what it is.
  await form.getByLabel('Arquivo').setInputFiles({ name: 'laudo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('não sou um PDF') });
  await form.getByRole('button', { name: 'Enviar documento' }).click();
  await expect(form.getByRole('alert')).toHaveText('Tipo de arquivo não permitido: envie um PDF, JPEG ou PNG.');
  await expect(partner.getByTestId('documentos-enviados')).toHaveCount(0);

  await form.getByLabel('Tipo de documento').selectOption({ label: 'Laudo de vistoria' });
  await form
    .getByLabel('Arquivo')
    .setInputFiles({ name: 'laudo-vistoria.pdf', mimeType: 'application/pdf', buffer: Buffer.from(MINIMAL_PDF) });
  await form.getByRole('button', { name: 'Enviar documento' }).click();
  await expect(form.getByRole('progressbar', { name: 'Progresso do envio' })).toHaveAttribute('value', '100');
  const sent = partner.getByTestId('documentos-enviados');
  await expect(sent).toContainText('Documento enviado:');
  await expect(sent).toContainText('laudo-vistoria.pdf');
  await expect(partner.getByTestId('analise-retomada')).toContainText('A análise da proposta foi retomada');
  const href = (await sent.getByRole('link', { name: 'laudo-vistoria.pdf' }).getAttribute('href'))!;

  // Back on the proposal: in analysis again, its clock running, the timeline saying why.
  await partner.getByRole('link', { name: 'Ver a proposta' }).click();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Em análise');
  await expect(partner.getByTestId('prazo-aceite')).toContainText('Aceite em até');
  await expect(partner.getByTestId('andamento')).toContainText('Documentos enviados — prazo de aceitação retomado');
  await expect(partner.getByTestId('andamento')).toContainText('Laudo de vistoria: laudo-vistoria.pdf');
  return href;
}

/** Another user finds the document in Consulta and downloads exactly the bytes sent. */
async function consultAndDownload(page: Page, consulta: string, nrProposta: string) {
  await page.goto(`${consulta}?nrProposta=${nrProposta}`);
  const row = page.getByRole('row').filter({ hasText: 'laudo-vistoria.pdf' });
  await expect(row).toContainText('Laudo de vistoria');
  await expect(row).toContainText(nrProposta);
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'laudo-vistoria.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('laudo-vistoria.pdf');
  expect(readFileSync((await download.path())!).equals(Buffer.from(MINIMAL_PDF))).toBe(true);
}

test('v2: the partner sends a document the insurer asked for; the partner admin downloads it; another company gets 404', async ({
  browser,
}) => {
  const partner = await pageAs(browser, ACCOUNTS.partner);
  const nrProposta = await sellResidential(partner, { mixed: true });
  await askForDocuments(browser, nrProposta);
  const href = await sendDocuments(partner);
  expect(href).toMatch(/^\/v2\/documentos\/arquivo\/\d+$/);

  const partnerAdmin = await pageAs(browser, ACCOUNTS.partnerAdmin);
  await consultAndDownload(partnerAdmin, '/v2/documentos/consulta', nrProposta);

  const other = await pageAs(browser, ACCOUNTS.subagent);
  const response = await other.goto(href);
  expect(response?.status()).toBe(404);
  await expect(other.getByText(NOT_FOUND)).toBeVisible();
});

test('legacy: the seller sends a document the insurer asked for; the admin group downloads it; a colleague outside the scope gets 404', async ({
  browser,
}) => {
  const seller = await pageAs(browser, ACCOUNTS.legacySeller);
  const nrProposta = await sellResidential(seller, { generation: 'v1', mixed: true });
  await askForDocuments(browser, nrProposta);
  const href = await sendDocuments(seller);
  expect(href).toMatch(/^\/documentos\/arquivo\/\d+$/);

  const admin = await pageAs(browser, ACCOUNTS.legacyAdmin);
  await consultAndDownload(admin, '/documentos/consulta', nrProposta);

  // Legacy scopes are the user's own sales (or all, for the admin group): a colleague sees none of these.
  const colleague = await pageAs(browser, ACCOUNTS.legacyConsultant);
  const response = await colleague.goto(href);
  expect(response?.status()).toBe(404);
  await expect(colleague.getByText(NOT_FOUND)).toBeVisible();
});
