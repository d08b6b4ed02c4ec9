import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { DB } from '../../db';
import type { ChallengePurpose, Generation, User } from '../../db/schema';
import { hashToken, newToken } from '../../auth/tokens';
import { seal, unseal } from '../../auth/secret-box';
import { now } from '../../clock';
import { conflict, DomainError, invalid, notFound, unauthenticated } from '../../errors';
import {
  CHALLENGE_ATTEMPTS,
  CHALLENGE_MINUTES,
  RECOVERY_CODE_COUNT,
  recoveryCodeFrom,
  SECOND_FACTOR_MESSAGES,
  secondFactorRequired,
  TOTP_ISSUER,
  TRUSTED_DEVICE_DAYS,
} from '../../../lib/second-factor';
import { formatWait } from '../../../lib/format';
import {
  countAttempt,
  forgetAttempts,
  giveBackAttempt,
  isKnownSecondFactorPlace,
  RATE_RULES,
  rememberSecondFactorPlace,
  THROTTLES,
  throttle,
  throttleSucceeded,
} from './rate-limit';
import { principalFacts } from './principals';
import { appendAccessEvent } from './access-log';
import { publicUrl, sendEmail } from '../../mail/outbox';

/**
 * The second factor (issue 32, decision 068): after the password (or an SSO link) a user who has a
 * factor, or whom the policy requires to have one, gets a challenge instead of a session. The
 * challenge is no session — no route takes it — and only proving a factor turns it into one.
 *
 * TOTP codes are checked against the wall clock (Date.now), never the portal's business clock
 * (server/clock.ts may be shifted for the demo year): the authenticator app on the phone knows only
 * real time.
 */

export interface IssuedChallenge {
  token: string;
  expiresAt: Date;
  purpose: ChallengePurpose;
}

export interface OpenChallenge {
  id: number;
  user: User;
  generation: Generation;
  purpose: ChallengePurpose;
  via: 'LOGIN' | 'SSO';
  pendingTotpSecret: string | null;
  webauthnChallenge: string | null;
}

/**
 * What the sign-in must ask of this user now: the factor they have, or to enrol one — or nothing, for a
 * browser they had remembered (which stands for their factor) or a user with none and not required one.
 */
export async function secondFactorDue(db: DB, user: User, deviceToken?: string | null): Promise<ChallengePurpose | 'remembered' | null> {
  const factor = await db.selectFrom('user_factors').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst();
  if (factor) return deviceToken && (await isTrustedDevice(db, user.id, deviceToken)) ? 'remembered' : 'verificar';
  return (await requiredOf(db, user)) ? 'cadastrar' : null;
}

/** Does the policy require this user to have a second factor (a legacy user by groups, read through the facts cache)? */
async function requiredOf(db: DB, user: User): Promise<boolean> {
  const groups = user.generation === 'v1' ? (await principalFacts(db, user.id)).groups : [];
  return secondFactorRequired({ generation: user.generation, profile: user.profile, groups });
}

/** The user has an authenticator app: its code may prove who they are (the sign-in's step, a confirmation). */
export async function hasAuthenticatorApp(db: DB, userId: number): Promise<boolean> {
  const app = await db.selectFrom('user_factors').select('id').where('user_id', '=', userId).where('kind', '=', 'totp').executeTakeFirst();
  return Boolean(app);
}

export async function hasPasskey(db: DB, userId: number): Promise<boolean> {
  const passkey = await db
    .selectFrom('user_factors')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'passkey')
    .limit(1)
    .executeTakeFirst();
  return Boolean(passkey);
}

