import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { nextTotpStep, totpCode } from '../fixtures/second-factor';

/**
 * Shared pieces of the e2e journeys: the demo accounts, signing in and out through the real
 * screens, and reading the demo mailbox (/caixa-postal) as the provider's admin.
 *
 * The journeys of a worker share ONE database, one after another (see playwright.config.ts), so:
 *  - `admin@legado.demo` belongs to account-recovery.spec.ts (its password is reset there, and set back
 *    to the demo one at the end, for the authorization matrix);
 *  - `novo.parceiro@parceiro.demo` belongs to the first-access test only;
 *  - every other account keeps the demo password and may be used anywhere.
 */

export const DEMO_PASSWORD = 'Portal@2026';

export type Generation = 'v1' | 'v2';

export interface DemoAccount {
  email: string;
  name: string;
  generation: Generation;
  /** Partner profiles get a simulator token at sign-in (see expectSimulatorsAvailable). */
  partner?: boolean;
}

export const ACCOUNTS = {
  /** Reserved for account-recovery.spec.ts (its password gets reset there). */
  legacyAdmin: { email: 'admin@legado.demo', name: 'Ana Ribeiro', generation: 'v1' },
  /** The admin group too: the user-administration journeys (users.spec.ts) act as this one. */
  legacySupport: { email: 'suporte@legado.demo', name: 'Rafael Monteiro', generation: 'v1' },
  /** Legacy group GESTOR: manages Horizonte's users (USUARIOS), gives only groups it holds wholly. */
  legacyManager: { email: 'gestor@legado.demo', name: 'Marcos Teixeira', generation: 'v1' },
  legacySeller: { email: 'vendedor@legado.demo', name: 'Bruno Carvalho', generation: 'v1' },
  /** Legacy group CONSULTOR: sells only Residencial (RES) and Vida (VEU). */
  legacyConsultant: { email: 'consultor@legado.demo', name: 'Helena Martins', generation: 'v1' },
  insurerAdmin: { email: 'admin@seguradora.demo', name: 'Carla Mendes', generation: 'v2' },
  partnerAdmin: { email: 'parceiro.admin@parceiro.demo', name: 'Daniel Souza', generation: 'v2', partner: true },
  partner: { email: 'parceiro@parceiro.demo', name: 'Eduarda Lima', generation: 'v2', partner: true },
  subagent: { email: 'substabelecido@parceiro.demo', name: 'Felipe Araújo', generation: 'v2', partner: true },
  /** Reserved for the first-access test (pending until it registers a password). */
  newPartner: { email: 'novo.parceiro@parceiro.demo', name: 'Gabriela Rocha', generation: 'v2', partner: true },
} as const satisfies Record<string, DemoAccount>;

/** Where this worker's e2e server answers (playwright.config.ts starts one per worker, on E2E_PORT + its index). */
export const BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399) + Number(process.env.TEST_PARALLEL_INDEX ?? 0)}`;

export const LOGIN_PATH = { v1: '/signin', v2: '/v2/login' } as const;
export const HOME_PATH = { v1: '/home', v2: '/v2/home' } as const;

export const SUBJECTS = {
  reset: 'Redefinição de senha — Portal de Parceiros',
  firstAccess: 'Código de validação — primeiro acesso ao Portal de Parceiros',
} as const;

/** A URL matcher for `expect(page).toHaveURL`: this path, with or without a query string. */
export const path = (pathname: string, query?: string): RegExp =>
  new RegExp(`^https?://[^/]+${escapeRegExp(pathname)}${query === undefined ? '(\\?.*)?' : `\\?${escapeRegExp(query)}`}$`);

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until every React island of the page has hydrated. Submitting a form before that would
 * be a native form submission (a GET with the password in the URL), not the app's sign-in.
 */
