import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { MINIMAL_PDF, MINIMAL_PNG } from '../fixtures/documents';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 13, acceptance (Lei 15.040/2024) as the partner and the insurer live it in the browser: a
 * proposal within the rules is accepted at once with its policy; one outside them waits in the
 * ADMIN's queue with its 25-day clock, which stands still while documents are awaited.
 */
test('within the rules, the proposal is accepted at once and its policy number shown', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await sellResidential(page);
  await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
  await expect(page.getByTestId('nr-apolice')).toHaveText(/^0114\d{11}$/);
  await expect(page.getByTestId('prazo-aceite')).toHaveCount(0);
  await expect(page.getByTestId('andamento')).toContainText('Aceita automaticamente pelas regras de aceitação');
  await expect(page.getByTestId('andamento')).toContainText('Apólice emitida');
});

test('outside them, the ADMIN asks for documents, the partner sends them, the ADMIN accepts: the policy is issued', async ({ browser }) => {
  const partner = await (await browser.newContext()).newPage();
  const admin = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  const nrProposta = await sellResidential(partner, { mixed: true });
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Em análise');
  await expect(partner.getByTestId('prazo-aceite')).toContainText('Aceite em até 25 dias');
  await expect(partner.getByTestId('andamento')).toContainText('Construção mista (alvenaria e madeira).');

  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/propostas/analise');
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await expect(item).toContainText('Construção mista (alvenaria e madeira).');
  await waitForIslands(admin);
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  // A request without saying which documents is refused on the spot.
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(item.getByRole('alert')).toContainText('os documentos pedidos');
  await item.getByLabel('Documentos pedidos ao parceiro').fill('Fotos da fachada e da instalação elétrica.');
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));
  await expect(admin.getByTestId(`proposta-${nrProposta}`)).toContainText('Aguardando documentos');

  await partner.reload();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Aguardando documentos');
  await expect(partner.getByTestId('proximo-passo')).toContainText('Fotos da fachada e da instalação elétrica.');
  await expect(partner.getByTestId('prazo-aceite')).toContainText('suspenso');
  await waitForIslands(partner);
  await partner.getByLabel('Documentos enviados').fill('Enviei as fotos pelo e-mail do atendimento.');
  await partner.getByRole('button', { name: 'Informar envio dos documentos' }).click();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Em análise');
  await expect(partner.getByTestId('andamento')).toContainText('Enviei as fotos pelo e-mail do atendimento.');

  await admin.goto('/v2/propostas/analise');
  await waitForIslands(admin);
  await admin
    .getByTestId(`proposta-${nrProposta}`)
    .getByRole('button', { name: `Aceitar a proposta ${nrProposta}` })
    .click();
  await admin.getByTestId(`proposta-${nrProposta}`).getByRole('button', { name: 'Confirmar aceite' }).click();
  await expect(admin.getByTestId('decidida')).toContainText(nrProposta);
  await expect(admin.getByTestId(`proposta-${nrProposta}`)).toHaveCount(0);

  await partner.reload();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Aceita');
  await expect(partner.getByTestId('nr-apolice')).toHaveText(/^0114\d{11}$/);
  await expect(partner.getByTestId('andamento')).toContainText(`Aceita pela seguradora — ${ACCOUNTS.insurerAdmin.name}`);
});

/**
 * Issue 27, items 10 and 12: the queue shows the documents it asked for, each a download, for either
 * generation's proposal; and its decisions do not depend on the island's script having arrived.
 */
