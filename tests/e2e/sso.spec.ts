import { expect, type Browser } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, expectHome, path, signIn, expectSimulatorsAvailable, apiToken } from './helpers';

/**
 * Single sign-on: the insurer's admin (ADMIN, v2) issues a one-time link for a v2 user; opening
 * /v2/login/session/<id> signs that user in once.
 */

const SSO_ENDPOINT = '/api/auth/v2/sessao-sso';
const REFUSED = 'O link de acesso expirou ou já foi utilizado';

interface SsoAnswer {
  dado: { idSessaoSSO: string; link: string; expiraEm: string };
}

/** Opens a URL in a brand-new browser context (no cookies) and hands back its page. */
async function openFresh(browser: Browser, baseURL: string | undefined, url: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

test('an SSO link issued by the admin in the browser signs the partner in exactly once', async ({ page, browser, baseURL }) => {
  await signIn(page, ACCOUNTS.insurerAdmin);

  const response = await page.request.post(SSO_ENDPOINT, {
    data: { email: ACCOUNTS.partner.email },
    headers: { 'x-portal-session': 'cookie' },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { dado } = (await response.json()) as SsoAnswer;
  expect(dado.idSessaoSSO.length).toBeGreaterThanOrEqual(16);
  expect(dado.link).toBe(`${baseURL}/v2/login/session/${dado.idSessaoSSO}`);
  expect(new Date(dado.expiraEm).getTime()).toBeGreaterThan(Date.now());

  const first = await openFresh(browser, baseURL, `/v2/login/session/${dado.idSessaoSSO}`);
  try {
    await expectHome(first.page, ACCOUNTS.partner);
    await expectSimulatorsAvailable(first.page);
    const cookies = await first.context.cookies();
    expect(cookies.find((c) => c.name === 'tokenV2')?.httpOnly).toBe(true);
    expect(await first.page.evaluate(() => document.cookie)).not.toContain('tokenV2');
  } finally {
    await first.context.close();
  }

  const second = await openFresh(browser, baseURL, `/v2/login/session/${dado.idSessaoSSO}`);
  try {
    await expect(second.page).toHaveURL(path('/v2/login', 'sso=recusado'));
    await expect(second.page.getByRole('status').filter({ hasText: REFUSED })).toBeVisible();
    expect((await second.context.cookies()).map((c) => c.name)).not.toContain('tokenV2');
  } finally {
    await second.context.close();
  }
});

test('an SSO link issued through the API (authtoken header) signs the user in', async ({ request, browser, baseURL }) => {
  const token = await apiToken(request, ACCOUNTS.insurerAdmin);
  const response = await request.post(SSO_ENDPOINT, {
    data: { email: ACCOUNTS.subagent.email },
    headers: { authtoken: token },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { dado } = (await response.json()) as SsoAnswer;

  const { context, page } = await openFresh(browser, baseURL, new URL(dado.link).pathname);
  try {
    await expectHome(page, ACCOUNTS.subagent);
  } finally {
    await context.close();
  }
});

test('only the insurer admin may issue SSO links', async ({ request }) => {
  const anonymous = await request.post(SSO_ENDPOINT, { data: { email: ACCOUNTS.partner.email } });
  expect(anonymous.status()).toBe(401);

  const partnerToken = await apiToken(request, ACCOUNTS.partnerAdmin);
  const forbidden = await request.post(SSO_ENDPOINT, {
    data: { email: ACCOUNTS.partner.email },
    headers: { authtoken: partnerToken },
  });
  expect(forbidden.status()).toBe(403);
});

test('an unknown SSO session id is refused', async ({ page }) => {
  await page.goto('/v2/login/session/nao-existe-0123456789abcdef');
  await expect(page).toHaveURL(path('/v2/login', 'sso=recusado'));
  await expect(page.getByRole('status').filter({ hasText: REFUSED })).toBeVisible();
  await expect(page.getByLabel('Login', { exact: true })).toBeVisible();
});
