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
  signInThroughForm,
  signOut,
  submitLogin,
  waitForIslands,
} from './helpers';
import { cpfFor } from './selling';
import { nextTotpStep } from '../fixtures/second-factor';

/**
 * Issue 32 (decision 068): the legacy administrator group must prove a second factor. A new member
 * of it signs in for the first time, cannot open any page before enrolling, enrols an authenticator
 * app (or a passkey, through Chromium's virtual authenticator), keeps the recovery codes, and signs in
 * again with them. Screenshots under test-results/second-factor.
 */

const HORIZONTE = '11222333000181';
const PASSWORD = 'Primeiro#Acesso1';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/**
 * The legacy support admin registers a new member of the administrator group, who completes the first
 * access — with `staleCode`, after first typing the code of an invitation that a newer one replaced.
 */
async function newLegacyAdmin(page: Page, browser: Browser, baseURL = BASE_URL, { staleCode = false } = {}) {
  const id = stamp();
  const email = `admin.${id}@legado.demo`;
  await signInThroughForm(page, ACCOUNTS.legacySupport);
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
  let code = await latestValidationCode(user, email);
  if (staleCode) {
    // The person asks for a new code, then types the old one (issue 42): one error, beside the field.
    await gotoHydrated(user, '/reenviar-codigo-validacao');
    await user.getByLabel('E-mail').fill(email);
    await user.getByRole('button', { name: 'Reenviar código' }).click();
    await expect(user.getByRole('status')).toBeVisible();
    const stale = code;
    // The new code's e-mail is in the outbox once the form answered.
    code = await latestValidationCode(user, email);
    expect(code).not.toBe(stale);
    await gotoHydrated(user, `/cadastro-login?email=${encodeURIComponent(email)}`);
    await user.getByLabel('Código de validação', { exact: true }).fill(stale);
    await passwordForm(user).password.fill(PASSWORD);
    await passwordForm(user).confirmation.fill(PASSWORD);
    await user.getByRole('button', { name: 'Cadastrar senha' }).click();
    await expect(user.getByText('Código de validação inválido ou expirado', { exact: false })).toHaveCount(1);
    await expect(user.getByText('Os 6 dígitos do e-mail de primeiro acesso.')).toBeVisible();
    await expect(user.getByText(/Limite de \d+ caracteres atingido/)).toHaveCount(0);
    await screenshotsAt(user, 'second-factor', 'legacy-first-access-stale-code');
  } else await gotoHydrated(user, `/cadastro-login?email=${encodeURIComponent(email)}`);
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
  // The stale invitation code's detour (a new code asked for, the old one typed) adds a minute on a busy machine.
  test.setTimeout(300_000);
  const { email, context, page: user } = await newLegacyAdmin(page, browser, BASE_URL, { staleCode: true });

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

  // A session alone changes nothing (issue 42): the page first asks "Confirme que é você".
  await page.getByRole('button', { name: 'Configurar aplicativo autenticador' }).click();
  const confirm = page.getByRole('form', { name: 'Confirmar que é você' });
  await expect(page.getByRole('heading', { name: 'Confirme que é você' })).toBeVisible();
  await expect(page.getByText('Para configurar o aplicativo autenticador, informe a sua senha.')).toBeVisible();
  await confirm.getByLabel('Senha').fill('Errada@2026');
  await confirm.getByRole('button', { name: 'Confirmar e continuar' }).click();
  await expect(page.getByRole('alert')).toHaveText('Senha incorreta.');
  await screenshotsAt(page, 'second-factor', 'v2-security-confirm');
  await confirm.getByLabel('Senha').fill('Portal@2026');
  await confirm.getByRole('button', { name: 'Confirmar e continuar' }).click();

  // The app: a wrong code keeps the same QR code; the right one turns it on and shows the codes once.
  const secret = (await page.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '');
  await expect(page.getByTestId('confirmada-ate')).toContainText('Identidade confirmada até');
  await page.getByLabel('Código do aplicativo autenticador').fill('123');
  await page.getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('código de 6 dígitos');
  expect((await page.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '')).toBe(secret);
  await page.getByLabel('Código do aplicativo autenticador').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Aplicativo autenticador ativado.');
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('situacao-2fa')).toContainText('Ativada.');
  await expect(page.getByTestId('codigos-restantes')).toHaveText('Restam 10 dos 10 códigos de recuperação.');
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

  // Off again, from this new session: it has proved nothing yet, so the first removal asks — here
  // answered with a code of the app — and the second goes through within the 5 minutes.
  await page.goto('/v2/perfil/seguranca');
  await page.getByRole('button', { name: 'Remover Notebook do escritório' }).click();
  await expect(
    page.getByText('Para remover a chave de acesso, informe a sua senha ou um código do aplicativo autenticador.'),
  ).toBeVisible();
  await nextTotpStep(); // the enrolment may have taken this step's code
  await page.getByLabel('Ou código do aplicativo autenticador').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Confirmar e continuar' }).click();
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
      test.setTimeout(120_000);
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
      await signInThroughForm(onPhone, account);
      await signInThroughForm(onDesktop, account);

      // A later session of the same browser and place: it differs from this one only by its times, and
      // comes first by last use — "Esta sessão" must still head the list.
      const sameBrowser = await browser.newContext({ baseURL: BASE_URL });
      await signInThroughForm(await sameBrowser.newPage(), account);
      await sameBrowser.close();

      await onDesktop.goto(profile);
      const sessions = onDesktop.getByRole('list', { name: 'Sessões ativas' });
      // "Esta sessão" heads the list (issue 42), and each session says its number and times to the second.
      await expect(sessions.getByRole('listitem').first()).toHaveAttribute('data-testid', 'sessao-atual');
      await expect(sessions.getByTestId('sessao-atual')).toContainText('Esta sessão');
      const numbers = await sessions.getByRole('listitem').allTextContents();
      const ids = numbers.map((text) => /sessão nº (\d+)/.exec(text)?.[1]);
      expect(ids.every(Boolean)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      await expect(sessions.getByTestId('sessao-atual')).toContainText(/Entrou em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
      const phoneRow = sessions.getByRole('listitem').filter({ hasText: 'Safari no iPhone' }).first();
      await expect(phoneRow).toBeVisible();
      await screenshotsAt(onDesktop, 'second-factor', `${generation}-profile-sessions`);
      await phoneRow.getByRole('button', { name: /^Encerrar a sessão nº \d+, Safari no iPhone/ }).click();
      await expect(onDesktop.getByTestId('aviso')).toHaveText('Sessão encerrada. Quem a usava precisa entrar de novo.');

      // The phone's next page asks for the login, saying why; the desktop goes on.
      await onPhone.goto(home);
      await expect(onPhone).toHaveURL(
        path(generation === 'v1' ? '/signin' : '/v2/login', `next=${encodeURIComponent(home)}&sessao=encerrada`),
      );
      await expect(onPhone.getByRole('status')).toHaveText('Esta sessão foi encerrada em outro dispositivo. Entre novamente.');
      await onDesktop.goto(home);
      await expect(onDesktop).toHaveURL(path(home));
      await phone.close();
      await desktop.close();
    });
  }
});