test('the queue lists the documents the partner sent, and the underwriter downloads them', async ({ browser }) => {
  const partner = await (await browser.newContext()).newPage();
  const admin = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  const nrProposta = await sellResidential(partner, { mixed: true });
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/propostas/analise');
  await waitForIslands(admin);
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await expect(admin.getByTestId(`documentos-${nrProposta}`)).toContainText('Nenhum documento enviado para esta proposta.');
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  await item.getByLabel('Documentos pedidos ao parceiro').fill('Laudo de vistoria e fotos da fachada.');
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));

  const send = (name: string, data: Buffer) =>
    partner.request.post(`/api/bff/v1/propostas/${nrProposta}/documentos?categoria=LAUDO_VISTORIA`, {
      headers: { 'x-portal-session': 'cookie', 'content-type': 'application/octet-stream', 'x-nome-arquivo': name },
      data,
    });
  expect((await send('laudo.pdf', Buffer.from(MINIMAL_PDF))).status()).toBe(200);
  expect((await send('fachada.png', Buffer.from(MINIMAL_PNG))).status()).toBe(200);

  await admin.goto('/v2/propostas/analise');
  const documents = admin.getByTestId(`documentos-${nrProposta}`);
  await expect(admin.getByTestId(`proposta-${nrProposta}`)).toContainText('Documentos pedidos: Laudo de vistoria e fotos da fachada.');
  await expect(documents.getByRole('link')).toHaveText(['laudo.pdf', 'fachada.png']);
  await expect(documents).toContainText(`Laudo de vistoria · ${MINIMAL_PDF.byteLength} bytes`);
  await expect(documents).toContainText(ACCOUNTS.partner.name);
  const [download] = await Promise.all([admin.waitForEvent('download'), documents.getByRole('link', { name: 'laudo.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('laudo.pdf');
  expect(readFileSync((await download.path())!).equals(Buffer.from(MINIMAL_PDF))).toBe(true);
  // The queue's download is the insurer's: a partner asking for it gets the 403 page.
  const href = (await documents.getByRole('link', { name: 'laudo.pdf' }).getAttribute('href'))!;
  expect((await partner.goto(href))?.status()).toBe(403);
});

test('deciding before the queue’s script has run: the choice opens its form and the decision is made (no click lost)', async ({
  browser,
}) => {
  const partner = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  const nrProposta = await sellResidential(partner, { mixed: true });
  const signedIn = await browser.newContext();
  await signIn(await signedIn.newPage(), ACCOUNTS.insurerAdmin);
  // The same session in a page whose scripts never run: every click lands before any hydration.
  const admin = await (await browser.newContext({ javaScriptEnabled: false, storageState: await signedIn.storageState() })).newPage();
  await admin.goto('/v2/propostas/analise');
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  const form = admin.getByTestId(`proposta-${nrProposta}`).getByRole('form', { name: `Pedir documentos: proposta ${nrProposta}` });
  // A request without saying which documents is refused, the form kept open with the message.
  await form.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin.getByTestId(`proposta-${nrProposta}`)).toContainText('Informe os documentos pedidos');
  await admin
    .getByTestId(`proposta-${nrProposta}`)
    .getByLabel('Documentos pedidos ao parceiro')
    .fill('Comprovante de residência do segurado.');
  await admin.getByTestId(`proposta-${nrProposta}`).getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));
  await expect(admin.getByTestId('decidida')).toContainText(`Documentos pedidos ao parceiro para a proposta nº ${nrProposta}`);
  await expect(admin.getByTestId(`proposta-${nrProposta}`)).toContainText('Aguardando documentos');

  await partner.reload();
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Aguardando documentos');
  await expect(partner.getByTestId('proximo-passo')).toContainText('Comprovante de residência do segurado.');

  // The partner's forms that cannot work without their script say so until it runs, rather than
  // swallowing a click (a native submit would reload the page and lose what was typed).
  const storageState = await partner.context().storageState();
  const unscripted = await (await browser.newContext({ javaScriptEnabled: false, storageState })).newPage();
  await unscripted.goto(partner.url());
  await expect(unscripted.getByRole('button', { name: 'Informar envio dos documentos' })).toBeDisabled();
  await unscripted.goto(`/v2/documentos/envio?proposta=${nrProposta}`);
  await expect(unscripted.getByRole('button', { name: 'Enviar documento' })).toBeDisabled();
});