export async function openChallenge(db: DB, user: User, purpose: ChallengePurpose, via: 'LOGIN' | 'SSO'): Promise<IssuedChallenge> {
  const token = newToken();
  const expiresAt = new Date(now().getTime() + CHALLENGE_MINUTES * 60_000);
  await db
    .insertInto('sign_in_challenges')
    .values({ token_hash: hashToken(token), user_id: user.id, generation: user.generation, purpose, via, expires_at: expiresAt })
    .execute();
  // Old challenges are never read again; a sign-in now and then clears them.
  if (Math.random() < 0.02)
    await db
      .deleteFrom('sign_in_challenges')
      .where('expires_at', '<', new Date(now().getTime() - 86_400_000))
      .execute();
  return { token, expiresAt, purpose };
}

/** The challenge behind a token while it may still be answered: unexpired, unfinished, with attempts left. */
export async function challengeOf(db: DB, token: string | null | undefined): Promise<OpenChallenge | undefined> {
  if (!token) return undefined;
  const row = await db
    .selectFrom('sign_in_challenges as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('u')
    .select([
      'c.id as challenge_id',
      'c.generation as challenge_generation',
      'c.purpose',
      'c.via',
      'c.pending_totp_secret',
      'c.webauthn_challenge',
    ])
    .where('c.token_hash', '=', hashToken(token))
    .where('c.completed_at', 'is', null)
    .where('c.expires_at', '>', now())
    .where('c.attempts', '<', CHALLENGE_ATTEMPTS)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    challenge_id: id,
    challenge_generation: generation,
    purpose,
    via,
    pending_totp_secret: pendingTotpSecret,
    webauthn_challenge: webauthnChallenge,
    ...user
  } = row;
  // A user deactivated or blocked meanwhile finishes nothing.
  if (user.status !== 'ATIVO') return undefined;
  return { id, user, generation, purpose, via, pendingTotpSecret, webauthnChallenge };
}

/** The challenge, or the pt-BR refusal that sends the person back to the password. */
export async function requireChallenge(db: DB, token: string | null | undefined): Promise<OpenChallenge> {
  const challenge = await challengeOf(db, token);
  if (!challenge) throw unauthenticated(SECOND_FACTOR_MESSAGES.challengeGone);
  return challenge;
}

/** The enrolment of an authenticator app: a new secret kept (sealed) on the challenge until confirmed. */
export async function totpEnrolment(db: DB, challenge: OpenChallenge): Promise<{ secret: string; uri: string }> {
  let secret = challenge.pendingTotpSecret ? unseal(challenge.pendingTotpSecret) : undefined;
  if (!secret) {
    secret = generateSecret({ length: 20 });
    await db
      .updateTable('sign_in_challenges')
      .set({ pending_totp_secret: seal(secret) })
      .where('id', '=', challenge.id)
      .execute();
    challenge.pendingTotpSecret = seal(secret);
  }
  return { secret, uri: totpUri(challenge.user.email, secret) };
}

export const totpUri = (email: string, secret: string) => generateURI({ issuer: TOTP_ISSUER, label: email, secret });

/** An answer counted before its check (countAnswer): where it came from, and the account's attempts away from the owner's places. */
export interface CountedAnswer {
  ip: string;
  /** Attempts on the account's throttle this one made (0 at a place where the owner proved the factor before). */
  accountAttempts: number;
}

const answersThrottled = (seconds: number) => `Muitas tentativas com código errado nesta conta. Tente de novo em ${formatWait(seconds)}.`;

/**
 * Counted before any check, like a password (decisions 027, 073): the address's own budget for this
 * account (a hard limit), the address across accounts, and — except where the owner proved the factor
 * before — the account from anywhere (growing delays, never a lock). A right answer never waits on
 * someone else's wrong ones at the owner's own places; elsewhere it waits at most the time it is told.
 */
