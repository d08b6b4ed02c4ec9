import type { DB } from '../../db';
import { sql } from 'kysely';
import type { User, UserStatus } from '../../db/schema';
import { DomainError, invalid, gone } from '../../errors';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { publicUrl, queueEmail, redactMessagesTo, secretSlot, sendEmail } from '../../mail/outbox';
import { CODE_LIFETIME_MS, consumeCode, currentCodeId, isCodeUsable, issueCode, retireCodes } from './codes';
import { countAttempt, forgetAttempts, giveBackAttempt, RATE_RULES, THROTTLES, throttle } from './rate-limit';
import { revokeUserSessions } from './sessions';
import { forgetRememberedBrowsers } from './second-factor';
import { findUserByEmail } from './principals';
import { logAccess } from './auth';
import { HOME_PATH, LOGIN_PATH } from '../../../lib/paths';
import { formatWait } from '../../../lib/format';
import { now } from '../../clock';

/**
 * Password recovery and first access. Answers never tell whether an e-mail is registered: a
 * stranger learns nothing from the forgot-password and resend-code forms.
 */

type Recipient = Pick<User, 'id' | 'email' | 'nome'>;

const RESET_PAGE = { v1: '/redefinir-senha', v2: '/v2/senha' } as const;
const RESEND_PAGE = { v1: '/reenviar-codigo-validacao', v2: '/v2/reenviar-codigo-validacao' } as const;
export const GENERIC_RECOVERY_MESSAGE = 'Se o e-mail estiver cadastrado, você receberá em instantes as instruções para continuar.';
const INVALID_LINK = 'Este link de redefinição é inválido, expirou ou já foi utilizado. Solicite um novo.';

export async function requestPasswordReset(db: DB, email: string, ip: string): Promise<void> {
  await countAttempt(db, [
    [RATE_RULES.recoveryPerIp, ip],
    [RATE_RULES.recoveryPerAccount, email],
  ]);
  const user = await findUserByEmail(db, email);
  if (!user || user.status === 'INATIVO' || user.status === 'BLOQUEADO') return;
  // A user still in first access gets the validation code again instead: there is no password to reset.
  if (user.status === 'PENDENTE') return sendNewValidationCode(db, user);
  await resetLink(db, user, sendEmail);
}

/** A new reset link and the e-mail that carries it: sent now, or queued in the caller's transaction. */
async function resetLink(db: DB, user: Recipient & Pick<User, 'generation'>, send: typeof sendEmail | typeof queueEmail): Promise<void> {
  const { secret, expiresAt } = await issueCode(db, user.id, 'RESET');
  await send(
    db,
    user.email,
    'redefinir-senha',
    {
      nome: user.nome,
      link: publicUrl(`${RESET_PAGE[user.generation]}?token=${secretSlot('token')}`),
      validadeMinutos: CODE_LIFETIME_MS.RESET / 60_000,
    },
    { values: { token: secret }, expiresAt },
  );
}

/**
 * The reset e-mail of the ordinary flow, inside an administrator's change (issue 32, "Forçar nova
 * senha"): queued in the caller's transaction, so the link exists exactly when the old password stops.
 */
export const queuePasswordReset = (trx: DB, user: Recipient & Pick<User, 'generation'>) => resetLink(trx, user, queueEmail);

/** The token of a reset page's URL when the link is still usable; undefined for a dead one. */
export async function resetLinkOf(db: DB, url: URL): Promise<string | undefined> {
  const token = url.searchParams.get('token') ?? '';
  if (token.length < 16 || token.length > 128) return undefined;
  return (await isCodeUsable(db, 'RESET', token)) ? token : undefined;
}