export async function waitForIslands(page: Page): Promise<void> {
  // Right after a navigation the islands may not be parsed yet: a count of 0 would then mean nothing.
  await page.waitForLoadState('domcontentloaded');
  // A client:visible island hydrates only once in view: a long list holds some below the fold, and
  // one scrolled past too quickly may miss its intersection observer — so scroll to each in turn, a
  // frame or two apiece, until none is left. In the page, over the elements themselves: locators from
  // .all() are nth(i) of a list that shrinks as islands hydrate (a long queue's last ones then named
  // nothing and each waited out its timeout, never scrolled to).
  await expect(async () => {
    await page.evaluate(async () => {
      for (const island of document.querySelectorAll('astro-island[ssr][client="visible"]')) {
        (island.firstElementChild ?? island).scrollIntoView({ block: 'center' });
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      }
    });
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 1_500 });
  }).toPass({ timeout: 15_000 });
}

export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForIslands(page);
}

/** The controls of the login screen (/signin, /login, /v2/login). */
export function loginForm(page: Page) {
  return {
    email: page.getByLabel('Login', { exact: true }),
    password: page.getByLabel('Senha', { exact: true }),
    submit: page.getByRole('button', { name: 'Entrar', exact: true }),
    eye: page.getByRole('button', { name: 'Mostrar senha enquanto pressionado' }),
  };
}

/** Fills and submits the login form of the page that is already open (and hydrated). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const form = loginForm(page);
  await form.email.fill(email);
  await form.password.fill(password);
  await form.submit.click();
}

/**
 * Signs in and waits for the account's home page, hydrated. Through the API, as the login form's
 * script does (the same endpoint, the same cookies, the second factor proved): the journeys sign in
 * some 200 times, and the login screen itself is the subject of login.spec.ts, second-factor.spec.ts
 * and session.spec.ts, which use signInThroughForm. A caller's `password`, `loginUrl` or `typedEmail`
 * is about the form, so those go through it too.
 */
export async function signIn(
  page: Page,
  account: DemoAccount,
  options: { password?: string; loginUrl?: string; typedEmail?: string } = {},
): Promise<void> {
  if (Object.keys(options).length) return signInThroughForm(page, account, options);
  // The page's server (the worker's, or a journey's own on the context's baseURL), from a static file.
  const base = new URL((await page.context().request.head('/favicon.svg')).url()).origin;
  await apiSignIn(page.context(), account, { base });
  await page.goto(HOME_PATH[account.generation]);
  await expectHome(page, account);
  await waitForIslands(page);
}

/**
 * Signs in through the account's own login screen, as its person does, and waits for its home page,
 * hydrated. `loginUrl` lets a caller use `/login` or a `?next=` variant.
 */
export async function signInThroughForm(
  page: Page,
  account: DemoAccount,
  options: { password?: string; loginUrl?: string; typedEmail?: string } = {},
): Promise<void> {
  await rememberedDevice(page.context(), account);
  await gotoHydrated(page, options.loginUrl ?? LOGIN_PATH[account.generation]);
  await submitLogin(page, options.typedEmail ?? account.email, options.password ?? DEMO_PASSWORD);
  await passSecondFactor(page, account);
  await expectHome(page, account);
  // Ready to be used as a person would: a click before the shell's island hydrates does nothing.
  await waitForIslands(page);
}

export const SECOND_FACTOR_PATH = { v1: '/signin/segundo-fator', v2: '/v2/login/segundo-fator' } as const;

/**
 * The browser each administrator had remembered at its second factor (decision 068), by server and
 * e-mail: the run signs them in hundreds of times, each code is good once per 30 s, so the first
 * sign-in of an account proves the code and ticks "Lembrar este dispositivo", and the later ones carry
 * its cookie. Also the secrets of the apps journeys enrolled (accounts they created).
 */
const trustedDevices = new Map<string, string>();
const enrolledSecrets = new Map<string, string>();
const deviceKey = (base: string, email: string) => `${base}|${email}`;

/** The authenticator code of an account: the demo administrators' published secrets, or one a journey enrolled. */
function codeOf(email: string): string {
  const enrolled = enrolledSecrets.get(email);
  return enrolled ? generateSync({ secret: enrolled }) : totpCode(email);
}