export async function countAnswer(db: DB, user: User, ip: string): Promise<CountedAnswer> {
  const pair = `${user.id}|${ip}`;
  await countAttempt(db, [[RATE_RULES.secondFactorPerAccountAndAddress, pair]]);
  try {
    await throttle(db, THROTTLES.secondFactorPerAddress, ip);
    const known = await isKnownSecondFactorPlace(db, user.email, ip);
    const accountAttempts = known ? 0 : await throttle(db, THROTTLES.secondFactorPerAccount, String(user.id), answersThrottled);
    return { ip, accountAttempts };
  } catch (error) {
    // Refused before anything was checked: it costs the address nothing of its own budget.
    if (error instanceof DomainError && error.kind === 'too-many')
      await giveBackAttempt(db, RATE_RULES.secondFactorPerAccountAndAddress, pair);
    throw error;
  }
}

/**
 * A wrong answer, logged with its address. The first that had to wait for the account's throttle
 * tells the owner (once a day at most: the throttle forgets after a quiet day) that someone holds the
 * password.
 */
export async function logWrongAnswer(db: DB, user: User, generation: Generation, counted: CountedAnswer, detalhe?: string): Promise<void> {
  await appendAccessEvent(db, { event: 'SEGUNDO_FATOR_FALHOU', generation, email: user.email, userId: user.id, ip: counted.ip, detalhe });
  if (counted.accountAttempts === THROTTLES.secondFactorPerAccount.free + 1)
    await sendEmail(db, user.email, 'segundo-fator-tentativas', {
      nome: user.nome,
      link: publicUrl(FORGOT_PASSWORD_PAGE[user.generation]),
    });
}

const FORGOT_PASSWORD_PAGE = { v1: '/esqueci-senha', v2: '/v2/esqueci-senha' } as const satisfies Record<Generation, string>;

/** A right answer is the owner's: the address's budget comes back, one attempt of the throttles, and the place is theirs. */
export async function rightAnswer(db: DB, user: User, ip: string): Promise<void> {
  await forgetAttempts(db, RATE_RULES.secondFactorPerAccountAndAddress, `${user.id}|${ip}`);
  await throttleSucceeded(db, [
    [THROTTLES.secondFactorPerAccount, String(user.id)],
    [THROTTLES.secondFactorPerAddress, ip],
  ]);
  await rememberSecondFactorPlace(db, user.email, ip);
}

/**
 * A wrong answer at sign-in costs an attempt of the challenge (five and it ends) besides what
 * countAnswer counted.
 */
export async function countWrongAnswer(db: DB, challenge: OpenChallenge, message: string, counted: CountedAnswer): Promise<never> {
  const { attempts } = await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', challenge.id)
    .returning('attempts')
    .executeTakeFirstOrThrow();
  await logWrongAnswer(db, challenge.user, challenge.generation, counted);
  if (attempts >= CHALLENGE_ATTEMPTS) throw unauthenticated(SECOND_FACTOR_MESSAGES.tooManyAttempts);
  throw invalid(message, { codigo: [message] });
}

/** The time step a code matches, at most one step away, after the last one accepted. */
export async function matchingStep(secret: string, code: string, afterTimeStep: number | null): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(Date.now() / 1000),
    epochTolerance: 30,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/**
 * A code from the authenticator app. Enrolling, it confirms the app and becomes the user's factor;
 * answers the recovery codes then (shown once). Verifying, the code's time step must be later than the
 * last one accepted — written with a conditional UPDATE, so the same code twice (or two requests
 * racing with it) signs in once.
 */
export async function proveTotp(db: DB, challenge: OpenChallenge, code: string, ip: string): Promise<{ recoveryCodes?: string[] }> {
  const counted = await countAnswer(db, challenge.user, ip);
  if (challenge.purpose === 'cadastrar') {
    if (!challenge.pendingTotpSecret) throw invalid(SECOND_FACTOR_MESSAGES.challengeGone);
    const step = await matchingStep(unseal(challenge.pendingTotpSecret), code, null);
    if (step === undefined) return countWrongAnswer(db, challenge, SECOND_FACTOR_MESSAGES.wrongCode, counted);
    const recoveryCodes = await db.transaction().execute(async (trx) => {
      await saveTotpFactor(trx, challenge.user.id, challenge.pendingTotpSecret!, step);
      return replaceRecoveryCodes(trx, challenge.user.id);
    });
    await rightAnswer(db, challenge.user, ip);
    await logFactorEvent(db, 'SEGUNDO_FATOR_CADASTRADO', challenge.user, challenge.generation, ip);
    return { recoveryCodes };
  }
  if (!(await takeTotpCode(db, challenge.user.id, code))) return countWrongAnswer(db, challenge, SECOND_FACTOR_MESSAGES.wrongCode, counted);
  await rightAnswer(db, challenge.user, ip);
  return {};
}

