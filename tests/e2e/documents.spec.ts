import { readFileSync } from 'node:fs';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, askForDocuments, signIn, waitForIslands, type DemoAccount } from './helpers';
import { sellResidential } from './selling';
import { MINIMAL_PDF, MINIMAL_PNG } from '../fixtures/documents';

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

/**
 * From the proposal page waiting for documents: a refused file, then the PDF — the page's state and
 * list follow at once (issue 27, item 12) —, then a second file, which the timeline names too (item
 * 10); answers the download's address.
 */
async function sendDocuments(partner: Page): Promise<string> {
  await partner.reload();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Aguardando documentos');
  await partner.getByTestId('enviar-documentos').click();
  await expect(partner).toHaveURL(/\/documentos\/envio\?proposta=\d+$/);
  await expect(partner.getByTestId('envio-situacao')).toHaveText('Aguardando documentos');
  await expect(partner.getByTestId('envio-pedido')).toContainText('Laudo de vistoria do imóvel.');
  // The limits, and what is used of them, are on the page (decision 057).
  await expect(partner.getByTestId('envio-limites')).toContainText('Até 10 MB por arquivo; até 30 documentos (150 MB) por proposta');
  await expect(partner.getByTestId('envio-uso')).toContainText('Esta proposta tem 0 de 30 documentos');
  await expect(partner.getByText('Nenhum documento enviado para esta proposta.')).toBeVisible();
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
  // Without a reload: the proposal is in analysis again and the file is among those sent.
  await expect(partner.getByTestId('envio-situacao')).toHaveText('Em análise');
  await expect(partner.getByText('Nenhum documento enviado para esta proposta.')).toHaveCount(0);
  await expect(partner.getByTestId('documentos-da-proposta')).toContainText('laudo-vistoria.pdf');
  await expect(partner.getByTestId('envio-uso')).toContainText('Esta proposta tem 1 de 30 documentos');

  await form.getByLabel('Tipo de documento').selectOption({ label: 'Outro' });
  await form.getByLabel('Arquivo').setInputFiles({ name: 'fachada.png', mimeType: 'image/png', buffer: Buffer.from(MINIMAL_PNG) });
  await form.getByRole('button', { name: 'Enviar documento' }).click();
  await expect(partner.getByTestId('documentos-da-proposta').getByRole('listitem')).toHaveCount(2);

  // Back on the proposal: in analysis again, its clock running, the timeline naming each file.
  await partner.getByRole('link', { name: 'Ver a proposta' }).click();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Em análise');
  await expect(partner.getByTestId('prazo-aceite')).toContainText('Aceite em até');
  await expect(partner.getByTestId('andamento')).toContainText('Documentos enviados — prazo de aceitação retomado');
  await expect(partner.getByTestId('andamento')).toContainText('Laudo de vistoria: laudo-vistoria.pdf');
  await expect(partner.getByTestId('andamento')).toContainText('Outro: fachada.png');
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
  await askForDocuments(browser, nrProposta, 'Laudo de vistoria do imóvel.');
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
  await askForDocuments(browser, nrProposta, 'Laudo de vistoria do imóvel.');
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

/** The upload page of a proposal, hydrated. */
async function openUpload(page: Page, envio: string, nrProposta: string) {
  await page.goto(`${envio}?proposta=${nrProposta}`);
  await waitForIslands(page);
  return page.getByRole('form', { name: /Enviar documento da proposta/ });
}

async function sendFile(page: Page, envio: string, nrProposta: string, name: string, buffer: Buffer) {
  const form = await openUpload(page, envio, nrProposta);
  await form.getByLabel('Tipo de documento').selectOption({ label: 'Outro' });
  await form.getByLabel('Arquivo').setInputFiles({ name, mimeType: 'application/pdf', buffer });
  await form.getByRole('button', { name: 'Enviar documento' }).click();
  return form;
}

for (const generation of ['v2', 'v1'] as const) {
  const envio = generation === 'v2' ? '/v2/documentos/envio' : '/documentos/envio';
  const seller = generation === 'v2' ? ACCOUNTS.partner : ACCOUNTS.legacySeller;

  test(`${generation}: the sender removes a document sent by mistake; the list, the timeline and the insurer's request follow`, async ({
    browser,
  }) => {
    const page = await pageAs(browser, seller);
    const nrProposta = await sellResidential(page, { generation, mixed: true });
    await askForDocuments(browser, nrProposta, 'Laudo de vistoria do imóvel.');
    await sendFile(page, envio, nrProposta, 'rg-de-outra-pessoa.pdf', Buffer.from(MINIMAL_PDF));
    await expect(page.getByTestId('envio-situacao')).toHaveText('Em análise');

    const item = page.getByTestId('documentos-da-proposta').getByRole('listitem').filter({ hasText: 'rg-de-outra-pessoa.pdf' });
    await item.getByRole('button', { name: 'Remover rg-de-outra-pessoa.pdf' }).click();
    await expect(item).toContainText('A remoção fica registrada no andamento da proposta.');
    await item.getByRole('button', { name: 'Confirmar remoção' }).click();
    await expect(page.getByTestId('documento-removido')).toContainText('Documento removido.');
    // It was the only answer to the insurer's request: the clock stands still again, the request shows again.
    await expect(page.getByTestId('documento-removido')).toContainText('A proposta voltou a aguardar documentos');
    await expect(page.getByTestId('envio-situacao')).toHaveText('Aguardando documentos');
    await expect(page.getByTestId('envio-pedido')).toContainText('Laudo de vistoria do imóvel.');
    await expect(page.getByText('Nenhum documento enviado para esta proposta.')).toBeVisible();
    await expect(page.getByTestId('envio-uso')).toContainText('Esta proposta tem 0 de 30 documentos');

    await page.reload();
    await expect(page.getByText('Nenhum documento enviado para esta proposta.')).toBeVisible();
    await page.getByTestId('envio-proposta').getByRole('link').click();
    await expect(page.getByTestId('andamento')).toContainText('Documento removido por quem o enviou');
    await expect(page.getByTestId('andamento')).toContainText('rg-de-outra-pessoa.pdf');
    await expect(page.getByTestId('situacao-proposta')).toHaveText('Aguardando documentos');
  });
}

test('a proposal at its limit of documents: the page says so before sending, and the server’s refusal reaches the screen too', async ({
  browser,
}) => {
  const page = await pageAs(browser, ACCOUNTS.partner);
  const nrProposta = await sellResidential(page, { mixed: true });
  // 29 documents sent through the API (as another tab would), then the page opens on 29 of 30.
  const send = (name: string) =>
    page.request.post(`/api/bff/v1/propostas/${nrProposta}/documentos?categoria=OUTRO`, {
      headers: { 'x-portal-session': 'cookie', 'content-type': 'application/octet-stream', 'x-nome-arquivo': name },
      data: Buffer.from(MINIMAL_PDF),
    });
  for (let i = 0; i < 29; i++) expect((await send(`anterior-${i}.pdf`)).status()).toBe(200);
  const form = await openUpload(page, '/v2/documentos/envio', nrProposta);
  await expect(page.getByTestId('envio-uso')).toContainText('Esta proposta tem 29 de 30 documentos');

  // Another tab sends the 30th: this page still believes there is room, sends 3 MB, and the server
  // refuses before reading them — the browser still reads its answer, not a broken connection.
  expect((await send('outra-aba.pdf')).status()).toBe(200);
  await form.getByLabel('Tipo de documento').selectOption({ label: 'Outro' });
  const large = Buffer.concat([Buffer.from(MINIMAL_PDF), Buffer.alloc(3 * 1024 * 1024)]);
  await form.getByLabel('Arquivo').setInputFiles({ name: 'demais.pdf', mimeType: 'application/pdf', buffer: large });
  await form.getByRole('button', { name: 'Enviar documento' }).click();
  const limit =
    'Esta proposta já tem 30 documentos, o limite por proposta. Remova um documento enviado por engano ou fale com a seguradora.';
  await expect(form.getByRole('alert')).toHaveText(limit);

  // Reloaded, the page knows: the same message, and nothing is sent.
  const again = await openUpload(page, '/v2/documentos/envio', nrProposta);
  await expect(page.getByTestId('envio-uso')).toContainText('Esta proposta tem 30 de 30 documentos');
  await again.getByLabel('Tipo de documento').selectOption({ label: 'Outro' });
  await again.getByLabel('Arquivo').setInputFiles({ name: 'demais.pdf', mimeType: 'application/pdf', buffer: Buffer.from(MINIMAL_PDF) });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await again.getByRole('button', { name: 'Enviar documento' }).click();
  await expect(again.getByRole('alert')).toHaveText(limit);
  expect(requests.filter((url) => url.includes('/documentos?'))).toEqual([]);
});

test('"Consultar documentos enviados" is offered only to whoever may open it (issue 27, item 12)', async ({ browser }) => {
  for (const [account, generation, offered] of [
    [ACCOUNTS.partner, 'v2', false],
    [ACCOUNTS.partnerAdmin, 'v2', true],
    [ACCOUNTS.legacySeller, 'v1', false],
  ] as const) {
    const [envio, consulta] =
      generation === 'v2' ? ['/v2/documentos/envio', '/v2/documentos/consulta'] : ['/documentos/envio', '/documentos/consulta'];
    const page = await pageAs(browser, account);
    await page.goto(envio);
    await expect(page.getByRole('heading', { name: 'Envio de documentos' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Consultar documentos enviados' })).toHaveCount(offered ? 1 : 0);
    // What the link would have led to.
    expect((await page.goto(consulta))?.status()).toBe(offered ? 200 : 403);
    await page.context().close();
  }
});
