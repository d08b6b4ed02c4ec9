import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, DEMO_PASSWORD, gotoHydrated, path, screenshotsAt, signIn, submitLogin, passSecondFactor } from './helpers';

/**
 * The demo mailbox holds reset links and first-access codes: whoever is not the provider's admin
 * reads nothing there (issue 11, item 1), and the admin gets to it through the login's `next`.
 */
test('a stranger sees no e-mail and is asked to sign in as an administrator', async ({ page }) => {
  // Someone asks for the admin's reset link, hoping to read it.
  await page.request.post('/api/bff/v1/senha/esqueci', { data: { email: ACCOUNTS.insurerAdmin.email } });
  const response = await page.goto('/caixa-postal');
  expect(response?.status()).toBe(401);
  expect(response?.headers()['cache-control']).toBe('no-store');
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { level: 1, name: 'Caixa postal de demonstração' })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);
  await expect(page.getByText(/token=/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'novo portal' })).toHaveAttribute('href', '/v2/login?next=%2Fcaixa-postal');
});

test('a partner signed in is refused (403)', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  const response = await page.goto('/caixa-postal');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('article')).toHaveCount(0);
});

test("the provider's admin signs in from the mailbox's link and reads the e-mails", async ({ page }) => {
  await page.goto('/caixa-postal');
  await page.getByRole('link', { name: 'novo portal' }).click();
  await gotoHydrated(page, page.url());
  await submitLogin(page, ACCOUNTS.insurerAdmin.email, DEMO_PASSWORD);
  await passSecondFactor(page, ACCOUNTS.insurerAdmin);
  await expect(page).toHaveURL(path('/caixa-postal'));
  await expect(page.getByRole('article').first()).toBeVisible();
  // The first page holds the latest twenty: the seed's first-access code is found by its recipient.
  await page.goto(`/caixa-postal?para=${encodeURIComponent(ACCOUNTS.newPartner.email)}`);
  await expect(
    page
      .getByRole('article')
      .filter({ hasText: `Para ${ACCOUNTS.newPartner.email}` })
      .first(),
  ).toBeVisible();
});

// Issue 27: the mailbox showed only the latest 50 messages, with no filter. Now it pages (twenty a page,
// the page in the address) and filters by recipient and subject with a plain GET form, as the other lists.
test('the provider’s admin filters the mailbox by recipient and subject; the page lives in the address', async ({ page }) => {
  await page.request.post('/api/bff/v1/senha/esqueci', { data: { email: ACCOUNTS.partner.email } });
  await signIn(page, ACCOUNTS.insurerAdmin);
  await page.goto('/caixa-postal');
  await page.getByLabel('Destinatário').fill(ACCOUNTS.partner.email);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\/caixa-postal\?para=/);
  expect(new URL(page.url()).searchParams.get('para')).toBe(ACCOUNTS.partner.email);
  const articles = page.getByRole('article');
  await expect(articles.first()).toBeVisible();
  // Any part of the address, as the other lists' filters: novo.parceiro@… holds it too.
  for (const recipient of await articles.locator('header strong').allTextContents()) expect(recipient).toContain(ACCOUNTS.partner.email);
  await expect(page.getByTestId('total-emails')).toContainText('com estes filtros');
  await screenshotsAt(page, 'mailbox-screens', 'mailbox-filtered');

  await page.getByLabel('Assunto').fill('redefinição');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(articles.first().getByRole('heading', { level: 2 })).toHaveText('Redefinição de senha — Portal de Parceiros');
  await page.getByLabel('Assunto').fill('assunto que não existe');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByText('Nenhum e-mail encontrado para os filtros informados.')).toBeVisible();
  await page.getByRole('link', { name: 'Limpar filtros' }).click();
  await expect(page).toHaveURL(path('/caixa-postal'));

  // A page past the last shows the last; one that is no number the first.
  for (const query of ['page=999', 'page=abc']) {
    await page.goto(`/caixa-postal?${query}`);
    await expect(articles.first()).toBeVisible();
  }
  expect((await page.request.get(`/caixa-postal?para=${'x'.repeat(300)}`)).status()).toBe(400);
});
