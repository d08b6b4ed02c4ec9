import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { generateSync } from 'otplib';
import {
  ACCOUNTS,
  BASE_URL,
  gotoHydrated,
  latestValidationCode,
  passSecondFactor,
  passwordForm,
  path,
  screenshotsAt,
  signIn,
  signOut,
  submitLogin,
  waitForIslands,
} from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 32 (decision 068): the legacy administrator group must prove a second factor. A new member
 * of it signs in for the first time, cannot open any page before enrolling, enrols an authenticator
 * app (or a passkey, through Chromium's virtual authenticator), keeps the recovery codes, and signs in
 * again with them. Screenshots under test-results/second-factor.
 */

const HORIZONTE = '11222333000181';
const PASSWORD = 'Primeiro#Acesso1';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** The legacy support admin registers a new member of the administrator group, who completes the first access. */
async function newLegacyAdmin(page: Page, browser: Browser, baseURL = BASE_URL) {
  const id = stamp();
  const email = `admin.${id}@legado.demo`;
  await signIn(page, ACCOUNTS.legacySupport);
  await gotoHydrated(page, '/cadastrar-usuario');
  await page.getByLabel('Nome completo').fill('Otávio Lacerda');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('CPF').fill(cpfFor(Number(id.slice(-9))));
  await page.getByLabel('Empresa').selectOption(HORIZONTE);
  await page.getByRole('checkbox', { name: 'ADMINISTRADOR' }).check();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByTestId('aviso')).toContainText('Usuário cadastrado');

  const context = await browser.newContext({ baseURL });
  const user = await context.newPage();
  const code = await latestValidationCode(user, email);
  await gotoHydrated(user, `/cadastro-login?email=${encodeURIComponent(email)}`);
  await user.getByLabel('Código de validação', { exact: true }).fill(code);
  await passwordForm(user).password.fill(PASSWORD);
  await passwordForm(user).confirmation.fill(PASSWORD);
  await user.getByRole('button', { name: 'Cadastrar senha' }).click();
  await expect(user.getByRole('heading', { name: 'Cadastro realizado' })).toBeVisible();
  return { email, context, page: user };
}

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });

/** No serious or critical axe violation on the page as it is (as accessibility.spec.ts asks of every entry page). */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('legacy: a new administrator cannot reach any page before enrolling an authenticator app, then signs in with its code and a recovery code', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { email, context, page: user } = await newLegacyAdmin(page, browser);

  // The password is right: the second step, not the home.
  await gotoHydrated(user, '/signin');
  await submitLogin(user, email, PASSWORD);
  await expect(user).toHaveURL(path('/signin/segundo-fator'));
  await expect(stepHeading(user, 'Configure a verificação em duas etapas')).toBeVisible();
  await expect(user.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible();
  await screenshotsAt(user, 'second-factor', 'legacy-enrol');
  await expectAccessible(user);

  // No page opens before the enrolment: there is no session yet.
  for (const target of ['/home', '/consulta-usuarios', '/perfil']) {
    await user.goto(target);
    await expect(user, target).toHaveURL(path('/signin', `next=${encodeURIComponent(target)}`));
  }
  await expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: 'tokenV1' }));

  // Back to the step: the same secret, a wrong code refused, the app's code accepted.
  await user.goto('/signin/segundo-fator');
  const secret = (await user.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '');
  await user.getByLabel('Código do aplicativo autenticador').fill('000000');
  await user.getByRole('button', { name: 'Ativar e entrar' }).click();
  await expect(user.getByRole('alert')).toContainText('Código inválido ou já utilizado');
  await user.getByLabel('Código do aplicativo autenticador').fill(generateSync({ secret }));
  await user.getByRole('button', { name: 'Ativar e entrar' }).click();
  await expect(stepHeading(user, 'Guarde seus códigos de recuperação')).toBeVisible();
  const codes = await user.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await screenshotsAt(user, 'second-factor', 'legacy-recovery-codes');
  await expectAccessible(user);
  await user.getByRole('link', { name: 'Continuar' }).click();
  await expect(user).toHaveURL(path('/home'));
  await expect(user.getByRole('heading', { level: 1, name: 'Olá, Otávio Lacerda!' })).toBeVisible();

  // Next sign-in: the code is asked; a recovery code works instead, once.
  await signOut(user, 'v1');
  await gotoHydrated(user, '/signin');
  await submitLogin(user, email, PASSWORD);
  await expect(stepHeading(user, 'Verificação em duas etapas')).toBeVisible();
  await screenshotsAt(user, 'second-factor', 'legacy-verify');
  await expectAccessible(user);
  await user.getByRole('link', { name: 'Usar um código de recuperação' }).click();
  await user.getByLabel('Código de recuperação').fill(codes[0]!.trim());
  await user.getByRole('button', { name: 'Verificar' }).click();
  await expect(user).toHaveURL(path('/home'));

  await signOut(user, 'v1');
  await gotoHydrated(user, '/signin');
  await submitLogin(user, email, PASSWORD);
  await user.getByRole('link', { name: 'Usar um código de recuperação' }).click();
  await user.getByLabel('Código de recuperação').fill(codes[0]!.trim());
  await user.getByRole('button', { name: 'Verificar' }).click();
  await expect(user.getByRole('alert')).toHaveText('Código de recuperação inválido ou já utilizado.');
  await context.close();
});

