import { expect, test } from '@playwright/test';
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