test("legacy: an administrator resets a user's second factor from the users list, lands on the user's page; the user's login says why and the next sign-in enrols again", async ({
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
  // Back on the user's page (issue 42), which says what was done and shows the factor gone.
  await expect(page).toHaveURL(/\/consulta-usuarios\/\d+\?aviso=segundo-fator$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Otávio Lacerda' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Verificação em duas etapas redefinida');
  await expect(page.getByTestId('estado-segundo-fator')).toHaveText('Não configurada.');
  await screenshotsAt(page, 'second-factor', 'legacy-admin-reset-done');

  await user.goto('/home');
  await expect(user).toHaveURL(path('/signin', `next=${encodeURIComponent('/home')}&sessao=segundo-fator-redefinido`));
  await expect(user.getByRole('status')).toContainText('Um administrador redefiniu a sua verificação em duas etapas');
  await screenshotsAt(user, 'second-factor', 'legacy-login-after-reset');
  await waitForIslands(user);
  await submitLogin(user, email, PASSWORD);
  await expect(stepHeading(user, 'Configure a verificação em duas etapas')).toBeVisible();
  await context.close();
});

test("v2: a partner administrator resets a seller's second factor from the seller's page; the seller's login says why", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const seller = { email: 'juliana.costa@parceiro.demo', name: 'Juliana Costa', generation: 'v2' as const, partner: true };
  const sellerContext = await browser.newContext({ baseURL: BASE_URL });
  const sellerPage = await sellerContext.newPage();
  await signInThroughForm(sellerPage, seller);
  // The seller turns the app on, confirming with the password first.
  await sellerPage.goto('/v2/perfil/seguranca');
  await sellerPage.getByRole('button', { name: 'Configurar aplicativo autenticador' }).click();
  await sellerPage.getByLabel('Senha').fill('Portal@2026');
  await sellerPage.getByRole('button', { name: 'Confirmar e continuar' }).click();
  const secret = (await sellerPage.getByTestId('chave-totp').textContent())!.replace(/\s+/g, '');
  await sellerPage.getByLabel('Código do aplicativo autenticador').fill(generateSync({ secret }));
  await sellerPage.getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(sellerPage.getByTestId('aviso')).toHaveText('Aplicativo autenticador ativado.');

  const adminContext = await browser.newContext({ baseURL: BASE_URL });
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, ACCOUNTS.partnerAdmin);
  await admin.goto(`/v2/usuario/cadastro/consulta?email=${encodeURIComponent(seller.email)}`);
  await admin.getByRole('link', { name: 'Juliana Costa' }).first().click();
  await expect(admin.getByTestId('codigos-e-navegadores')).toHaveText('10 códigos de recuperação restantes; 0 navegadores lembrados.');
  await admin.getByRole('link', { name: 'Redefinir a verificação em duas etapas' }).click();
  await admin.getByRole('button', { name: 'Redefinir verificação em duas etapas' }).click();
  await expect(admin).toHaveURL(/\/v2\/usuario\/\d+\?aviso=segundo-fator$/);
  await expect(admin.getByRole('status')).toContainText('Verificação em duas etapas redefinida');
  await expect(admin.getByTestId('estado-segundo-fator')).toHaveText('Não configurada.');
  await screenshotsAt(admin, 'second-factor', 'v2-admin-reset-done');

  await sellerPage.goto('/v2/home');
  await expect(sellerPage).toHaveURL(path('/v2/login', `next=${encodeURIComponent('/v2/home')}&sessao=segundo-fator-redefinido`));
  await expect(sellerPage.getByRole('status')).toContainText('Um administrador redefiniu a sua verificação em duas etapas');
  await screenshotsAt(sellerPage, 'second-factor', 'v2-login-after-reset');
  await sellerContext.close();
  await adminContext.close();
});

