import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation, User } from '../../db/schema';
import { config } from '../../config';
import { DomainError, unauthenticated, forbidden, notFound } from '../../errors';
import { verifyPassword } from '../../auth/passwords';
import { normalizeEmail } from '../../../lib/validators';
import { PROFILES_WITH_SIMULATOR_TOKEN } from '../../../lib/permissions';
import { formatDateTime } from '../../../lib/format';
import { TOKEN_MESSAGES } from '../../../lib/session';
import { now } from '../../clock';
import {
  countAttempt,
  forgetAttempts,
  giveBackAttempt,
  isKnownPlace,
  pruneLimits,
  RATE_RULES,
  rememberPlace,
  rememberSecondFactorPlace,
  THROTTLES,
  throttle,
  throttleSucceeded,
} from './rate-limit';
import { createSession, revokeTokens, type IssuedSession } from './sessions';
import { consumeCode, issueCode } from './codes';
import { findUserByEmail, profileOf } from './principals';
import { appendAccessEvent } from './access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import { companiesLetUserIn } from './company-status';
import { SIGN_IN_SUSPENDED } from '../../../lib/partners';
import { completeChallenge, openChallenge, secondFactorDue, type IssuedChallenge, type OpenChallenge } from './second-factor';

/** Sign-in of both generations, the simulator token and single sign-on (SPEC §4, §7, §8). */

/** A user created by their company who has not chosen a password yet: where to finish the first access. */
const PENDING_FIRST_ACCESS =
  'Seu primeiro acesso ainda não foi concluído. Use o código enviado por e-mail (ou peça outro em "Reenviar código de validação - 1º acesso") para cadastrar sua senha.';

const OTHER_LOGIN: Record<Generation, string> = {
  v1: 'Este usuário acessa pelo login do novo portal.',
  v2: 'Este usuário acessa pelo login do portal legado.',
};

/** A sign-in, sign-out or password event of a user (or of an e-mail typed at a refused sign-in). */
export async function logAccess(
  db: DB,
  event: AccessEventCode,
  generation: Generation,
  email: string,
  userId: number | null,
  ip: string | null,
) {
  await appendAccessEvent(db, { event, generation, email, userId, ip });
}

/**
 * Checks e-mail and password for a generation. Unknown user → 404 (SPEC §8 marks the e-mail field);
 * first access pending → 403 saying so; wrong password → 401 (docs/decisions/027-sign-in-limits.md):
 * - before any hash the attempt is counted for the account from this address (a hard limit);
 * - it then takes its slot in the throttle of the address and, unless the account signed in from this
 *   address before, in the throttle of the account (a growing delay, never a lock);
 * - an attempt refused there, or by a full hashing line, checked nothing: it gives its count back;
 * - a success gives back its own attempt everywhere and remembers the place.
 * Every path hashes once, so timing tells nothing.
 */
async function checkCredentials(db: DB, generation: Generation, email: string, password: string, ip: string): Promise<User> {
  const pair = `${email}|${ip}`;
  await countAttempt(db, [[RATE_RULES.loginPerAccountAndAddress, pair]]);
  if (Math.random() < 0.01) await pruneLimits(db);
  let found: User | undefined;
  let user: User | undefined; // found, in this generation
  let valid: boolean;
  try {
    await throttle(db, THROTTLES.loginPerAddress, ip);
    if (!(await isKnownPlace(db, email, ip))) await throttle(db, THROTTLES.loginPerAccount, email);
    found = await findUserByEmail(db, email);
    user = found?.generation === generation ? found : undefined;
    valid = await verifyPassword(password, user?.password_hash ?? null);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'too-many') await giveBackAttempt(db, RATE_RULES.loginPerAccountAndAddress, pair);
    throw error;
  }
  const fail = async (error: DomainError) => {
    await logAccess(db, 'LOGIN_FALHOU', generation, email, found?.id ?? null, ip);
    return error;
  };
  if (!found) throw await fail(notFound('Usuário não encontrado'));
  if (!user) throw await fail(notFound(`Usuário não encontrado. ${OTHER_LOGIN[generation]}`));
  if (user.status === 'PENDENTE') throw await fail(forbidden(PENDING_FIRST_ACCESS));
  if (!valid) throw await fail(unauthenticated('Usuário ou senha inválidos'));
  await forgetAttempts(db, RATE_RULES.loginPerAccountAndAddress, pair);
  // Only this attempt is given back: the owner's success must not hand a guesser free attempts.
  await throttleSucceeded(db, [
    [THROTTLES.loginPerAccount, email],
    [THROTTLES.loginPerAddress, ip],
  ]);
  await rememberPlace(db, email, ip);
  // Inactivity is told only to whoever knows the password.
  if (user.status === 'INATIVO') throw forbidden('Usuário inativo. Procure o administrador da sua empresa.');
  if (user.status === 'BLOQUEADO') throw forbidden('Usuário bloqueado. Procure o administrador da sua empresa.');
  await assertCompaniesLetIn(db, user);
  return user;
}