async function setPassword(
  db: DB,
  user: User,
  passwordHash: string,
  ip: string,
  keepSessionId?: number,
  event: 'SENHA_ALTERADA' | 'PRIMEIRO_ACESSO' = 'SENHA_ALTERADA',
): Promise<void> {
  // The first access makes a pending user active; a password never lifts a block or a deactivation
  // (read from the row as it is written: an administrator may have blocked the user a moment ago).
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_changed_at: now(),
      status: sql<UserStatus>`case when status = 'PENDENTE' then 'ATIVO' else status end`,
    })
    .where('id', '=', user.id)
    .execute();
  await revokeUserSessions(db, user.id, 'senha-alterada', keepSessionId);
  // Whoever has the new password proves the second factor again on every browser (issue 42).
  await forgetRememberedBrowsers(db, user.id);
  // A new password ends every link and code still out there, and their copies in the outbox.
  await retireCodes(db, user.id, ['RESET', 'PRIMEIRO_ACESSO']);
  await redactMessagesTo(db, user.email);
  await logAccess(db, event, user.generation, user.email, user.id, ip);
}

/**
 * Sets a new password from a reset link (single use) and returns where to sign in. The attempt is
 * counted and the link looked up before the slow hash, so bogus links cost nothing; the link is
 * consumed only once the new password is ready to be written.
 */
export async function resetPassword(db: DB, token: string, password: string, ip: string): Promise<{ loginPath: string }> {
  await countAttempt(db, [[RATE_RULES.resetPerIp, ip]]);
  if (!(await isCodeUsable(db, 'RESET', token))) throw gone(INVALID_LINK);
  const passwordHash = await hashPassword(password);
  const consumed = await consumeCode(db, 'RESET', token);
  if (!consumed.ok) throw gone(INVALID_LINK);
  const user = await db.selectFrom('users').selectAll().where('id', '=', consumed.userId).executeTakeFirstOrThrow();
  // Blocking or deactivating retires the user's links; one consumed just before is refused here.
  if (user.status === 'INATIVO' || user.status === 'BLOQUEADO') throw gone(INVALID_LINK);
  await setPassword(db, user, passwordHash, ip);
  await sendEmail(db, user.email, 'senha-alterada', { nome: user.nome, link: publicUrl(LOGIN_PATH[user.generation]) });
  return { loginPath: LOGIN_PATH[user.generation] };
}

/** A new validation code and the e-mail that carries it: sent now, or queued in the caller's transaction. */
async function validationCode(db: DB, user: Recipient, send: typeof sendEmail | typeof queueEmail): Promise<void> {
  const { secret, expiresAt } = await issueCode(db, user.id, 'PRIMEIRO_ACESSO');
  await send(
    db,
    user.email,
    'codigo-validacao',
    {
      nome: user.nome,
      codigo: secretSlot('codigo'),
      link: publicUrl(`/cadastro-login?email=${encodeURIComponent(user.email)}`),
      validadeHoras: CODE_LIFETIME_MS.PRIMEIRO_ACESSO / 3_600_000,
    },
    { values: { codigo: secret }, expiresAt },
  );
}

const sendValidationCode = (db: DB, user: Recipient) => validationCode(db, user, sendEmail);

/** Creates a pending user's validation code (user registration and seed call this). */
export const startFirstAccess = sendValidationCode;

/**
 * A new code asked for from a public form. Each new code starts clean (decision 073), so an account
 * gets a few an hour: how many bounds the guesses a day a stranger gets. Past them the form still
 * answers as always (it tells nobody whether the e-mail exists), and nothing is sent.
 */
async function sendNewValidationCode(db: DB, user: Recipient): Promise<void> {
  try {
    await countAttempt(db, [[RATE_RULES.newCodesPerAccount, String(user.id)]]);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'too-many') return;
    throw error;
  }
  await sendValidationCode(db, user);
}

/**
 * The same, inside the caller's transaction, the e-mail left to the delivery job (server/boot/jobs.ts):
 * a bulk import's users get their code exactly when they exist, and thousands of e-mails go out at
 * the outbox's pace, not all at once (decision 048).
 */
export const queueFirstAccess = (trx: DB, user: Recipient) => validationCode(trx, user, queueEmail);

export async function resendValidationCode(db: DB, email: string, ip: string): Promise<void> {
  await countAttempt(db, [
    [RATE_RULES.recoveryPerIp, ip],
    [RATE_RULES.recoveryPerAccount, email],
  ]);
  const user = await findUserByEmail(db, email);
  if (user?.status === 'PENDENTE') await sendNewValidationCode(db, user);
}

