import type { DB } from '../db';
import type { User } from '../db/schema';
import { ApiError, badRequest } from '../api/errors';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { publicUrl, sendEmail } from '../mail/outbox';
import { CODE_LIFETIME_MS, consumeCode, issueCode, isCodeUsable } from './codes';
import { assertNotLimited, consume, RATE_RULES, recordHit } from './rate-limit';
import { revokeUserSessions } from './sessions';
import { findUserByEmail } from './principals';
import { logAccess } from './auth';
import { HOME_PATH, LOGIN_PATH } from '../../lib/paths';

/**
 * Password recovery and first access. Answers never tell whether an e-mail is registered: a
 * stranger learns nothing from the forgot-password and resend-code forms.
 */

const RESET_PAGE = { v1: '/redefinir-senha', v2: '/v2/senha' } as const;
export const GENERIC_RECOVERY_MESSAGE =
  'Se o e-mail estiver cadastrado, você receberá em instantes as instruções para continuar.';
const INVALID_LINK = 'Este link de redefinição é inválido, expirou ou já foi utilizado. Solicite um novo.';

export async function requestPasswordReset(db: DB, email: string, ip: string): Promise<void> {
  await consume(db, [[RATE_RULES.recoveryPerIp, ip], [RATE_RULES.recoveryPerAccount, email]]);
  const user = await findUserByEmail(db, email);
  if (!user || user.status === 'INATIVO') return;
  // A user still in first access gets the validation code again instead: there is no password to reset.
  if (user.status === 'PENDENTE') return sendValidationCode(db, user);
  const { secret } = await issueCode(db, user.id, 'RESET');
  await sendEmail(db, user.email, 'redefinir-senha', {
    nome: user.nome,
    link: publicUrl(`${RESET_PAGE[user.generation]}?token=${secret}`),
    validadeMinutos: CODE_LIFETIME_MS.RESET / 60_000,
  });
}

/** The token of a reset page's URL when the link is still usable; undefined for a dead one. */
export async function resetLinkOf(db: DB, url: URL): Promise<string | undefined> {
  const token = url.searchParams.get('token') ?? '';
  if (token.length < 16 || token.length > 128) return undefined;
  return (await isCodeUsable(db, 'RESET', token)) ? token : undefined;
}

async function setPassword(db: DB, user: User, passwordHash: string, ip: string, keepSessionId?: number): Promise<void> {
  await db.updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: new Date(), status: 'ATIVO' })
    .where('id', '=', user.id)
    .execute();
  await revokeUserSessions(db, user.id, keepSessionId);
  await logAccess(db, 'SENHA_ALTERADA', user.generation, user.email, user.id, ip);
}

/** Sets a new password from a reset link (single use) and returns where to sign in. */
export async function resetPassword(db: DB, token: string, password: string, ip: string): Promise<{ loginPath: string }> {
  // Hash first (the slow part): the link is consumed only when the new password is ready to be written.
  const passwordHash = await hashPassword(password);
  const consumed = await consumeCode(db, 'RESET', token);
  if (!consumed.ok) throw new ApiError(410, INVALID_LINK);
  const user = await db.selectFrom('users').selectAll().where('id', '=', consumed.userId).executeTakeFirstOrThrow();
  await setPassword(db, user, passwordHash, ip);
  await sendEmail(db, user.email, 'senha-alterada', { nome: user.nome, link: publicUrl(LOGIN_PATH[user.generation]) });
  return { loginPath: LOGIN_PATH[user.generation] };
}

async function sendValidationCode(db: DB, user: User): Promise<void> {
  const { secret } = await issueCode(db, user.id, 'PRIMEIRO_ACESSO');
  await sendEmail(db, user.email, 'codigo-validacao', {
    nome: user.nome,
    codigo: secret,
    link: publicUrl(`/cadastro-login?email=${encodeURIComponent(user.email)}`),
    validadeHoras: CODE_LIFETIME_MS.PRIMEIRO_ACESSO / 3_600_000,
  });
}

/** Creates a pending user's validation code (user registration and seed call this). */
export const startFirstAccess = sendValidationCode;

export async function resendValidationCode(db: DB, email: string, ip: string): Promise<void> {
  await consume(db, [[RATE_RULES.recoveryPerIp, ip], [RATE_RULES.recoveryPerAccount, email]]);
  const user = await findUserByEmail(db, email);
  if (user?.status === 'PENDENTE') await sendValidationCode(db, user);
}

const INVALID_CODE = 'Código de validação inválido ou expirado. Solicite um novo em "Reenviar código de validação".';

/** First access: the e-mailed code proves the address; the user then chooses a password. */
export async function completeFirstAccess(
  db: DB, email: string, code: string, password: string, ip: string,
): Promise<{ generation: User['generation']; homePath: string }> {
  await consume(db, [[RATE_RULES.codeAttemptsPerAccount, email], [RATE_RULES.recoveryPerIp, ip]]);
  const user = await findUserByEmail(db, email);
  if (!user || user.status !== 'PENDENTE') throw badRequest(INVALID_CODE, { codigo: [INVALID_CODE] });
  const passwordHash = await hashPassword(password);
  const consumed = await consumeCode(db, 'PRIMEIRO_ACESSO', code, user.id);
  if (!consumed.ok) throw badRequest(INVALID_CODE, { codigo: [INVALID_CODE] });
  await setPassword(db, user, passwordHash, ip);
  return { generation: user.generation, homePath: HOME_PATH[user.generation] };
}

/**
 * A signed-in user changes their password: the current one is required (a wrong one counts as a
 * failed sign-in), every other session of theirs ends, the one in use stays.
 */
export async function changePassword(
  db: DB, user: User, sessionId: number, current: string, next: string, ip: string,
): Promise<void> {
  const limits: Parameters<typeof assertNotLimited>[1] = [[RATE_RULES.loginFailuresPerAccount, user.email], [RATE_RULES.loginFailuresPerIp, ip]];
  await assertNotLimited(db, limits);
  if (!(await verifyPassword(current, user.password_hash))) {
    await recordHit(db, limits);
    throw badRequest('Senha atual incorreta', { senhaAtual: ['Senha atual incorreta'] });
  }
  await setPassword(db, user, await hashPassword(next), ip, sessionId);
  await sendEmail(db, user.email, 'senha-alterada', { nome: user.nome, link: publicUrl(LOGIN_PATH[user.generation]) });
}