/** A user whose every company is suspended (or under a suspended partner) stays out (decision 052). */
async function assertCompaniesLetIn(db: DB, user: User): Promise<void> {
  if (!(await companiesLetUserIn(db, user.id))) throw forbidden(SIGN_IN_SUSPENDED);
}

/** A sign-in: with the password (LOGIN) or with a single sign-on session (SSO), one row either way. */
async function recordLogin(db: DB, user: User, generation: Generation, ip: string, event: 'LOGIN' | 'SSO' = 'LOGIN') {
  await db.updateTable('users').set({ previous_access_at: sql`last_access_at`, last_access_at: now() }).where('id', '=', user.id).execute();
  await logAccess(db, event, generation, user.email, user.id, ip);
}

/**
 * Sign-out (SPEC §4): ends every session behind the browser's tokens and logs a LOGOUT for each
 * generation's session it ended (a simulator token ends with its v2 session and is not one more).
 */
export async function signOut(db: DB, tokens: readonly (string | null | undefined)[], ip: string): Promise<void> {
  const ended = (await revokeTokens(db, tokens)).filter((s) => s.kind !== 'simulador');
  if (ended.length === 0) return;
  const users = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where(
      'id',
      'in',
      ended.map((s) => s.userId),
    )
    .execute();
  for (const session of ended) {
    const user = users.find((u) => u.id === session.userId);
    if (user) await logAccess(db, 'LOGOUT', session.kind as Generation, user.email, user.id, ip);
  }
}

export interface V1Login {
  kind: 'signed-in';
  session: IssuedSession;
  user: User;
  /** The access before this one (what the drawer shows as "último acesso"). */
  dataUltimoAcessoFormatada: string;
}

/**
 * The password was right, and the second factor is still to come (decision 068): no session yet, a
 * challenge that only the second-factor step takes.
 */
export interface SecondFactorDue {
  kind: 'second-factor';
  user: User;
  challenge: IssuedChallenge;
}

/** What a sign-in may carry besides the password: the sessions it replaces, a remembered browser. */
export interface SignInOptions {
  /** The tokens of the sessions this browser held, which the new session replaces — revoked, not left valid behind the new cookie. */
  replacing?: readonly (string | null | undefined)[];
  /** The trusted-device secret of this browser ("lembrar este dispositivo"). */
  device?: string | null;
  /** The browser's User-Agent, kept with the session so its person recognises it (migration 044). */
  userAgent?: string | null;
}

/** `secondFactor`: this sign-in proved one (a code, a recovery code, a passkey or a remembered browser). */
async function v1Session(
  db: DB,
  user: User,
  ip: string,
  secondFactor: boolean,
  { replacing = [], userAgent = null }: SignInOptions = {},
): Promise<V1Login> {
  await revokeTokens(db, replacing);
  const session = await createSession(db, user.id, 'v1', undefined, { secondFactor, origin: { ip, userAgent } });
  await recordLogin(db, user, 'v1', ip);
  return { kind: 'signed-in', session, user, dataUltimoAcessoFormatada: formatDateTime(user.last_access_at ?? now()) };
}

/**
 * The second factor this sign-in still owes, as a challenge — or none: then `proved` says whether a
 * remembered browser stood for it (the session is marked so), or none was asked.
 */
async function secondFactorChallenge(
  db: DB,
  user: User,
  via: 'LOGIN' | 'SSO',
  ip: string,
  device?: string | null,
): Promise<{ due: SecondFactorDue } | { due: undefined; proved: boolean }> {
  const step = await secondFactorDue(db, user, device);
  // A browser the owner remembered stands for the factor, and its place is the owner's (decision 073).
  if (step === 'remembered') await rememberSecondFactorPlace(db, user.email, ip);
  if (step === 'remembered' || step === null) return { due: undefined, proved: step === 'remembered' };
  return { due: { kind: 'second-factor', user, challenge: await openChallenge(db, user, step, via) } };
}

export async function loginV1(
  db: DB,
  userName: string,
  password: string,
  ip: string,
  options: SignInOptions = {},
): Promise<V1Login | SecondFactorDue> {
  const user = await checkCredentials(db, 'v1', normalizeEmail(userName), password, ip);
  const factor = await secondFactorChallenge(db, user, 'LOGIN', ip, options.device);
  return factor.due ?? v1Session(db, user, ip, factor.proved, options);
}

/**
 * The provider's admins sign in with their user name only (SPEC §6): a name without '@' is read as
 * name@PROVIDER_EMAIL_DOMAIN, and only an ADMIN may use that form.
 */
export function resolveGatewayUserName(userName: string): { email: string; adminForm: boolean } {
  const name = normalizeEmail(userName);
  if (name.includes('@')) return { email: name, adminForm: false };
  return { email: `${name}@${config().PROVIDER_EMAIL_DOMAIN}`, adminForm: true };
}

export interface V2Login {
  kind: 'signed-in';
  session: IssuedSession;
  simulator?: IssuedSession;
  user: User;
}