const INVALID_CODE = 'Código de validação inválido ou expirado. Solicite um novo em "Reenviar código de validação".';
const codeThrottled = (seconds: number) =>
  `Muitas tentativas com código errado para este e-mail. Tente de novo em ${formatWait(seconds)}, ou peça um novo código em "Reenviar código de validação": o código novo vale na hora.`;

/**
 * Counts one typed code before it is checked (decision 073, as a password's in 027): the address's
 * own budget for this account (a hard limit), the address across accounts and — for a pending
 * account with a live code — that code, from anywhere (growing delays, never a lock). Answers how
 * many attempts that code has taken (0 when there is none).
 */
async function countCodeAttempt(db: DB, email: string, codeId: number | undefined, ip: string): Promise<number> {
  const pair = `${email}|${ip}`;
  await countAttempt(db, [[RATE_RULES.codePerAccountAndAddress, pair]]);
  try {
    await throttle(db, THROTTLES.codePerAddress, ip);
    return codeId === undefined ? 0 : await throttle(db, THROTTLES.codePerCode, String(codeId), codeThrottled);
  } catch (error) {
    // Refused before anything was checked: it costs the address nothing of its own budget.
    if (error instanceof DomainError && error.kind === 'too-many') await giveBackAttempt(db, RATE_RULES.codePerAccountAndAddress, pair);
    throw error;
  }
}

/** First access: the e-mailed code proves the address; the user then chooses a password. */
export async function completeFirstAccess(
  db: DB,
  email: string,
  code: string,
  password: string,
  ip: string,
): Promise<{ generation: User['generation']; homePath: string }> {
  const user = await findUserByEmail(db, email);
  const pending = user?.status === 'PENDENTE' ? user : undefined;
  const codeId = pending && (await currentCodeId(db, pending.id, 'PRIMEIRO_ACESSO'));
  const attempts = await countCodeAttempt(db, email, codeId, ip);
  if (!pending || !(await isCodeUsable(db, 'PRIMEIRO_ACESSO', code, pending.id))) {
    // The first wrong code that had to wait tells the owner, once a code (the throttle's first delay).
    if (pending && attempts === THROTTLES.codePerCode.free + 1) await warnOfWrongCodes(db, pending);
    throw invalid(INVALID_CODE, { codigo: [INVALID_CODE] });
  }
  const passwordHash = await hashPassword(password);
  const consumed = await consumeCode(db, 'PRIMEIRO_ACESSO', code, pending.id);
  if (!consumed.ok) throw invalid(INVALID_CODE, { codigo: [INVALID_CODE] });
  // The first password of a pending user is the first access: logged as such, not as a change.
  await setPassword(db, pending, passwordHash, ip, undefined, 'PRIMEIRO_ACESSO');
  await forgetAttempts(db, RATE_RULES.codePerAccountAndAddress, `${email}|${ip}`);
  return { generation: pending.generation, homePath: HOME_PATH[pending.generation] };
}

/** Tells a pending user that someone typed wrong codes for their first access, and what to do. */
async function warnOfWrongCodes(db: DB, user: User): Promise<void> {
  await sendEmail(db, user.email, 'primeiro-acesso-tentativas', {
    nome: user.nome,
    link: publicUrl(RESEND_PAGE[user.generation]),
  });
}

/**
 * A signed-in user changes their password: the current one is required (a wrong one counts as a
 * failed sign-in), every other session of theirs ends, the one in use stays.
 */
export async function changePassword(db: DB, user: User, sessionId: number, current: string, next: string, ip: string): Promise<void> {
  const pair = `${user.email}|${ip}`;
  await countAttempt(db, [[RATE_RULES.loginPerAccountAndAddress, pair]]);
  if (!(await verifyPassword(current, user.password_hash))) {
    throw invalid('Senha atual incorreta', { senhaAtual: ['Senha atual incorreta'] });
  }
  await forgetAttempts(db, RATE_RULES.loginPerAccountAndAddress, pair);
  await setPassword(db, user, await hashPassword(next), ip, sessionId);
  await sendEmail(db, user.email, 'senha-alterada', { nome: user.nome, link: publicUrl(LOGIN_PATH[user.generation]) });
}