/** Puts the account's remembered-browser cookie in the context, if this run has one. */
export async function rememberedDevice(context: BrowserContext, account: { email: string }, base = BASE_URL): Promise<void> {
  const token = trustedDevices.get(deviceKey(base, account.email));
  if (token) await context.addCookies([{ name: 'dispositivoConfiavel', value: token, url: base, httpOnly: true, sameSite: 'Lax' }]);
}

/**
 * After the password: when the second step opens, passes it as its person would — the code of the
 * account's authenticator (the next step's if this one's was taken), "Lembrar este dispositivo"
 * ticked; for an administrator without a factor yet, the enrolment (the key read off the page, kept
 * for the account's later sign-ins) and the recovery codes' "Continuar". Anyone else: nothing.
 */
export async function passSecondFactor(page: Page, account: { email: string; generation: Generation }): Promise<void> {
  const step = path(SECOND_FACTOR_PATH[account.generation]);
  // Wait until the password's answer has taken the browser somewhere other than a login page — on a
  // server of a journey's own, the first sign-in also opens and seeds its database.
  await expect(page).toHaveURL((url) => !['/signin', '/login', '/v2/login'].includes(url.pathname), { timeout: 60_000 });
  if (!step.test(page.url())) return;
  const secret = page.getByTestId('chave-totp');
  if (await secret.isVisible()) {
    enrolledSecrets.set(account.email, (await secret.textContent())!.replace(/\s+/g, ''));
    await page.getByLabel('Código do aplicativo autenticador').fill(codeOf(account.email));
    await page
      .getByLabel(/Lembrar este dispositivo/)
      .first()
      .check();
    await page.getByRole('button', { name: 'Ativar e entrar' }).click();
    await page.getByRole('link', { name: 'Continuar' }).click();
  } else {
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.getByLabel('Código do aplicativo autenticador').fill(codeOf(account.email));
      await page
        .getByLabel(/Lembrar este dispositivo/)
        .first()
        .check();
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.waitForLoadState('domcontentloaded');
      if (!step.test(page.url())) break;
      // This step's code was taken by an earlier sign-in: the next one's is new.
      await nextTotpStep();
    }
  }
  await expect(page).not.toHaveURL(step);
  const base = new URL(page.url()).origin;
  const device = (await page.context().cookies(base)).find((c) => c.name === 'dispositivoConfiavel');
  if (device) trustedDevices.set(deviceKey(base, account.email), device.value);
}

export async function expectHome(page: Page, account: DemoAccount): Promise<void> {
  await expect(page).toHaveURL(path(HOME_PATH[account.generation]));
  await expect(page.getByRole('heading', { level: 1, name: `Olá, ${account.name}!` })).toBeVisible();
}

/** What the v2 home says to a partner signed in without the simulators' token. */
export const SIMULATORS_UNAVAILABLE = 'Os simuladores não estão disponíveis nesta sessão. Para simular, saia e entre novamente.';

/**
 * The v2 home of a partner who may simulate (signed in with the simulators' token): no note that
 * the simulators are unavailable, and a 'Simular' link on the offers.
 */
export async function expectSimulatorsAvailable(page: Page): Promise<void> {
  await expect(page.getByRole('link', { name: /^Simular / }).first()).toBeVisible();
  await expect(page.getByText(SIMULATORS_UNAVAILABLE)).toHaveCount(0);
}

/** Clicks "Sair" in the drawer of a signed-in page and checks where the user lands. */
export async function signOut(page: Page, generation: Generation): Promise<void> {
  const menu = await openDrawer(page);
  await menu.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(generation === 'v1' ? path('/') : path('/v2/login'));
}

/**
 * The demo mailbox holds reset links and codes, so only the provider's admin reads it: a context of
 * its own signs admin@seguradora.demo in (through the API, as the login form does) and opens
 * /caixa-postal filtered by recipient and subject. Answers the text and links of the newest e-mail to `to` with `subject`, re-reading
 * until one arrives.
 */
