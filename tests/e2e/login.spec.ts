import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  ACCOUNTS,
  BASE_URL,
  DEMO_PASSWORD,
  type DemoAccount,
  expectHome,
  gotoHydrated,
  expectSimulatorsAvailable,
  HOME_PATH,
  LOGIN_PATH,
  loginForm,
  path,
  signInThroughForm,
  signOut,
  submitLogin,
  passSecondFactor,
} from './helpers';

// admin@legado.demo and novo.parceiro@parceiro.demo are reserved for account-recovery.spec.ts.

test.describe('login screens', () => {
  const screens = [
    { url: '/signin', forgot: '/esqueci-senha', resend: '/reenviar-codigo-validacao' },
    { url: '/login', forgot: '/esqueci-senha', resend: '/reenviar-codigo-validacao' },
    { url: '/v2/login', forgot: '/v2/esqueci-senha', resend: '/v2/reenviar-codigo-validacao' },
  ];

  for (const screen of screens) {
    test(`${screen.url} shows the title, the fields and the help links`, async ({ page }) => {
      await gotoHydrated(page, screen.url);
      await expect(page.getByRole('heading', { level: 1, name: 'Portal de Parceiros' })).toBeVisible();
      await expect(page.getByText('Simulação e venda de seguros', { exact: true })).toBeVisible();

      const form = loginForm(page);
      await expect(form.email).toHaveAttribute('type', 'email');
      await expect(form.password).toHaveAttribute('type', 'password');
      await expect(form.submit).toBeEnabled();
      await expect(page.getByRole('button', { name: 'Ajuda: Login' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Ajuda: Senha' })).toBeVisible();
      await expect(form.eye).toBeVisible();

      await expect(page.getByRole('link', { name: 'Esqueci minha senha' })).toHaveAttribute('href', screen.forgot);
      await expect(page.getByRole('link', { name: 'Reenviar código de validação - 1º acesso' })).toHaveAttribute('href', screen.resend);
    });
  }

  test('"Esqueci minha senha" leads to the forgot-password screen of the same generation', async ({ page }) => {
    await gotoHydrated(page, '/v2/login');
    await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
    await expect(page).toHaveURL(path('/v2/esqueci-senha'));
    await expect(page.getByLabel('E-mail', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enviar link de redefinição' })).toBeVisible();

    await gotoHydrated(page, '/signin');
    await page.getByRole('link', { name: 'Reenviar código de validação - 1º acesso' }).click();
    await expect(page).toHaveURL(path('/reenviar-codigo-validacao'));
    await expect(page.getByRole('button', { name: 'Reenviar código' })).toBeVisible();
  });
});

test.describe('every demo account signs in on its own screen and signs out', () => {
  const accounts: DemoAccount[] = [
    ACCOUNTS.legacySeller,
    ACCOUNTS.insurerAdmin,
    ACCOUNTS.partnerAdmin,
    ACCOUNTS.partner,
    ACCOUNTS.subagent,
  ];
  // admin@legado.demo signs in (with its new password) in account-recovery.spec.ts,
  // novo.parceiro@parceiro.demo right after its first access there.

  for (const account of accounts) {
    test(`${account.email} (${account.generation})`, async ({ page }) => {
      await signInThroughForm(page, account);
      if (account.partner) await expectSimulatorsAvailable(page);

      await signOut(page, account.generation);
      await page.goto(HOME_PATH[account.generation]);
      await expect(page).toHaveURL(path(LOGIN_PATH[account.generation], `next=${encodeURIComponent(HOME_PATH[account.generation])}`));
      await expect(loginForm(page).email).toBeVisible();
    });
  }

  test('the legacy login also answers at /login', async ({ page }) => {
    await signInThroughForm(page, ACCOUNTS.legacySeller, { loginUrl: '/login' });
  });

  test('the e-mail is lower-cased and stripped of spaces before it is sent', async ({ page }) => {
    await gotoHydrated(page, '/signin');
    const sent = page.waitForRequest((r) => r.url().includes('/api/plataforma/v1/login') && r.method() === 'POST');
    await submitLogin(page, ' Vendedor@Legado.demo ', DEMO_PASSWORD);
    expect((await sent).postDataJSON()).toMatchObject({ user_name: 'vendedor@legado.demo' });
    await expectHome(page, ACCOUNTS.legacySeller);
  });

  test('the insurer admin types the corporate e-mail; the screen sends the user name only', async ({ page }) => {
    await gotoHydrated(page, '/v2/login');
    const sent = page.waitForRequest((r) => r.url().includes('/api/gateway/login') && r.method() === 'POST');
    await submitLogin(page, ACCOUNTS.insurerAdmin.email, DEMO_PASSWORD);
    expect((await sent).postDataJSON()).toMatchObject({ userName: 'admin' });
    await passSecondFactor(page, ACCOUNTS.insurerAdmin);
    await expectHome(page, ACCOUNTS.insurerAdmin);
  });
});

test.describe('validation on submit', () => {
  /** Counts the API calls the page makes: invalid input must not reach the server. */
  function countApiCalls(page: Page) {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r.url());
    });
    return calls;
  }

  test('empty fields show both required messages and nothing is sent', async ({ page }) => {
    await gotoHydrated(page, '/signin');
    const calls = countApiCalls(page);
    const form = loginForm(page);
    await form.submit.click();

    await expect(form.email).toHaveAccessibleDescription('E-mail obrigatório');
    await expect(form.password).toHaveAccessibleDescription('SENHA OBRIGATÓRIA');
    await expect(form.email).toHaveAttribute('aria-invalid', 'true');
    await expect(form.password).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(path('/signin'));
    expect(calls).toEqual([]);
  });

  test('messages appear only on submit, and an invalid e-mail is refused', async ({ page }) => {
    await gotoHydrated(page, '/v2/login');
    const calls = countApiCalls(page);
    const form = loginForm(page);

    await form.email.fill('nao-e-um-email');
    await form.password.fill('qualquer');
    await form.password.blur();
    await expect(page.getByText('E-mail inválido')).toHaveCount(0);

    // Issue 27: a filled address that is not one says so; 'E-mail obrigatório' is for the empty field (SPEC §5).
    await form.submit.click();
    await expect(form.email).toHaveAccessibleDescription('E-mail inválido');
    await expect(page.getByText('E-mail obrigatório')).toHaveCount(0);
    await expect(page.getByText('SENHA OBRIGATÓRIA')).toHaveCount(0);

    await form.email.fill('parceiro@parceiro.demo');
    await form.password.fill('');
    await form.submit.click();
    await expect(form.password).toHaveAccessibleDescription('SENHA OBRIGATÓRIA');
    await expect(page.getByText(/^E-mail (obrigatório|inválido)$/)).toHaveCount(0);
    expect(calls).toEqual([]);
  });
});

test.describe('server errors are shown on the right field', () => {
  test('an unknown user marks the e-mail field (404)', async ({ page }) => {
    await gotoHydrated(page, '/signin');
    await submitLogin(page, 'ninguem@legado.demo', DEMO_PASSWORD);
    const form = loginForm(page);
    await expect(form.email).toHaveAccessibleDescription('USUÁRIO NÃO ENCONTRADO (404)');
    await expect(form.email).toHaveAttribute('aria-invalid', 'true');
    await expect(form.password).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(path('/signin'));
  });

  test('a wrong password marks the password field (401)', async ({ page }) => {
    // The suite's only wrong-password attempt (sign-in failures are rate limited).
    await gotoHydrated(page, '/v2/login');
    await submitLogin(page, ACCOUNTS.partner.email, 'Errada@2026');
    const form = loginForm(page);
    await expect(form.password).toHaveAccessibleDescription('USUÁRIO OU SENHA INVÁLIDOS (401)');
    await expect(form.password).toHaveAttribute('aria-invalid', 'true');
    await expect(form.email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(path('/v2/login'));
  });
});

test.describe('password eye and help popovers', () => {
  test('the password shows only while the eye is held down', async ({ page }) => {
    await gotoHydrated(page, '/signin');
    const { password, eye } = loginForm(page);
    await password.fill('Segredo@123');

    await eye.hover();
    await page.mouse.down();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('Segredo@123');
    await page.mouse.up();
    await expect(password).toHaveAttribute('type', 'password');

    // Held down, then the pointer leaves the eye: hidden again.
    await eye.hover();
    await page.mouse.down();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('heading', { level: 1, name: 'Portal de Parceiros' }).hover();
    await expect(password).toHaveAttribute('type', 'password');
    await page.mouse.up();
    await expect(password).toHaveAttribute('type', 'password');

    // A plain click (down + up) leaves it hidden.
    await eye.click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('the help buttons open their popovers', async ({ page }) => {
    await gotoHydrated(page, '/v2/login');
    const loginHelp = page.getByText(/Use o e-mail cadastrado para você pela sua empresa/);
    const passwordHelp = page.getByText(/A senha deve ter no mínimo 8 caracteres/);
    await expect(loginHelp).toBeHidden();
    await expect(passwordHelp).toBeHidden();

    await page.getByRole('button', { name: 'Ajuda: Login' }).click();
    await expect(loginHelp).toBeVisible();

    await page.getByRole('button', { name: 'Ajuda: Senha' }).click();
    await expect(passwordHelp).toBeVisible();
    await expect(loginHelp).toBeHidden();

    await page.keyboard.press('Escape');
    await expect(passwordHelp).toBeHidden();
  });
});

/**
 * Issue 27: a login submitted before the page's scripts load — or with JavaScript off — is the form's
 * own POST to the login page, which answered an empty /signin with no message. Both screens sign in
 * on it, or show the form again with SPEC §5's and §8's messages.
 */
test.describe('the login screens without JavaScript, or before it loads', () => {
  const SCREENS = [
    { url: '/signin', account: ACCOUNTS.legacySeller, unknown: 'ninguem@legado.demo' },
    { url: '/v2/login', account: ACCOUNTS.partner, unknown: 'ninguem@parceiro.demo' },
  ];

  for (const screen of SCREENS) {
    test(`${screen.url} with JavaScript disabled: messages, then signs in and goes where it was asked`, async ({ browser }) => {
      const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
      const page = await context.newPage();
      const form = loginForm(page);
      await page.goto(screen.url);

      await form.submit.click();
      await expect(page).toHaveURL(path(screen.url));
      await expect(form.email).toHaveAccessibleDescription(/^E-mail obrigatório/);
      await expect(form.password).toHaveAccessibleDescription(/^SENHA OBRIGATÓRIA/);

      await form.email.fill('nao-e-um-email');
      await form.password.fill('qualquer');
      await form.submit.click();
      await expect(form.email).toHaveAccessibleDescription(/^E-mail inválido/);
      await expect(form.email).toHaveValue('nao-e-um-email');
      await expect(form.password).toHaveValue('');

      await form.email.fill(screen.unknown);
      await form.password.fill(DEMO_PASSWORD);
      await form.submit.click();
      await expect(form.email).toHaveAccessibleDescription(/^USUÁRIO NÃO ENCONTRADO \(404\)/);

      // With ?next=, as the gate sends: it lands there once signed in.
      const home = HOME_PATH[screen.account.generation];
      await page.goto(`${screen.url}?next=${encodeURIComponent(`${home}?de=login`)}`);
      await form.email.fill(screen.account.email);
      await form.password.fill(DEMO_PASSWORD);
      await form.submit.click();
      await expect(page).toHaveURL(path(home, 'de=login'));
      await context.close();
    });

    test(`${screen.url} submitted before its script has loaded signs in`, async ({ page }) => {
      // The page's scripts are held back until the form has been sent, as on a slow connection.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/_astro/**/*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(screen.url, { waitUntil: 'domcontentloaded' });
      await expect(page.locator('astro-island[ssr]').first()).toBeAttached();
      const form = loginForm(page);
      await form.email.fill(screen.account.email);
      await form.password.fill(DEMO_PASSWORD);
      const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === screen.url);
      await form.submit.click();
      expect((await posted).postData()).toContain('senha=');
      release();
      await expect(page).toHaveURL(path(HOME_PATH[screen.account.generation]));
    });
  }
});
