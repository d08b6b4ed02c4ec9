import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, latestEmail, signIn, type DemoAccount } from './helpers';

/**
 * Issue 31 (slice E), both generations: the insurer's staff opens the refunds queue, pays a refund a
 * cancellation owes through the demo bank, it moves to "Pagas", the policy's ledger shows it paid,
 * and the insured's message is in the demo mailbox. The demo seed cancels a policy of each
 * generation (src/server/demo/seed-policies.ts), so each queue has a refund a pagar.
 */
const JOURNEYS: {
  generation: 'v1' | 'v2';
  account: DemoAccount;
  queue: string;
  policies: string;
  insured: { name: string; email: string };
}[] = [
  {
    generation: 'v2',
    account: ACCOUNTS.insurerAdmin,
    queue: '/v2/restituicoes',
    policies: '/v2/apolices',
    insured: { name: 'Renata Oliveira Duarte', email: 'renata.duarte@exemplo.com.br' },
  },
  {
    generation: 'v1',
    // The administrators' group (admin@legado.demo is kept for the account-recovery journey).
    account: ACCOUNTS.legacySupport,
    queue: '/restituicoes',
    policies: '/apolices',
    insured: { name: 'Paulo Henrique Vieira', email: 'paulo.vieira@exemplo.com.br' },
  },
];

for (const { generation, account, queue, policies, insured } of JOURNEYS)
  test(`${generation}: a refund owed is paid through the demo bank, shows in the ledger, and the insured is told`, async ({ page }) => {
    await signIn(page, account);
    await page.goto(queue);
    await expect(page.getByRole('heading', { level: 1, name: 'Restituições aos segurados' })).toBeVisible();
    await expect(page.getByTestId('banco-demo-aviso')).toBeVisible();
    const row = page.getByTestId('restituicoes').locator('tbody tr[data-testid^="restituicao-"]').filter({ hasText: insured.name });
    await expect(row).toBeVisible();
    const nrApolice = (await row.getAttribute('data-testid'))!.replace('restituicao-', '');
    const valor = (await row.locator('td[data-label="Valor"]').textContent())!.trim();

    await row.getByRole('button', { name: 'Pagar pelo banco de demonstração' }).click();
    await expect(page.getByTestId('restituicao-feito')).toContainText('Restituição paga');
    await expect(page).toHaveURL(new RegExp(`${queue}\\?situacao=pagas`));
    await expect(page.getByRole('link', { name: 'Pagas' })).toHaveAttribute('aria-current', 'page');
    const paid = page.getByTestId(`restituicao-${nrApolice}`);
    await expect(paid).toContainText('Paga em');
    await expect(paid).toContainText('Comprovante DEMO-');
    // A payment is a step ahead: the row now offers the bank's return, not another payment.
    await expect(paid.getByRole('link', { name: 'Marcar como devolvida' })).toBeVisible();
    await expect(paid.getByRole('button', { name: /Pagar/ })).toHaveCount(0);

    await page.goto(`${policies}/${nrApolice}`);
    const ledger = page.getByTestId('extrato');
    await expect(ledger.getByRole('heading', { name: 'Extrato financeiro' })).toBeVisible();
    await expect(ledger.locator('tr[data-kind="RESTITUICAO_DEVIDA"]')).toContainText('Restituição prevista');
    await expect(ledger.locator('tr[data-kind="RESTITUICAO_PAGA"]')).toContainText(valor);
    await expect(page.getByTestId('extrato-restituido')).toContainText(valor);
    const csv = await page.request.get(`${policies}/${nrApolice}/extrato.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(await csv.text()).toContain('Restituição paga');

    const mail = await latestEmail(page, insured.email, `Restituição paga — apólice ${nrApolice}`);
    expect(mail.text).toContain(valor);
    expect(mail.text).toContain('Comprovante da transferência: DEMO-');
  });

test('a partner neither opens the queue nor pays: the 403 page', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  const answer = await page.goto('/v2/restituicoes');
  expect(answer!.status()).toBe(403);
});
