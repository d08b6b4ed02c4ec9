import type { SecondFactorDue, V1Login, V2Login } from '../services/identity/auth';
import { issueSimulatorToken, needsSimulatorToken } from '../services/identity/auth';
import { trustDevice } from '../services/identity/second-factor';
import { SECOND_FACTOR_COOKIES, SECOND_FACTOR_HEADERS, SECOND_FACTOR_PATH } from '../../lib/second-factor';
import { TOKEN_COOKIES } from '../../lib/session';
import type { DB } from '../db';
import { readCookies } from './cookies';
import type { Context } from './router';

/**
 * The second factor at the API's sign-in endpoints (decision 068). A browser (cookie mode) keeps the
 * challenge and its remembered-device secret in httpOnly cookies; a programmatic client gets them in
 * the answer and sends them back in headers.
 */

/** A secret of the step, from its header (an API client) or its cookie (the portal's browser client). */
export function stepSecret(request: Request, which: keyof typeof SECOND_FACTOR_COOKIES): string | undefined {
  return request.headers.get(SECOND_FACTOR_HEADERS[which]) ?? readCookies(request.headers.get('cookie'))[SECOND_FACTOR_COOKIES[which]];
}

/**
 * What a sign-in endpoint answers when the second factor is still due: where its page is, and, for an
 * API client, the challenge to send back in `x-desafio-segundo-fator`. No token of any session.
 */
export function secondFactorAnswer(ctx: Context, due: SecondFactorDue) {
  if (ctx.cookieMode) ctx.setCookie(SECOND_FACTOR_COOKIES.challenge, due.challenge.token, due.challenge.expiresAt);
  return {
    segundoFator: {
      etapa: due.challenge.purpose,
      endereco: SECOND_FACTOR_PATH[due.user.generation],
      expiraEm: due.challenge.expiresAt.toISOString(),
      ...(ctx.cookieMode ? {} : { desafio: due.challenge.token }),
    },
  };
}

export interface IssuedCookie {
  name: string;
  value: string;
  expires: Date;
}

/**
 * The cookies of a sign-in the second factor finished, as the login would have set them — the
 * session's, a partner's simulator token, and the remembered browser when asked — for the step page
 * and the step endpoint alike. `device` is the remembered browser's secret (an API client's to keep).
 */
export async function finishedSignInCookies(
  db: DB,
  login: V1Login | V2Login,
  generation: 'v1' | 'v2',
  remember: boolean,
  userAgent: string | null,
): Promise<{ cookies: IssuedCookie[]; device?: string }> {
  const cookies: IssuedCookie[] = [{ name: TOKEN_COOKIES[generation], value: login.session.token, expires: login.session.expiresAt }];
  if (generation === 'v2' && needsSimulatorToken(login.user)) {
    const simulator = ('simulator' in login && login.simulator) || (await issueSimulatorToken(db, login.user, login.session));
    cookies.push({ name: TOKEN_COOKIES.simulador, value: simulator.token, expires: simulator.expiresAt });
  }
  if (!remember) return { cookies };
  const device = await trustDevice(db, login.user.id, userAgent);
  cookies.push({ name: SECOND_FACTOR_COOKIES.device, value: device.token, expires: device.expiresAt });
  return { cookies, device: device.token };
}

/** The step endpoint's answer: the cookies for the portal's browser client, or the token (and device) for an API client. */
export async function answerFinishedSignIn(
  ctx: Context,
  db: DB,
  login: V1Login | V2Login,
  generation: 'v1' | 'v2',
  remember: boolean,
): Promise<{ token?: string; dispositivo?: string }> {
  const { cookies, device } = await finishedSignInCookies(db, login, generation, remember, ctx.request.headers.get('user-agent'));
  ctx.clearCookie(SECOND_FACTOR_COOKIES.challenge);
  if (!ctx.cookieMode) return { token: login.session.token, ...(device ? { dispositivo: device } : {}) };
  for (const cookie of cookies) ctx.setCookie(cookie.name, cookie.value, cookie.expires);
  return {};
}