export const needsSimulatorToken = (user: User) => PROFILES_WITH_SIMULATOR_TOKEN.includes(profileOf(user.profile));

async function v2Session(
  db: DB,
  user: User,
  ip: string,
  via: 'LOGIN' | 'SSO',
  secondFactor: boolean,
  { replacing = [], userAgent = null }: SignInOptions = {},
): Promise<V2Login> {
  await revokeTokens(db, replacing);
  const session = await createSession(db, user.id, 'v2', undefined, { secondFactor, origin: { ip, userAgent } });
  await recordLogin(db, user, 'v2', ip, via);
  // A single sign-on is always a browser's: it gets the simulator token at once (the gateway, only in cookie mode).
  const simulator = via === 'SSO' && needsSimulatorToken(user) ? await issueSimulatorToken(db, user, session) : undefined;
  return { kind: 'signed-in', session, simulator, user };
}

export async function loginV2(
  db: DB,
  userName: string,
  password: string,
  ip: string,
  options: SignInOptions = {},
): Promise<V2Login | SecondFactorDue> {
  const { email, adminForm } = resolveGatewayUserName(userName);
  const user = await checkCredentials(db, 'v2', email, password, ip);
  if (adminForm && user.profile !== 'admin') throw notFound('Usuário não encontrado');
  const factor = await secondFactorChallenge(db, user, 'LOGIN', ip, options.device);
  return factor.due ?? v2Session(db, user, ip, 'LOGIN', factor.proved, options);
}

/** Issues the simulator token of a v2 session (POST /v1/login/token). Admins sell nothing: 403. */
export async function issueSimulatorToken(db: DB, user: User, v2Session: { id: number; expiresAt: Date }): Promise<IssuedSession> {
  if (!needsSimulatorToken(user)) throw forbidden('Este perfil não utiliza os simuladores.');
  return createSession(db, user.id, 'simulador', v2Session);
}

/**
 * An SSO session id for a v2 user, to be opened once at /v2/login/session/{id} within minutes.
 * `issuer`: the ADMIN who asked for it, logged as the row's author — none when a local script asked
 * with the operations key (npm run sso-link).
 */
export async function issueSsoSession(
  db: DB,
  email: string,
  issuer: { actorId: number | null; ip: string },
): Promise<{ idSessaoSSO: string; expiresAt: Date; user: User }> {
  const user = await findUserByEmail(db, normalizeEmail(email));
  if (user?.generation !== 'v2') throw notFound('Usuário do novo portal não encontrado');
  if (user.status !== 'ATIVO') throw forbidden('O usuário não está ativo.');
  await assertCompaniesLetIn(db, user);
  const { secret, expiresAt } = await issueCode(db, user.id, 'SSO');
  await appendAccessEvent(db, {
    event: 'SSO_EMITIDO',
    generation: 'v2',
    email: user.email,
    userId: user.id,
    actorId: issuer.actorId,
    ip: issuer.ip,
    detalhe: issuer.actorId === null ? 'emitida por script local (chave de operações)' : null,
  });
  return { idSessaoSSO: secret, expiresAt, user };
}

/**
 * Exchanges an SSO session id for a v2 session (and a simulator token for partner profiles) — or, for
 * a user who owes a second factor, for its challenge: a link is no second factor (decision 068).
 */
export async function redeemSsoSession(
  db: DB,
  idSessaoSSO: string,
  ip: string,
  options: SignInOptions = {},
): Promise<V2Login | SecondFactorDue> {
  const consumed = await consumeCode(db, 'SSO', idSessaoSSO);
  if (!consumed.ok) throw unauthenticated(consumed.reason === 'expired' ? TOKEN_MESSAGES.expired : TOKEN_MESSAGES.invalid);
  const user = await db.selectFrom('users').selectAll().where('id', '=', consumed.userId).executeTakeFirstOrThrow();
  if (user.status !== 'ATIVO') throw forbidden('O usuário não está ativo.');
  await assertCompaniesLetIn(db, user);
  const factor = await secondFactorChallenge(db, user, 'SSO', ip, options.device);
  return factor.due ?? v2Session(db, user, ip, 'SSO', factor.proved, options);
}

/**
 * The sign-in a proved challenge was waiting for: the session of its generation, made exactly as the
 * password (or the SSO link) would have made it, once — and the access log says the second step passed.
 * The user's state is judged again: deactivated or suspended meanwhile, no session.
 */
export async function finishSecondFactor(
  db: DB,
  challenge: OpenChallenge,
  ip: string,
  options: SignInOptions = {},
): Promise<V1Login | V2Login> {
  await assertCompaniesLetIn(db, challenge.user);
  await completeChallenge(db, challenge);
  await logAccess(db, 'SEGUNDO_FATOR', challenge.generation, challenge.user.email, challenge.user.id, ip);
  return challenge.generation === 'v1'
    ? v1Session(db, challenge.user, ip, true, options)
    : v2Session(db, challenge.user, ip, challenge.via, true, options);
}
