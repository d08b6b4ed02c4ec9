import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  ACCOUNTS,
  BASE_URL,
  DEMO_PASSWORD,
  LOGIN_PATH,
  gotoHydrated,
  latestResetLink,
  openDrawer,
  passwordForm,
  path,
  screenshotsAt,
  signIn,
  submitLogin,
  waitForIslands,
  type DemoAccount,
} from './helpers';

/**
 * A page per user (issue 32, decision 069), both generations: an administrator opens a user's page
 * from the users list and reads the menu that user gets — compared with the drawer the user sees,
 * signed in in a browser context of their own; ends that session from the page ("Encerrar"), and
 * after the user signs in again, "Forçar nova senha" ends that user's session and the
 * old password is refused, then the e-mailed reset link gives it back (the accounts are shared with
 * other journeys). The pending invitations are listed by age. Screenshots under test-results/user-page.
 */

/** Sellers of Horizonte nobody else signs in as; their password is put back at the end. */
const JULIANA: DemoAccount = { email: 'juliana.costa@parceiro.demo', name: 'Juliana Costa', generation: 'v2', partner: true };
const GESTOR: DemoAccount = ACCOUNTS.legacyManager;

const shoot = (page: Page, name: string) => screenshotsAt(page, 'user-page', name);

/** Every link of the open drawer as a path of titles, each group expanded (as menus.spec.ts reads it). */
async function readDrawer(list: Locator, parents: string[] = []): Promise<string[]> {
  const paths: string[] = [];
  const items = list.locator(':scope > li');
  for (let i = 0; i < (await items.count()); i++) {
    const item = items.nth(i);
    const link = item.locator(':scope > a.menu-link');
    if ((await link.count()) === 1) {
      paths.push([...parents, (await link.innerText()).replace('↗', '').trim()].join(' › '));
      continue;
    }
    const group = item.locator(':scope > button.menu-group-button');
    const title = (await group.locator('span').first().innerText()).trim();
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    paths.push(...(await readDrawer(item.locator(':scope > div > ul'), [...parents, title])));
  }
  return paths;
}

/** The menu the user's page says the user gets at sign-in, as the same paths. */
const menuOnUserPage = (page: Page) =>
  page
    .getByTestId('menu-efetivo')
    .first()
    .getByTestId('item-menu')
    .evaluateAll((items) => items.map((i) => i.getAttribute('data-caminho') ?? ''));

/** Signs the user in, in a browser context of their own, and reads their drawer. */
async function signedInAs(browser: Browser, account: DemoAccount) {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  await signIn(page, account);
  const dialog = await openDrawer(page);
  const menu = await readDrawer(dialog.getByRole('navigation', { name: 'Menu' }).locator(':scope > ul'));
  await page.keyboard.press('Escape');
  return { context, page, menu };
}

/** Follows the newest reset e-mail and sets the demo password again. */
async function restorePassword(page: Page, account: DemoAccount) {
  const link = await latestResetLink(page, account.email);
  await page.goto(link);
  await waitForIslands(page);
  const form = passwordForm(page);
  await form.password.fill(DEMO_PASSWORD);
  await form.confirmation.fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH[account.generation]}(\\?.*)?$`));
}

const CASES = [
  { generation: 'v2', admin: ACCOUNTS.insurerAdmin, user: JULIANA, list: '/v2/usuario/cadastro/consulta', page: /\/v2\/usuario\/\d+$/ },
  { generation: 'v1', admin: ACCOUNTS.legacySupport, user: GESTOR, list: '/consulta-usuarios', page: /\/consulta-usuarios\/\d+$/ },
] as const;

for (const c of CASES) {
  test(`${c.generation}: a user's page shows the menu the user gets at sign-in; "Forçar nova senha" ends their session and refuses the old password`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await signIn(page, c.admin);
    await page.goto(`${c.list}?email=${encodeURIComponent(c.user.email)}`);
    const row = page.getByTestId(`usuario-${c.user.email}`);
    await row.getByRole('link', { name: c.user.name, exact: true }).click();
    await expect(page).toHaveURL(c.page);
    await expect(page.getByRole('heading', { level: 1, name: c.user.name })).toBeVisible();
    const shown = await menuOnUserPage(page);
    expect(shown.length).toBeGreaterThan(0);
    // Every link says where it comes from.
    await expect(page.getByTestId('menu-efetivo').getByText('Origem não identificada')).toHaveCount(0);
    await expect(page.getByTestId('segundo-fator')).toBeVisible();
    await shoot(page, `${c.generation}-usuario`);

    const user = await signedInAs(browser, c.user);
    expect(user.menu).toEqual(shown);

    // The user's session is on their page now; "Encerrar" ends it at its next request.
    await page.reload();
    const sessions = page.getByTestId('sessoes-ativas');
    await sessions
      .getByRole('button', { name: /^Encerrar a sessão/ })
      .first()
      .click();
    await expect(page.getByTestId('aviso')).toHaveText(/^Sessão encerrada/);
    await user.page.reload();
    await expect(user.page).toHaveURL(new RegExp(`${LOGIN_PATH[c.generation]}(\\?.*)?$`));
    await signIn(user.page, c.user);

    // Forçar nova senha: the user's open session ends at its next request, the old password is refused.
    await page.getByRole('button', { name: 'Forçar nova senha' }).click();
    await expect(page.getByTestId('aviso')).toHaveText(/^Nova senha exigida/);
    const logged = page
      .getByTestId('historico-registro')
      .getByTestId('evento')
      .filter({ hasText: 'Nova senha exigida pelo administrador' });
    await expect(logged.first()).toContainText(`por ${c.admin.name}`);

    await user.page.reload();
    await expect(user.page).toHaveURL(new RegExp(`${LOGIN_PATH[c.generation]}(\\?.*)?$`));
    await gotoHydrated(user.page, LOGIN_PATH[c.generation]);
    await submitLogin(user.page, c.user.email, DEMO_PASSWORD);
    await expect(user.page.getByText('Usuário ou senha inválidos')).toBeVisible();
    await expect(user.page).toHaveURL(path(LOGIN_PATH[c.generation]));

    // The ordinary reset e-mail gives the account back (other journeys sign in as it).
    await restorePassword(user.page, c.user);
    await user.context.close();
  });
}

