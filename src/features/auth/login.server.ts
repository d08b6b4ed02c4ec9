import type { AstroGlobal } from 'astro';
import { safeParse } from 'zod/v4/core';
import { database } from '../../server/boot/database';
import { config } from '../../server/config';
import { refusalOf } from '../controller.server';
import { browserTokens, readCookies, sessionCookieOptions } from '../../server/api/cookies';
import { issueSimulatorToken, loginV1, loginV2, needsSimulatorToken, type SecondFactorDue } from '../../server/services/identity/auth';
import { SECOND_FACTOR_COOKIES, SECOND_FACTOR_PATH } from '../../lib/second-factor';
import { loginFormSchema } from '../../lib/auth-schemas';
import { stripProviderDomain } from '../../lib/admin-login';
import { HOME_PATH, safeNextPath } from '../../lib/paths';
import { TOKEN_COOKIES } from '../../lib/session';
import { loginErrorPlacement } from './login-errors';

/*
 * The sign-in screens' own POST (issue 27): the form is a plain `method="post"` form, and its island
 * only takes it over once its script has run. Submitted before that — or with JavaScript off — the
 * page signs in as the API would (the same services, the same limits and access log, the same
 * cookies) and goes home, or shows the form again with SPEC §5's and §8's messages.
 */

export type LoginErrors = Partial<Record<'email' | 'senha', string>>;

export interface LoginFormState {
  /** The e-mail as typed, to show it again (never the password). */
  email?: string;
  errors?: LoginErrors;
  /** A message above the form (a failure that names no field). */
  banner?: string;
}

export type LoginPost =
  | { kind: 'signed-in' | 'second-factor'; to: string; cookies: { name: string; value: string; expires: Date }[] }
  | { kind: 'refused'; status: number; state: LoginFormState; headers?: Record<string, string> };

const text = (value: FormDataEntryValue | null) => (typeof value === 'string' ? value : '');

async function formOf(request: Request): Promise<{ email: string; senha: string }> {
  try {
    const form = await request.formData();
    return { email: text(form.get('email')), senha: text(form.get('senha')) };
  } catch {
    return { email: '', senha: '' };
  }
}

/** A sign-in form posted to /signin, /login or /v2/login. */
export async function loginPost(generation: 'v1' | 'v2', request: Request, next: string | null, ip: string): Promise<LoginPost> {
  const values = await formOf(request);
  const email = values.email.slice(0, 254);
  const parsed = safeParse(loginFormSchema, values);
  if (!parsed.success) {
    const errors: LoginErrors = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as keyof LoginErrors] ??= issue.message;
    return { kind: 'refused', status: 400, state: { email, errors } };
  }
  const db = await database();
  try {
    const cookies: { name: string; value: string; expires: Date }[] = [];
    const device = readCookies(request.headers.get('cookie'))[SECOND_FACTOR_COOKIES.device];
    const userAgent = request.headers.get('user-agent');
    const to = safeNextPath(next, HOME_PATH[generation]);
    // The password was right and a second factor is due: its step, with the challenge in a cookie (decision 068).
    const secondStep = (due: SecondFactorDue): LoginPost => ({
      kind: 'second-factor',
      to: `${SECOND_FACTOR_PATH[generation]}?next=${encodeURIComponent(to)}`,
      cookies: [{ name: SECOND_FACTOR_COOKIES.challenge, value: due.challenge.token, expires: due.challenge.expiresAt }],
    });
    if (generation === 'v1') {
      const login = await loginV1(db, parsed.data.email, parsed.data.senha, ip, {
        replacing: browserTokens(request, ['v1']),
        device,
        userAgent,
      });
      if (login.kind === 'second-factor') return secondStep(login);
      cookies.push({ name: TOKEN_COOKIES.v1, value: login.session.token, expires: login.session.expiresAt });
    } else {
      // As the screen's script does: the provider's admins sign in with their user name (SPEC §6).
      const userName = stripProviderDomain(parsed.data.email, config().PROVIDER_EMAIL_DOMAIN);
      const login = await loginV2(db, userName, parsed.data.senha, ip, {
        replacing: browserTokens(request, ['v2', 'simulador']),
        device,
        userAgent,
      });
      if (login.kind === 'second-factor') return secondStep(login);
      cookies.push({ name: TOKEN_COOKIES.v2, value: login.session.token, expires: login.session.expiresAt });
      // A partner's session is fully authenticated at once (SPEC §4), as the gateway does for the island.
      if (needsSimulatorToken(login.user)) {
        const simulator = await issueSimulatorToken(db, login.user, login.session);
        cookies.push({ name: TOKEN_COOKIES.simulador, value: simulator.token, expires: simulator.expiresAt });
      }
    }
    return { kind: 'signed-in', to, cookies };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const placement = loginErrorPlacement(refusal.status, refusal.message);
    const state: LoginFormState = placement.field
      ? { email, errors: { [placement.field]: placement.message } }
      : { email, banner: placement.message };
    return { kind: 'refused', status: refusal.status, state, headers: refusal.headers };
  }
}

/**
 * What a login page answers to a POST: the redirect home with the session cookies, or the form's
 * state to render again (with its status). A GET: nothing to do.
 */
export async function loginPage(generation: 'v1' | 'v2', astro: AstroGlobal): Promise<Response | LoginFormState | undefined> {
  if (astro.request.method !== 'POST') return undefined;
  const answer = await loginPost(generation, astro.request, astro.url.searchParams.get('next'), astro.locals.client.ip);
  if (answer.kind !== 'refused') {
    for (const cookie of answer.cookies)
      astro.cookies.set(cookie.name, cookie.value, { ...sessionCookieOptions(astro.locals.client.https), expires: cookie.expires });
    return astro.redirect(answer.to, 303);
  }
  astro.response.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers ?? {})) astro.response.headers.set(name, value);
  return answer.state;
}
