import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  ACCOUNTS,
  DEMO_PASSWORD,
  expectHome,
  gotoHydrated,
  expectSimulatorsAvailable,
  latestResetLink,
  latestValidationCode,
  passwordForm,
  path,
  signOut,
  submitLogin,
  waitForIslands,
  passSecondFactor,
} from './helpers';

/**
 * Forgot password, reset link, first access and resend code. The two accounts whose state changes
 * here are used by no other spec: admin@legado.demo (password reset) and novo.parceiro@parceiro.demo
 * (first access).
 */

const GENERIC_ANSWER = /^Se o e-mail estiver cadastrado/;
const DEAD_LINK = 'Este link de redefinição é inválido, expirou ou já foi utilizado.';

/** Asks for a reset link on the forgot-password screen that is open. */
async function requestReset(page: Page, email: string) {
  await waitForIslands(page);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Enviar link de redefinição' }).click();
  await expect(page.getByRole('status')).toHaveText(GENERIC_ANSWER);
}

test('legacy forgot password: e-mail → reset link → sign in with the new password; the link works once', async ({ page, baseURL }) => {
  const account = ACCOUNTS.legacyAdmin; // dedicated to this test
  const newPassword = 'Recuperada#2026';

  await gotoHydrated(page, '/signin');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(path('/esqueci-senha'));
  await requestReset(page, account.email);

  const link = await latestResetLink(page, account.email);
  expect(link.startsWith(`${baseURL}/redefinir-senha?token=`), link).toBe(true);

  // Follow the link as the user would from their e-mail. The reset page is never stored by a cache.
  const opened = await page.goto(link);
  expect(opened?.headers()['cache-control']).toBe('no-store');
  await waitForIslands(page);
  const form = passwordForm(page);
  await form.password.fill(newPassword);
  await form.confirmation.fill(newPassword);
  await page.getByRole('button', { name: 'Redefinir senha' }).click();

  await expect(page).toHaveURL(path('/signin', 'senha=redefinida'));
  await expect(page.getByRole('status')).toHaveText('Senha redefinida. Entre com a nova senha.');

  // The new password works (and this is where admin@legado.demo's sign-in is covered).
  await waitForIslands(page);
  await submitLogin(page, account.email, newPassword);
  // A new password is not a second factor: the administrator's code still comes after it (decision 068).
  await passSecondFactor(page, account);
  await expectHome(page, account);
  // Set the demo password back: the authorization matrix signs in with it.
  const restore = await page.request.put('/api/plataforma/v1/senha', {
    data: { senhaAtual: newPassword, senha: DEMO_PASSWORD, confirmacao: DEMO_PASSWORD },
    headers: { 'x-portal-session': 'cookie' },
  });
  expect(restore.status(), await restore.text()).toBe(200);
  await signOut(page, 'v1');

  // The same link again: refused, no form.
  const reused = await page.goto(link);
  expect(reused?.status()).toBe(410);
  await expect(page.getByRole('alert')).toContainText(DEAD_LINK);
  await expect(passwordForm(page).password).toHaveCount(0);
});

test('v2 forgot password sends a /v2/senha link whose form checks the new password', async ({ page, baseURL }) => {
  const account = ACCOUNTS.partnerAdmin; // the link is never submitted: the password stays the demo one
  await gotoHydrated(page, '/v2/login');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(path('/v2/esqueci-senha'));
  await requestReset(page, account.email);

  const link = await latestResetLink(page, account.email);
  expect(link.startsWith(`${baseURL}/v2/senha?token=`), link).toBe(true);

  await gotoHydrated(page, link);
  const form = passwordForm(page);
  const submit = page.getByRole('button', { name: 'Redefinir senha' });

  await form.password.fill('fraca');
  await form.confirmation.fill('fraca');
  await submit.click();
  await expect(form.password).toHaveAccessibleDescription(/A senha precisa ter/);

  await form.password.fill('Diferente#2026');
  await form.confirmation.fill('Diferente#2027');
  await submit.click();
  await expect(form.confirmation).toHaveAccessibleDescription('As senhas não conferem');
  await expect(page).toHaveURL(link);
});

test('a made-up reset link is refused', async ({ page }) => {
  const response = await page.goto('/redefinir-senha?token=inexistente-0123456789abcdef');
  expect(response?.status()).toBe(410);
  await expect(page.getByRole('alert')).toContainText(DEAD_LINK);
  await expect(page.getByRole('link', { name: 'Solicite um novo' })).toHaveAttribute('href', '/esqueci-senha');
});

test('resend validation code answers generically on both screens', async ({ page }) => {
  // The pending user may or may not have finished first access by now (tests are order-independent):
  // the answer is the same either way, and it never tells whether an e-mail is registered.
  for (const [url, email] of [
    ['/reenviar-codigo-validacao', 'ninguem@exemplo.com.br'],
    ['/v2/reenviar-codigo-validacao', ACCOUNTS.newPartner.email],
  ] as const) {
    await gotoHydrated(page, url);
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Reenviar código' }).click();
    await expect(page.getByRole('status')).toHaveText(GENERIC_ANSWER);
  }
});

test('first access: the e-mailed code registers the password and the new user signs in', async ({ page }) => {
  const account = ACCOUNTS.newPartner; // dedicated to this test
  const newPassword = 'Primeiro#Acesso1';

  // Before finishing the first access, signing in says what to do instead of "wrong password".
  await gotoHydrated(page, '/v2/login');
  await submitLogin(page, account.email, newPassword);
  await expect(page.getByLabel('Senha', { exact: true })).toHaveAccessibleDescription(/PRIMEIRO ACESSO AINDA NÃO FOI CONCLUÍDO.*\(403\)$/);

  const code = await latestValidationCode(page, account.email);
  const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  await gotoHydrated(page, `/cadastro-login?email=${encodeURIComponent(account.email)}`);
  const email = page.getByLabel('E-mail', { exact: true });
  const codeField = page.getByLabel('Código de validação', { exact: true });
  const form = passwordForm(page);
  const submit = page.getByRole('button', { name: 'Cadastrar senha' });
  await expect(email).toHaveValue(account.email);

  await codeField.fill(wrongCode);
  await form.password.fill(newPassword);
  await form.confirmation.fill(newPassword);
  await submit.click();
  await expect(codeField).toHaveAccessibleDescription(/^Código de validação inválido ou expirado/);
  await expect(page).toHaveURL(path('/cadastro-login'));

  await codeField.fill(code);
  await submit.click();
  await expect(page).toHaveURL(path('/v2/cadastro-realizado'));
  await expect(page.getByRole('heading', { name: 'Cadastro realizado' })).toBeVisible();

  await page.getByRole('link', { name: 'Entrar no portal' }).click();
  await expect(page).toHaveURL(path('/v2/login'));
  await waitForIslands(page);
  await submitLogin(page, account.email, newPassword);
  await expectHome(page, account);
  await expectSimulatorsAvailable(page);
  await signOut(page, 'v2');
});

test('the forgot-password form validates the e-mail before sending', async ({ page }) => {
  await gotoHydrated(page, '/esqueci-senha');
  await page.getByRole('button', { name: 'Enviar link de redefinição' }).click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveAccessibleDescription('E-mail obrigatório');
  await expect(page.getByRole('status')).toHaveCount(0);
});