test('legacy: a new administrator registers a passkey at enrolment and signs in with it (Chromium virtual authenticator)', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // WebAuthn needs a host name, not an address: this journey runs on localhost.
  const localhost = BASE_URL.replace('127.0.0.1', 'localhost');
  const { email, context, page: user } = await newLegacyAdmin(page, browser, localhost);
  const cdp = await context.newCDPSession(user);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await gotoHydrated(user, `${localhost}/signin`);
  await submitLogin(user, email, PASSWORD);
  await expect(user).toHaveURL(path('/signin/segundo-fator'));
  await waitForIslands(user);
  await user.getByRole('button', { name: 'Usar uma chave de acesso (passkey)' }).click();
  await expect(user.getByRole('status')).toHaveText('Chave de acesso cadastrada.');
  await expect(user.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10);
  await user.getByRole('link', { name: 'Continuar' }).click();
  await expect(user).toHaveURL(path('/home'));

  await signOut(user, 'v1');
  await gotoHydrated(user, `${localhost}/signin`);
  await submitLogin(user, email, PASSWORD);
  await expect(user).toHaveURL(path('/signin/segundo-fator'));
  await waitForIslands(user);
  await user.getByRole('button', { name: 'Entrar com chave de acesso' }).click();
  await expect(user).toHaveURL(path('/home'));
  // One passkey on the authenticator, used to register and then to sign in.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await context.close();
});

test('v2: the insurer admin is asked for the code after the password, on the login screen kept as SPEC has it', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  await gotoHydrated(page, '/v2/login');
  await submitLogin(page, ACCOUNTS.insurerAdmin.email, 'Portal@2026');
  await expect(page).toHaveURL(path('/v2/login/segundo-fator'));
  await expect(page.getByRole('heading', { level: 2, name: 'Verificação em duas etapas' })).toBeVisible();
  await page.goto('/v2/home');
  await expect(page).toHaveURL(/\/v2\/login\?next=/);
  await screenshotsAt(page, 'second-factor', 'v2-verify-without-session');
  await context.close();
});

test('v2: a seller turns on the second factor from the profile — an app, then a passkey — signs in with the passkey, and turns it off again', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const localhost = BASE_URL.replace('127.0.0.1', 'localhost');
  const seller = { email: 'igor.pereira@parceiro.demo', name: 'Igor Pereira', generation: 'v2' as const, partner: true };
  const context = await browser.newContext({ baseURL: localhost });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await gotoHydrated(page, `${localhost}/v2/login`);
  await submitLogin(page, seller.email, 'Portal@2026');
  await expect(page).toHaveURL(path('/v2/home'));

  await page.goto('/v2/perfil');
  await page.getByRole('link', { name: 'Verificação em duas etapas e chaves de acesso' }).click();
  await expect(page).toHaveURL(path('/v2/perfil/seguranca'));
  await expect(page.getByTestId('situacao-2fa')).toContainText('Desativada. Recomendada');

  // The app: a wrong code keeps the same QR code; the right one turns it on and shows the codes once.
  await page.getByRole('button', { name: 'Configurar aplicativo autenticador' }).click();
  const secret = (await page.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '');
  await page.getByLabel('Código do aplicativo autenticador').fill('123');
  await page.getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('código de 6 dígitos');
  expect((await page.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '')).toBe(secret);
  await page.getByLabel('Código do aplicativo autenticador').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Aplicativo autenticador ativado.');
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('situacao-2fa')).toContainText('Ativada.');
  await screenshotsAt(page, 'second-factor', 'v2-security-codes');

  // A passkey, through the browser's ceremony.
  await page.goto('/v2/perfil/seguranca');
  await waitForIslands(page);
  await page.getByLabel('Nome da chave').fill('Notebook do escritório');
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Chave de acesso cadastrada.');
  await expect(page.getByRole('list', { name: 'Chaves de acesso' })).toContainText('Notebook do escritório');
  await screenshotsAt(page, 'second-factor', 'v2-security');

  // The next sign-in asks; the passkey answers.
  await signOut(page, 'v2');
  await gotoHydrated(page, `${localhost}/v2/login`);
  await submitLogin(page, seller.email, 'Portal@2026');
  await expect(page).toHaveURL(path('/v2/login/segundo-fator'));
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Entrar com chave de acesso' }).click();
  await expect(page).toHaveURL(path('/v2/home'));

  // Off again: the passkey, then the app; the next sign-in goes straight home.
  await page.goto('/v2/perfil/seguranca');
  await page.getByRole('button', { name: 'Remover Notebook do escritório' }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Chave de acesso removida.');
  await page.getByRole('button', { name: 'Remover aplicativo' }).click();
  await expect(page.getByTestId('situacao-2fa')).toContainText('Desativada.');
  await signOut(page, 'v2');
  await gotoHydrated(page, `${localhost}/v2/login`);
  await submitLogin(page, seller.email, 'Portal@2026');
  await expect(page).toHaveURL(path('/v2/home'));
  await context.close();
});

