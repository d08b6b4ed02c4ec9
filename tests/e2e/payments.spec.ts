import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 13, getting paid: the policy's page shows each open installment's boleto (linha digitável)
 * and Pix (copia e cola and QR code); the insurer's admin pays them on the demo bank, and the
 * partner sees the installment paid at the next request.
 */
const SEED_POLICY = `1391${new Date().getFullYear()}0000001`; // the demo partner's life policy, boleto 1x

async function payOnDemoBank(admin: Page, code: string) {
  await admin.goto('/banco-demonstracao');
  await waitForIslands(admin);
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(code);
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await expect(admin.getByRole('status')).toContainText('Pago:');
}

test('a boleto copied from the policy page and paid on the demo bank shows as paid', async ({ browser }) => {
  const partner = await (await browser.newContext()).newPage();
  const admin = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  await partner.goto(`/v2/apolices/${SEED_POLICY}`);
  const charge = partner.getByTestId('cobranca-1');
  await expect(charge.getByRole('img', { name: 'QR code Pix da parcela 1' })).toBeVisible();
  const line = (await partner.getByTestId('linha-1').textContent())!.trim();
  expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);

  await signIn(admin, ACCOUNTS.insurerAdmin);
  // A code that is no charge of ours is told so.
  await admin.goto('/banco-demonstracao');
  await waitForIslands(admin);
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill('00190.00009 01149.718601 68524.522114 6 75860000102656');
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await expect(admin.getByRole('alert')).toContainText('Código de pagamento não reconhecido');
  await payOnDemoBank(admin, line);

  await partner.reload();
  await expect(partner.getByTestId('parcelas')).toContainText('Paga em');
  await expect(partner.getByTestId('cobranca-1')).toHaveCount(0);
  // Issue 27 item 12: the paid installment's boleto PDF says why there is none, with the way to the policy.
  const gone = await partner.goto(`/v2/relatorios/pdf/boleto/apolice/${SEED_POLICY}?parcela=1`);
  expect(gone!.status()).toBe(410);
  await expect(partner.getByRole('heading', { level: 1 })).toHaveText(/^Parcela paga em \d{2}\/\d{2}\/\d{4}$/);
  await expect(partner.getByText(`A 1ª parcela da apólice ${SEED_POLICY} já foi paga`)).toBeVisible();
  await partner.getByRole('link', { name: `Ver a apólice nº ${SEED_POLICY}` }).click();
  await expect(partner).toHaveURL(new RegExp(`/v2/apolices/${SEED_POLICY}$`));
  // Paying it again is refused: one payment per installment.
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(line);
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await expect(admin.getByRole('alert')).toContainText('não está mais em aberto');
});

test('a partial payment leaves the installment open; the excess of the next is a credit the insurer’s admin sees to refund', async ({
  browser,
}) => {
  // Issue 27 item 13: every amount received is recorded and says what it did.
  const partner = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  await sellResidential(partner, { method: 'Boleto bancário' });
  const nrApolice = (await partner.getByTestId('nr-apolice').textContent())!.trim();
  await partner.goto(`/v2/apolices/${nrApolice}`);
  const line = (await partner.getByTestId('linha-1').textContent())!.trim();
  const due = (await partner.getByTestId('total-1').textContent())!.trim();

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/banco-demonstracao');
  await waitForIslands(admin);
  const pay = async (amount: string) => {
    await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(line);
    await admin.getByLabel('Valor pago (R$)').fill(amount);
    await admin.getByRole('button', { name: 'Pagar' }).click();
  };
  await pay('um real');
  await expect(admin.getByRole('alert')).toContainText('Informe o valor em reais, como 383,95');
  await pay('1,00');
  await expect(admin.getByRole('status')).toContainText(`Pagamento parcial: R$ 1,00 da 1ª parcela da apólice ${nrApolice}`);
  await partner.reload();
  await expect(partner.getByTestId('parcela-1')).toContainText('Em aberto');
  await expect(partner.getByTestId('pago-1')).toHaveText('R$ 1,00 (parcial)');

  // The whole amount on top: the installment is paid, and R$ 1,00 is owed back.
  await pay(due.replace('R$', '').trim());
  // What was paid above is given back through the refunds' queue (decision 074).
  await expect(admin.getByRole('status')).toContainText('R$ 1,00 pago a mais, na fila de restituições');
  await partner.reload();
  await expect(partner.getByTestId('parcela-1')).toContainText('Paga em');
  await expect(partner.getByTestId('pago-1')).toContainText(due);
  await expect(partner.getByTestId('pago-1')).toContainText('R$ 1,00 a devolver');

  await admin.goto('/v2/boleto');
  await admin.getByTestId('recebimentos-a-conferir').click();
  await expect(admin).toHaveURL(/\/v2\/boleto\/recebimentos$/);
  const listed = admin.getByRole('row').filter({ hasText: `1ª parcela da apólice ${nrApolice}` });
  await expect(listed).toHaveCount(1);
  // The excess is a refund in the refunds' queue (decision 074), and the row leads there.
  await expect(listed).toContainText('Devolução na fila de restituições, a pagar');
  await expect(admin.getByTestId('a-devolver')).toContainText('R$');
  await listed.getByRole('link', { name: 'Ver na fila de restituições' }).click();
  await expect(admin).toHaveURL(new RegExp(`nrApolice=${nrApolice}`));
  await expect(admin.getByText(nrApolice).first()).toBeVisible();
  // A partner's user may not look at the insurer's receipts.
  expect((await partner.goto('/v2/boleto/recebimentos'))!.status()).toBe(403);
});

test('a Pix sale: its copia e cola paid on the demo bank settles the policy', async ({ browser }) => {
  const partner = await (await browser.newContext()).newPage();
  await signIn(partner, ACCOUNTS.partner);
  await sellResidential(partner, { method: 'Pix (à vista)' });
  const nrApolice = (await partner.getByTestId('nr-apolice').textContent())!.trim();

  await partner.goto(`/v2/apolices/${nrApolice}`);
  const pix = (await partner.getByTestId('pix-1').textContent())!.trim();
  expect(pix).toMatch(/^000201.*6304[0-9A-F]{4}$/);

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await payOnDemoBank(admin, pix);
  await partner.reload();
  await expect(partner.getByTestId('parcelas')).toContainText('Paga em');
});
