import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  ACCOUNTS,
  DEMO_PASSWORD,
  expectHome,
  gotoHydrated,
  path,
  signInThroughForm,
  signOut,
  submitLogin,
  waitForIslands,
} from './helpers';

test.describe('session cookies', () => {
  test('the legacy token is an httpOnly cookie, invisible to scripts', async ({ page, context }) => {
    await signInThroughForm(page, ACCOUNTS.legacySeller);

    const cookies = await context.cookies();
    const tokenV1 = cookies.find((c) => c.name === 'tokenV1');
    expect(tokenV1, 'tokenV1 cookie').toBeDefined();
    expect(tokenV1).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookies.find((c) => c.name === 'tokenV2')).toBeUndefined();

    const visible = await page.evaluate(() => document.cookie);
    expect(visible).not.toContain('tokenV1');
    expect(visible).not.toContain(tokenV1!.value);
  });

  test('the v2 and simulator tokens of a partner are httpOnly cookies, invisible to scripts', async ({ page, context }) => {
    await signInThroughForm(page, ACCOUNTS.partnerAdmin);

    const cookies = await context.cookies();
    for (const name of ['tokenV2', 'tokenSimulador']) {
      const cookie = cookies.find((c) => c.name === name);
      expect(cookie, `${name} cookie`).toBeDefined();
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    }

    const visible = await page.evaluate(() => document.cookie);
    expect(visible).not.toContain('tokenV2');
    expect(visible).not.toContain('tokenSimulador');
  });

  test('signing out removes the cookies', async ({ page, context }) => {
    await signInThroughForm(page, ACCOUNTS.subagent);
    await signOut(page, 'v2');
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain('tokenV2');
    expect(names).not.toContain('tokenSimulador');
  });
});

test.describe('redirects', () => {
  test('a protected legacy page sends to the login with ?next and returns there after signing in', async ({ page }) => {
    await page.goto('/home?origem=e2e');
    await expect(page).toHaveURL(path('/signin', `next=${encodeURIComponent('/home?origem=e2e')}`));
    await waitAndSubmit(page, ACCOUNTS.legacySeller.email);
    await expect(page).toHaveURL(path('/home', 'origem=e2e'));
    await expect(page.getByRole('heading', { level: 1, name: `Olá, ${ACCOUNTS.legacySeller.name}!` })).toBeVisible();
  });

  test('a protected v2 page sends to the v2 login with ?next and returns there after signing in', async ({ page }) => {
    await page.goto('/v2/home');
    await expect(page).toHaveURL(path('/v2/login', `next=${encodeURIComponent('/v2/home')}`));
    await waitAndSubmit(page, ACCOUNTS.partner.email);
    await expectHome(page, ACCOUNTS.partner);
  });

  test('?next pointing to another site is ignored (no open redirect)', async ({ page }) => {
    await gotoHydrated(page, `/signin?next=${encodeURIComponent('https://example.com/')}`);
    await submitLogin(page, ACCOUNTS.legacySeller.email, DEMO_PASSWORD);
    await expectHome(page, ACCOUNTS.legacySeller);

    await page.context().clearCookies();
    await gotoHydrated(page, `/signin?next=${encodeURIComponent('//example.com/')}`);
    await submitLogin(page, ACCOUNTS.legacySeller.email, DEMO_PASSWORD);
    await expectHome(page, ACCOUNTS.legacySeller);
  });

  test('?next that the browser would read as another site (a tab, a backslash) is ignored, in both generations', async ({ page }) => {
    for (const [account, next] of [
      [ACCOUNTS.partner, '/%09/evil.example/phish'],
      [ACCOUNTS.legacySeller, '/%5C/evil.example/phish'],
      [ACCOUNTS.partner, '/.//evil.example/phish'],
    ] as const) {
      await page.context().clearCookies();
      await gotoHydrated(page, `${account.generation === 'v1' ? '/signin' : '/v2/login'}?next=${next}`);
      await submitLogin(page, account.email, DEMO_PASSWORD);
      await expectHome(page, account);
    }
  });

  test('a signed-in legacy user opening the login goes home', async ({ page }) => {
    await signInThroughForm(page, ACCOUNTS.legacySeller);
    for (const login of ['/signin', '/login']) {
      await page.goto(login);
      await expect(page).toHaveURL(path('/home'));
    }
  });

  test('a signed-in v2 user opening the login goes home', async ({ page }) => {
    await signInThroughForm(page, ACCOUNTS.insurerAdmin);
    await page.goto('/v2/login');
    await expectHome(page, ACCOUNTS.insurerAdmin);
  });
});

/** Signs in on the login page the browser was redirected to (keeping its ?next). */
async function waitAndSubmit(page: Page, email: string) {
  await waitForIslands(page);
  await submitLogin(page, email, DEMO_PASSWORD);
}
