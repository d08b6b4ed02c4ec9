import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, gotoHydrated, openDrawer, signIn, type DemoAccount } from './helpers';

/**
 * axe-core scans of the public entry pages and the signed-in frame: no violation of impact
 * 'serious' or 'critical' (WCAG 2.x A/AA rules and axe best practices).
 */

async function expectNoSeriousViolations(page: Page, what: string, include?: string) {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
  expect(serious, `serious/critical axe violations on ${what}`).toEqual([]);
}

test.describe('accessibility (axe): no serious or critical violations', () => {
  for (const url of ['/', '/signin', '/v2/login', '/pagina-inexistente', '/v2/login/segundo-fator']) {
    test(`public page ${url}`, async ({ page }) => {
      await gotoHydrated(page, url);
      await expectNoSeriousViolations(page, url);
    });
  }

  const signedIn: { url: string; account: DemoAccount }[] = [
    { url: '/home', account: ACCOUNTS.legacySeller },
    { url: '/v2/home', account: ACCOUNTS.partner },
    { url: '/v2/perfil', account: ACCOUNTS.partner },
    { url: '/perfil/seguranca', account: ACCOUNTS.legacySeller },
    // An administrator's: the last factor's remove button disabled, the passkey form.
    { url: '/v2/perfil/seguranca', account: ACCOUNTS.insurerAdmin },
  ];
  for (const { url, account } of signedIn) {
    test(`${url} signed in as ${account.email}`, async ({ page }) => {
      await signIn(page, account);
      await gotoHydrated(page, url);
      await expectNoSeriousViolations(page, url);
    });
  }

  const drawerStates: { account: DemoAccount; groups: string[] }[] = [
    { account: ACCOUNTS.legacySeller, groups: ['Módulos em homologação'] }, // with its staging warning
    { account: ACCOUNTS.partnerAdmin, groups: ['Campanhas', 'Personalizados'] }, // nested, external links
  ];
  for (const { account, groups } of drawerStates) {
    test(`the open drawer with ${groups.join(' › ')} expanded (${account.email})`, async ({ page }) => {
      await signIn(page, account);
      const dialog = await openDrawer(page);
      for (const group of groups) await dialog.getByRole('button', { name: group }).click();
      await expectNoSeriousViolations(page, `the drawer on ${new URL(page.url()).pathname}`, 'dialog.drawer');
    });
  }

  test('the open chat menu', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    await page.getByRole('button', { name: 'Fale conosco' }).click();
    await expect(page.getByRole('menu', { name: 'Fale conosco' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the chat menu', '[data-testid="chat-link"]');
  });
});