export async function latestEmail(page: Page, to: string, subject: string): Promise<{ text: string; links: string[] }> {
  const context = await page.context().browser()!.newContext({ baseURL: BASE_URL });
  try {
    await apiSignIn(context, ACCOUNTS.insurerAdmin);
    const mailbox = await context.newPage();
    let found: { text: string; links: string[] } | undefined;
    await expect(async () => {
      // Filtered by recipient and subject (issue 27): the newest of these is on the first page however busy the outbox.
      await mailbox.goto(`/caixa-postal?${new URLSearchParams({ para: to, assunto: subject })}`);
      await expect(mailbox.getByRole('heading', { level: 1, name: 'Caixa postal de demonstração' })).toBeVisible();
      const newest = mailbox
        .getByRole('article')
        .filter({ has: mailbox.getByRole('heading', { level: 2, name: subject, exact: true }) })
        .filter({ hasText: `Para ${to}` })
        .first();
      await expect(newest).toBeVisible({ timeout: 1_000 });
      found = {
        text: (await newest.textContent()) ?? '',
        links: await newest.getByRole('link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href)),
      };
    }).toPass({ timeout: 10_000 });
    return found!;
  } finally {
    await context.close();
  }
}

/** The reset link (http://…/redefinir-senha?token=… or /v2/senha?token=…) of the newest reset e-mail. */
export async function latestResetLink(page: Page, to: string): Promise<string> {
  const { links } = await latestEmail(page, to, SUBJECTS.reset);
  const resetLinks = links.filter((href) => href.includes('token='));
  expect(resetLinks).toHaveLength(1);
  return resetLinks[0]!;
}

/** The six digits of the newest first-access e-mail. */
export async function latestValidationCode(page: Page, to: string): Promise<string> {
  const { text } = await latestEmail(page, to, SUBJECTS.firstAccess);
  const match = /Código de validação: (\d{6})/.exec(text);
  expect(match, `no "Código de validação: NNNNNN" line in the e-mail:\n${text}`).not.toBeNull();
  return match![1]!;
}

/** The new-password fields of the reset and first-access screens. */
export function passwordForm(page: Page) {
  return {
    password: page.getByLabel('Nova senha', { exact: true }),
    confirmation: page.getByLabel('Confirme a nova senha', { exact: true }),
  };
}

/** The drawer of the signed-in frame (a modal <dialog> named "Menu principal"). */
export function drawer(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Menu principal' });
}

/** Opens the drawer with the header's "Abrir menu" button (the page must be hydrated) and returns it. */
export async function openDrawer(page: Page): Promise<Locator> {
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  const dialog = drawer(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Screenshots of the page at 1366 and 390 px under test-results/{folder}, checking at each width that
 * nothing scrolls sideways; the viewport goes back to 1366 px.
 */
export async function screenshotsAt(page: Page, folder: string, name: string): Promise<void> {
  const dir = join('test-results', folder);
  mkdirSync(dir, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Completes a new user's first access from the mailbox and signs them in, in a context of their own. */
export async function completeFirstAccess(browser: Browser, email: string, generation: 'v1' | 'v2', password: string) {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const code = await latestValidationCode(page, email);
  await gotoHydrated(page, `/cadastro-login?email=${encodeURIComponent(email)}`);
  await page.getByLabel('Código de validação', { exact: true }).fill(code);
  const form = passwordForm(page);
  await form.password.fill(password);
  await form.confirmation.fill(password);
  await page.getByRole('button', { name: 'Cadastrar senha' }).click();
  await expect(page.getByRole('heading', { name: 'Cadastro realizado' })).toBeVisible();
  await gotoHydrated(page, generation === 'v1' ? '/signin' : '/v2/login');
  await submitLogin(page, email, password);
  // A new administrator enrols an authenticator app here, as its person would (decision 068).
  await passSecondFactor(page, { email, generation });
  await expect(page).toHaveURL(path(generation === 'v1' ? '/home' : '/v2/home'));
  return { context, page };
}

/**
 * The provider's ADMIN, in a browser context of their own, asks for documents of a referred proposal
 * in the analysis queue (the partner's worklist, documents and acceptance journeys start from it).
 */
export async function askForDocuments(browser: Browser, nrProposta: string, pedido: string): Promise<void> {
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/propostas/analise');
  // The queue's decisions hydrate once in view (client:visible): wait for this proposal's own.
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await item.scrollIntoViewIfNeeded();
  await expect(item.locator('astro-island[ssr]')).toHaveCount(0);
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  await item.getByLabel('Documentos pedidos ao parceiro').fill(pedido);
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));
  await admin.context().close();
}

/**
 * Signs an account in through the API, as the login form does (cookie mode), into the cookies of a
 * browser context or of an API request context — with the second factor of a demo administrator,
 * remembering the browser as signIn does. `base`: a server of the test's own.
 */
export async function apiSignIn(
  target: BrowserContext | APIRequestContext,
  account: { email: string; generation: Generation },
  { password = DEMO_PASSWORD, base = BASE_URL }: { password?: string; base?: string } = {},
): Promise<void> {
  const request = 'request' in target ? target.request : target;
  const device = trustedDevices.get(deviceKey(base, account.email));
  const headers = { 'x-portal-session': 'cookie', origin: base, ...(device ? { 'x-dispositivo-confiavel': device } : {}) };
  const login =
    account.generation === 'v1'
      ? await request.post(`${base}/api/plataforma/v1/login`, { data: { user_name: account.email, password }, headers })
      : await request.post(`${base}/api/gateway/login`, { data: { userName: account.email, password }, headers });
  expect(login.status(), await login.text()).toBe(200);
  const body = await login.json();
  if (!(body.resultado?.segundoFator ?? body.segundoFator)) return;
  const answer = () =>
    request.post(`${base}/api/auth/v1/segundo-fator/totp`, { data: { codigo: codeOf(account.email), lembrar: true }, headers });
  let proved = await answer();
  if (proved.status() === 400) {
    // This step's code was taken by an earlier sign-in: the next one's is new.
    await nextTotpStep();
    proved = await answer();
  }
  expect(proved.status(), await proved.text()).toBe(200);
  const remembered = (await request.storageState()).cookies.find((c) => c.name === 'dispositivoConfiavel');
  if (remembered) trustedDevices.set(deviceKey(base, account.email), remembered.value);
}

/**
 * The `authtoken` of an account signed in as an API client (no cookies) — through the second step
 * for an administrator, with the device it remembered there on later calls.
 */
export async function apiToken(
  request: APIRequestContext,
  account: { email: string; generation: Generation },
  base = BASE_URL,
): Promise<string> {
  const key = deviceKey(`${base}#api`, account.email);
  const device = trustedDevices.get(key);
  const headers = device ? { 'x-dispositivo-confiavel': device } : undefined;
  const login =
    account.generation === 'v1'
      ? await request.post(`${base}/api/plataforma/v1/login`, { data: { user_name: account.email, password: DEMO_PASSWORD }, headers })
      : await request.post(`${base}/api/gateway/login`, { data: { userName: account.email, password: DEMO_PASSWORD }, headers });
  expect(login.status(), await login.text()).toBe(200);
  const body = await login.json();
  const step = body.resultado?.segundoFator ?? body.segundoFator;
  if (!step) return (body.resultado?.token ?? body.token) as string;
  const answer = () =>
    request.post(`${base}/api/auth/v1/segundo-fator/totp`, {
      data: { codigo: codeOf(account.email), lembrar: true },
      headers: { 'x-desafio-segundo-fator': step.desafio },
    });
  let proved = await answer();
  if (proved.status() === 400) {
    // This step's code was taken by an earlier sign-in: the next one's is new.
    await nextTotpStep();
    proved = await answer();
  }
  expect(proved.status(), await proved.text()).toBe(200);
  const { dado } = await proved.json();
  trustedDevices.set(key, dado.dispositivo);
  return dado.token as string;
}