/**
 * A code of the user's app, taken once: its time step must be later than the last one accepted,
 * written with a conditional UPDATE, so the same code twice (or two requests racing with it) counts once.
 */
export async function takeTotpCode(db: DB, userId: number, code: string): Promise<boolean> {
  const factor = await db
    .selectFrom('user_factors')
    .select(['id', 'totp_secret', 'totp_last_step'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'totp')
    .executeTakeFirst();
  const step = factor?.totp_secret ? await matchingStep(unseal(factor.totp_secret), code, factor.totp_last_step) : undefined;
  if (!factor || step === undefined) return false;
  const taken = await db
    .updateTable('user_factors')
    .set({ totp_last_step: step, last_used_at: now() })
    .where('id', '=', factor.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/**
 * The user's authenticator app, confirmed at `step` (enrolling again replaces it): `sealed` is its
 * secret, sealed. A new app is a new factor: the browsers remembered under the old one ask again.
 */
async function saveTotpFactor(trx: DB, userId: number, sealed: string, step: number): Promise<void> {
  await forgetRememberedBrowsers(trx, userId);
  await trx.deleteFrom('user_factors').where('user_id', '=', userId).where('kind', '=', 'totp').execute();
  await trx
    .insertInto('user_factors')
    .values({
      user_id: userId,
      kind: 'totp',
      label: 'Aplicativo autenticador',
      totp_secret: sealed,
      totp_last_step: step,
      last_used_at: now(),
    })
    .execute();
}

/**
 * Every browser the user remembered asks for the second factor again; answers how many there were.
 * A new password, a forced one, a new app and a reset all call it (issue 42).
 */
export async function forgetRememberedBrowsers(db: DB, userId: number): Promise<number> {
  const revoked = await db
    .updateTable('trusted_devices')
    .set({ revoked_at: now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(revoked.numUpdatedRows);
}

/** A recovery code, good once (a conditional UPDATE): for the day the phone is lost. */
export async function proveRecoveryCode(db: DB, challenge: OpenChallenge, code: string, ip: string): Promise<void> {
  if (challenge.purpose !== 'verificar') throw invalid(SECOND_FACTOR_MESSAGES.enrolFirst);
  const counted = await countAnswer(db, challenge.user, ip);
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: now() })
    .where('user_id', '=', challenge.user.id)
    .where('code_hash', '=', hashToken(code))
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) return countWrongAnswer(db, challenge, SECOND_FACTOR_MESSAGES.wrongRecovery, counted);
  await rightAnswer(db, challenge.user, ip);
  await logFactorEvent(db, 'CODIGO_RECUPERACAO_USADO', challenge.user, challenge.generation, ip);
}

/** Ten new recovery codes (the old ones stop working): answered once, stored as hashes. */
export async function replaceRecoveryCodes(db: DB, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCodeFrom(randomBytes(12)));
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashToken(code) })))
    .execute();
  return codes;
}

/**
 * Ends the challenge once (a conditional UPDATE): of two requests that proved the same challenge,
 * one gets the session.
 */
export async function completeChallenge(db: DB, challenge: OpenChallenge): Promise<void> {
  const done = await db
    .updateTable('sign_in_challenges')
    .set({ completed_at: now() })
    .where('id', '=', challenge.id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) throw unauthenticated(SECOND_FACTOR_MESSAGES.challengeGone);
}

