import { expect, test, type Page } from '@playwright/test';
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
  // Paying it again is refused: one payment per installment.
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(line);
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await expect(admin.getByRole('alert')).toContainText('não está mais em aberto');
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