test.describe('sessions from the profile', () => {
  for (const generation of ['v1', 'v2'] as const) {
    test(`${generation}: a session ended from the profile is refused at its next request`, async ({ browser }) => {
      const account =
        generation === 'v1'
          ? ACCOUNTS.legacyConsultant
          : { email: 'juliana.costa@parceiro.demo', name: 'Juliana Costa', generation: 'v2' as const };
      const home = generation === 'v1' ? '/home' : '/v2/home';
      const profile = generation === 'v1' ? '/perfil' : '/v2/perfil';
      const phone = await browser.newContext({
        baseURL: BASE_URL,
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      });
      const desktop = await browser.newContext({ baseURL: BASE_URL });
      const onPhone = await phone.newPage();
      const onDesktop = await desktop.newPage();
      await signIn(onPhone, account);
      await signIn(onDesktop, account);

      await onDesktop.goto(profile);
      const sessions = onDesktop.getByRole('list', { name: 'Sessões ativas' });
      await expect(sessions.getByTestId('sessao-atual')).toContainText('Esta sessão');
      const phoneRow = sessions.getByRole('listitem').filter({ hasText: 'Safari no iPhone' }).first();
      await expect(phoneRow).toBeVisible();
      await screenshotsAt(onDesktop, 'second-factor', `${generation}-profile-sessions`);
      await phoneRow.getByRole('button', { name: /^Encerrar a sessão Safari no iPhone/ }).click();
      await expect(onDesktop.getByTestId('aviso')).toHaveText('Sessão encerrada. Quem a usava precisa entrar de novo.');

      // The phone's next page asks for the login; the desktop goes on.
      await onPhone.goto(home);
      await expect(onPhone).toHaveURL(
        path(generation === 'v1' ? '/signin' : '/v2/login', `next=${encodeURIComponent(home)}&sessao=expirada`),
      );
      await onDesktop.goto(home);
      await expect(onDesktop).toHaveURL(path(home));
      await phone.close();
      await desktop.close();
    });
  }
});

test("legacy: an administrator resets a user's second factor from the users list; the user's session ends and the next sign-in enrols again", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { email, context, page: user } = await newLegacyAdmin(page, browser);
  await gotoHydrated(user, '/signin');
  await submitLogin(user, email, PASSWORD);
  await passSecondFactor(user, { email, generation: 'v1' });
  await expect(user).toHaveURL(path('/home'));

  await page.goto(`/consulta-usuarios?email=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: 'Verificação em duas etapas de Otávio Lacerda' }).click();
  await expect(page.getByTestId('situacao-2fa')).toHaveText(
    'Configurada: aplicativo autenticador. Obrigatória para o perfil deste usuário.',
  );
  await screenshotsAt(page, 'second-factor', 'legacy-admin-reset');
  await page.getByRole('button', { name: 'Redefinir verificação em duas etapas' }).click();
  await expect(page).toHaveURL(path('/consulta-usuarios', 'aviso=segundo-fator'));
  await expect(page.getByTestId('aviso')).toContainText('Verificação em duas etapas redefinida');

  await user.goto('/home');
  await expect(user).toHaveURL(/\/signin\?next=/);
  await gotoHydrated(user, '/signin');
  await submitLogin(user, email, PASSWORD);
  await expect(stepHeading(user, 'Configure a verificação em duas etapas')).toBeVisible();
  await context.close();
});