test('the pending invitations are listed oldest first, each with its state, and one can be resent', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/usuario/cadastro/consulta');
  await page.getByTestId('convites').click();
  await expect(page).toHaveURL(path('/v2/usuario/convites'));
  await expect(page.getByRole('heading', { level: 1, name: 'Convites pendentes' })).toBeVisible();
  const rows = page.getByTestId('convites').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await shoot(page, 'v2-convites');
  const pending = page.getByTestId(`convite-${ACCOUNTS.newPartner.email}`);
  // account-recovery.spec.ts completes this first access: resent only while it is still pending.
  if ((await pending.count()) === 1) {
    await expect(pending.getByTestId('estado-convite')).toHaveText(/Pendente|Expirado/);
    await pending.getByRole('button', { name: `Reenviar convite de ${ACCOUNTS.newPartner.name}` }).click();
    await expect(page.getByTestId('aviso')).toHaveText(/^Convite reenviado/);
    await expect(page.getByTestId(`convite-${ACCOUNTS.newPartner.email}`).getByTestId('estado-convite')).toHaveText('Pendente');
  }
  await page.goto('/consulta-usuarios/convites');
  await expect(page).toHaveURL(/\/signin/);
});

test('legacy: the users list leads to the pending invitations, each row to its user’s page', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySupport);
  await page.goto('/consulta-usuarios');
  await page.getByTestId('convites').click();
  await expect(page).toHaveURL(path('/consulta-usuarios/convites'));
  await expect(page.getByRole('heading', { level: 1, name: 'Convites pendentes' })).toBeVisible();
  await shoot(page, 'v1-convites');
  const first = page.getByTestId('convites').locator('tbody tr').first();
  const user = first.getByRole('link');
  // The legacy demo has no pending user of its own until an import or a registration adds one.
  if ((await user.count()) === 1) {
    const name = (await user.innerText()).trim();
    await user.click();
    await expect(page).toHaveURL(/\/consulta-usuarios\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByTestId('estado-convite')).toHaveText(/Pendente|Expirado/);
  } else {
    await expect(first).toHaveText('Nenhum convite pendente.');
  }
});

/**
 * Issue 42 item 1 (decision 072): a manager who shares a company with an administrator reads, on the
 * administrator's page, only what is in their own scope — no sign-ins, sessions nor second factor, a
 * note in their place. The sub-delegated manager on the partner administrator (v2), the legacy manager
 * on the legacy administrator (v1). Screenshots under test-results/user-page.
 */
const RESTRICTED = [
  { generation: 'v2', viewer: ACCOUNTS.subagent, target: ACCOUNTS.partnerAdmin, page: '/v2/usuario' },
  { generation: 'v1', viewer: ACCOUNTS.legacyManager, target: ACCOUNTS.legacyAdmin, page: '/consulta-usuarios' },
] as const;

for (const c of RESTRICTED) {
  test(`${c.generation}: ${c.viewer.email} reads ${c.target.email}'s page without their sign-ins, sessions or second factor`, async ({
    page,
  }) => {
    // A first sign-in may wait for the demo year being generated (issue 42 item 12).
    test.setTimeout(120_000);
    await signIn(page, c.viewer);
    const list = c.generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario/cadastro/consulta';
    await page.goto(`${list}?email=${encodeURIComponent(c.target.email)}`);
    await page.getByTestId(`usuario-${c.target.email}`).getByRole('link', { name: c.target.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${c.page}/\\d+$`));
    await expect(page.getByRole('heading', { level: 1, name: c.target.name })).toBeVisible();
    await expect(page.getByTestId('seguranca-restrita')).toContainText('vistas só por quem pode administrá-lo');
    await expect(page.getByTestId('sessoes-ativas')).toHaveCount(0);
    await expect(page.getByTestId('segundo-fator')).toHaveCount(0);
    await expect(page.getByTestId('historico-entradas')).toHaveCount(0);
    await expect(page.getByTestId('historico-registro')).toBeVisible();
    // No sign-in of the administrator's is among the rows it reads.
    await expect(page.getByTestId('historico-registro').locator('[data-evento="LOGIN"]')).toHaveCount(0);
    await shoot(page, `${c.generation}-usuario-restrito`);
  });
}