test('legacy: the passkey island asks "Confirme que é você" itself, then registers the key; new codes follow within the 5 minutes', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const localhost = BASE_URL.replace('127.0.0.1', 'localhost');
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
  await gotoHydrated(page, `${localhost}/signin`);
  await submitLogin(page, ACCOUNTS.legacySeller.email, 'Portal@2026');
  await expect(page).toHaveURL(path('/home'));
  await page.goto('/perfil/seguranca');
  await waitForIslands(page);
  await page.getByLabel('Nome da chave').fill('Celular');
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
  const confirm = page.getByRole('form', { name: 'Confirmar que é você' });
  await expect(confirm.getByRole('heading', { name: 'Confirme que é você' })).toBeVisible();
  await confirm.getByLabel('Senha', { exact: true }).fill('Errada@2026');
  await confirm.getByRole('button', { name: 'Confirmar e adicionar a chave' }).click();
  await expect(confirm.getByRole('alert')).toHaveText('Senha incorreta.');
  await screenshotsAt(page, 'second-factor', 'legacy-passkey-confirm');
  await confirm.getByLabel('Senha', { exact: true }).fill('Portal@2026');
  await confirm.getByRole('button', { name: 'Confirmar e adicionar a chave' }).click();
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('link', { name: 'Concluir' }).click();

  // Within the 5 minutes: new codes without asking again.
  await expect(page.getByTestId('confirmada-ate')).toContainText('Identidade confirmada até');
  await page.getByRole('button', { name: 'Gerar novos códigos' }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Novos códigos gerados. Os anteriores não valem mais.');
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10);
  // Back as it was: the key removed (still within the 5 minutes).
  await page.goto('/perfil/seguranca');
  await page.getByRole('button', { name: 'Remover Celular' }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Chave de acesso removida.');
  await expect(page.getByTestId('situacao-2fa')).toContainText('Desativada.');
  await context.close();
});
