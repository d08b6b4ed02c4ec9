import type { AstroGlobal } from 'astro';
import { safeParse } from 'zod/v4/core';
import { database } from '../../server/boot/database';
import { qrSvg } from '../../server/qr';
import { browserTokens, readCookies, sessionCookieOptions } from '../../server/api/cookies';
import { finishSecondFactor } from '../../server/services/identity/auth';
import { finishedSignInCookies } from '../../server/api/second-factor';
import {
  challengeOf,
  hasPasskey,
  proveRecoveryCode,
  proveTotp,
  totpEnrolment,
  type OpenChallenge,
} from '../../server/services/identity/second-factor';
import { HOME_PATH, LOGIN_PATH, safeNextPath } from '../../lib/paths';
import {
  formatRecoveryCode,
  recoveryStepSchema,
  SECOND_FACTOR_COOKIES,
  SECOND_FACTOR_MESSAGES,
  totpStepSchema,
} from '../../lib/second-factor';
import { readForm, refusalOf } from '../controller.server';

/*
 * The second step of sign-in (issue 32, decision 068), after the password or an SSO link: a code from
 * the authenticator app or a recovery code — or, for an account the policy requires and that has
 * none yet, the enrolment of an app (QR code, then its first code, then the recovery codes shown
 * once). Plain forms: it works before any script runs and without one.
 */

export type StepMode = 'totp' | 'recuperacao';

export type SecondFactorView =
  | { kind: 'gone'; loginPath: string; message: string }
  | { kind: 'verify'; mode: StepMode; error?: string; next: string; passkeys: boolean }
  | { kind: 'enrol'; secret: string; qr: string; error?: string; next: string }
  | { kind: 'recovery-codes'; codes: string[]; next: string };

const MODES: readonly StepMode[] = ['totp', 'recuperacao'];

/** What the step page shows, or the redirect home once it is done. */
export async function secondFactorPage(generation: 'v1' | 'v2', astro: AstroGlobal): Promise<Response | SecondFactorView> {
  const db = await database();
  const next = safeNextPath(astro.url.searchParams.get('next'), HOME_PATH[generation]);
  const challenge = await challengeOf(db, readCookies(astro.request.headers.get('cookie'))[SECOND_FACTOR_COOKIES.challenge]);
  // A challenge of the other generation is no challenge here: its own login page finishes it.
  if (!challenge || challenge.generation !== generation) return gone(generation, astro);
  const asked = astro.url.searchParams.get('modo');
  const mode: StepMode = MODES.includes(asked as StepMode) ? (asked as StepMode) : 'totp';
  if (astro.request.method !== 'POST') return viewOf(challenge, mode, next);

  const form = await readForm(astro.request);
  const postedMode: StepMode = form.get('modo') === 'recuperacao' ? 'recuperacao' : 'totp';
  const values = { codigo: String(form.get('codigo') ?? ''), lembrar: form.get('lembrar') === 'on' };
  const parsed = safeParse(postedMode === 'recuperacao' ? recoveryStepSchema : totpStepSchema, values);
  if (!parsed.success) {
    astro.response.status = 400;
    return viewOf(challenge, postedMode, next, parsed.error.issues[0]?.message);
  }
  try {
    let recoveryCodes: string[] | undefined;
    const { ip } = astro.locals.client;
    if (postedMode === 'recuperacao') await proveRecoveryCode(db, challenge, parsed.data.codigo, ip);
    else recoveryCodes = (await proveTotp(db, challenge, parsed.data.codigo, ip)).recoveryCodes;
    await signIn(astro, challenge, parsed.data.lembrar === true);
    if (recoveryCodes) return { kind: 'recovery-codes', codes: recoveryCodes.map(formatRecoveryCode), next };
    return astro.redirect(next, 303);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    astro.response.status = refusal.status;
    for (const [name, value] of Object.entries(refusal.headers ?? {})) astro.response.headers.set(name, value);
    // The challenge ended (too many attempts, expired): back to the password.
    if (refusal.status === 401) return gone(generation, astro, refusal.message);
    return viewOf(challenge, postedMode, next, refusal.message);
  }
}

async function viewOf(challenge: OpenChallenge, mode: StepMode, next: string, error?: string): Promise<SecondFactorView> {
  if (challenge.purpose === 'verificar')
    return { kind: 'verify', mode, error, next, passkeys: await hasPasskey(await database(), challenge.user.id) };
  const { secret, uri } = await totpEnrolment(await database(), challenge);
  return { kind: 'enrol', secret, qr: await qrSvg(uri, 'QR code para o aplicativo autenticador'), error, next };
}

function gone(generation: 'v1' | 'v2', astro: AstroGlobal, message: string = SECOND_FACTOR_MESSAGES.challengeGone): SecondFactorView {
  astro.cookies.delete(SECOND_FACTOR_COOKIES.challenge, sessionCookieOptions(astro.locals.client.https));
  return { kind: 'gone', loginPath: LOGIN_PATH[generation], message };
}

/** The session the challenge was waiting for, in this browser's cookies; the browser remembered if asked. */
async function signIn(astro: AstroGlobal, challenge: OpenChallenge, remember: boolean): Promise<void> {
  const db = await database();
  const { generation } = challenge;
  const replacing = browserTokens(astro.request, generation === 'v1' ? ['v1'] : ['v2', 'simulador']);
  const userAgent = astro.request.headers.get('user-agent');
  const login = await finishSecondFactor(db, challenge, astro.locals.client.ip, { replacing, userAgent });
  const { cookies } = await finishedSignInCookies(db, login, generation, remember, userAgent);
  const options = sessionCookieOptions(astro.locals.client.https);
  astro.cookies.delete(SECOND_FACTOR_COOKIES.challenge, options);
  for (const cookie of cookies) astro.cookies.set(cookie.name, cookie.value, { ...options, expires: cookie.expires });
}