/** "Lembrar este dispositivo": a secret for this browser that stands for the second factor for 30 days. */
export async function trustDevice(db: DB, userId: number, userAgent: string | null): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now().getTime() + TRUSTED_DEVICE_DAYS * 86_400_000);
  await db
    .insertInto('trusted_devices')
    .values({ user_id: userId, token_hash: hashToken(token), user_agent: userAgent?.slice(0, 300) ?? null, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

async function isTrustedDevice(db: DB, userId: number, token: string): Promise<boolean> {
  const used = await db
    .updateTable('trusted_devices')
    .set({ last_used_at: now() })
    .where('token_hash', '=', hashToken(token))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now())
    .returning('id')
    .executeTakeFirst();
  return Boolean(used);
}

type FactorEvent =
  | 'SEGUNDO_FATOR_CADASTRADO'
  | 'CODIGO_RECUPERACAO_USADO'
  | 'SEGUNDO_FATOR_REDEFINIDO'
  | 'SEGUNDO_FATOR_REMOVIDO'
  | 'CODIGOS_RECUPERACAO_GERADOS'
  | 'DISPOSITIVOS_ESQUECIDOS';

async function logFactorEvent(
  db: DB,
  event: FactorEvent,
  user: User,
  generation: Generation,
  ip: string | null,
  actorId?: number,
  detalhe?: string,
) {
  await appendAccessEvent(db, { event, generation, email: user.email, userId: user.id, actorId: actorId ?? null, ip, detalhe });
}

/* The signed-in user's own second factor (the profile's security page). */

export interface SecurityOverview {
  /** The policy requires one: the last factor cannot be removed. */
  required: boolean;
  totp: { since: Date } | null;
  passkeys: { id: number; nome: string; criadaEm: Date; usadaEm: Date | null }[];
  recoveryCodesLeft: number;
  rememberedDevices: number;
}

export async function securityOverview(db: DB, user: User): Promise<SecurityOverview> {
  const [factors, codes, devices, required] = await Promise.all([
    db
      .selectFrom('user_factors')
      .select(['id', 'kind', 'label', 'created_at', 'last_used_at'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('trusted_devices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now())
      .executeTakeFirstOrThrow(),
    requiredOf(db, user),
  ]);
  const totp = factors.find((f) => f.kind === 'totp');
  return {
    required,
    totp: totp ? { since: totp.created_at } : null,
    passkeys: factors
      .filter((f) => f.kind === 'passkey')
      .map((f) => ({ id: f.id, nome: f.label, criadaEm: f.created_at, usadaEm: f.last_used_at })),
    recoveryCodesLeft: Number(codes.n),
    rememberedDevices: Number(devices.n),
  };
}

// A signed-in enrolment's secret travels sealed with its user and deadline, between the page that shows
// the QR code and the form that confirms it: nothing half-enrolled is stored.
const ENROLMENT_MINUTES = 15;

export function startTotpEnrolment(user: User): { secret: string; uri: string; state: string } {
  const secret = generateSecret({ length: 20 });
  return {
    secret,
    uri: totpUri(user.email, secret),
    state: seal(JSON.stringify({ userId: user.id, secret, until: Date.now() + ENROLMENT_MINUTES * 60_000 })),
  };
}

/** The enrolment's secret again (the form shown once more after a wrong code), or undefined when it is not this user's or too old. */
export function enrolmentSecretOf(user: User, state: string): string | undefined {
  try {
    const parsed = JSON.parse(unseal(state)) as { userId: number; secret: string; until: number };
    return parsed.userId === user.id && parsed.until > Date.now() ? parsed.secret : undefined;
  } catch {
    return undefined;
  }
}

/** Confirms the app with its first code; answers new recovery codes when the user had none left. */
export async function confirmTotpEnrolment(
  db: DB,
  user: User,
  state: string,
  code: string,
  ip: string,
): Promise<{ recoveryCodes?: string[] }> {
  // The person holds the new secret: a wrong code is a typo, counted only against this address.
  await countAttempt(db, [[RATE_RULES.secondFactorPerAccountAndAddress, `${user.id}|${ip}`]]);
  const secret = enrolmentSecretOf(user, state);
  if (!secret) throw invalid(SECOND_FACTOR_MESSAGES.enrolmentExpired);
  const step = await matchingStep(secret, code, null);
  if (step === undefined) throw invalid(SECOND_FACTOR_MESSAGES.wrongCode, { codigo: [SECOND_FACTOR_MESSAGES.wrongCode] });
  const recoveryCodes = await db.transaction().execute(async (trx) => {
    await saveTotpFactor(trx, user.id, seal(secret), step);
    const left = await trx
      .selectFrom('recovery_codes')
      .select('id')
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return left ? undefined : replaceRecoveryCodes(trx, user.id);
  });
  await logFactorEvent(db, 'SEGUNDO_FATOR_CADASTRADO', user, user.generation, ip);
  return { recoveryCodes };
}

/**
 * Removes a factor of the user's own (the app, or one passkey). Whoever the policy requires keeps at
 * least one; the last factor of anyone else takes the recovery codes and remembered browsers with it.
 */
export async function removeFactor(
  db: DB,
  user: User,
  which: { kind: 'totp' } | { kind: 'passkey'; id: number },
  ip: string,
): Promise<void> {
  const factors = await db.selectFrom('user_factors').select(['id', 'kind', 'label']).where('user_id', '=', user.id).execute();
  const target = factors.find((f) => f.kind === which.kind && (which.kind === 'totp' || f.id === which.id));
  if (!target) throw notFound(which.kind === 'totp' ? 'Nenhum aplicativo autenticador configurado.' : 'Chave de acesso não encontrada.');
  if (factors.length === 1 && (await requiredOf(db, user))) throw conflict(SECOND_FACTOR_MESSAGES.lastFactorRequired);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_factors').where('id', '=', target.id).execute();
    if (factors.length === 1) {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
      await forgetRememberedBrowsers(trx, user.id);
    }
  });
  await logFactorEvent(db, 'SEGUNDO_FATOR_REMOVIDO', user, user.generation, ip, undefined, target.label);
}

/** New recovery codes for a user who has a factor (the old ones stop working); shown once. */
export async function regenerateRecoveryCodes(db: DB, user: User, ip: string): Promise<string[]> {
  const factor = await db.selectFrom('user_factors').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst();
  if (!factor) throw conflict('Configure a verificação em duas etapas antes de gerar códigos de recuperação.');
  const codes = await db.transaction().execute((trx) => replaceRecoveryCodes(trx, user.id));
  await logFactorEvent(db, 'CODIGOS_RECUPERACAO_GERADOS', user, user.generation, ip);
  return codes;
}

/** Every browser the user had remembered asks for the second factor again at its next sign-in. */
export async function forgetDevices(db: DB, user: User, ip: string): Promise<number> {
  const forgotten = await forgetRememberedBrowsers(db, user.id);
  await logFactorEvent(db, 'DISPOSITIVOS_ESQUECIDOS', user, user.generation, ip);
  return forgotten;
}

/**
 * An administrator resets another user's second factor (a lost phone and lost codes): factors,
 * recovery codes and remembered browsers go; the user enrols again at the next sign-in if the policy
 * requires it. Logged with who did it.
 */
export async function resetSecondFactor(db: DB, target: User, actorId: number, ip: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_factors').where('user_id', '=', target.id).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', target.id).execute();
    await forgetRememberedBrowsers(trx, target.id);
  });
  await logFactorEvent(db, 'SEGUNDO_FATOR_REDEFINIDO', target, target.generation, ip, actorId);
}
