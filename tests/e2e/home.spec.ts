import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, HOME_PATH, SIMULATORS_UNAVAILABLE, expectSimulatorsAvailable, path, signIn } from './helpers';

/**
 * The homes of both generations (issue 11): the history of quotes and proposals has a place on them
 * (before, it was reachable only from inside a simulator), and they speak as a partner reads.
 */

for (const { account, history } of [
  { account: ACCOUNTS.partner, history: '/v2/historico' },
  { account: ACCOUNTS.legacySeller, history: '/historico' },
]) {
  test(`${HOME_PATH[account.generation]} leads ${account.email} to the history of quotes and proposals`, async ({ page }) => {
    await signIn(page, account);
    const link = page.getByRole('main').getByRole('link', { name: 'Histórico de cotações e propostas' });
    await expect(link).toHaveAttribute('href', history);
    await link.click();
    await expect(page).toHaveURL(path(history));
    await expect(page.getByRole('heading', { level: 1, name: 'Histórico de cotações e propostas' })).toBeVisible();
  });
}

test('the v2 home shows no configuration jargon to a partner who may simulate', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await expectSimulatorsAvailable(page);
  await expect(page.locator('main')).not.toContainText('Simuladores:');
  await expect(page.locator('main')).not.toContainText('Acesso liberado');
});

test('a partner signed in without the simulators is told so, and what to do', async ({ page }) => {
  // The v2 session without the simulator token (it expired, or was never issued): SPEC §4's
  // "not fully authenticated" partner.
  await signIn(page, ACCOUNTS.partner);
  await page.context().clearCookies({ name: 'tokenSimulador' });
  await page.goto('/v2/home');
  await expect(page.getByRole('status').filter({ hasText: SIMULATORS_UNAVAILABLE })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('Sem acesso');
});
