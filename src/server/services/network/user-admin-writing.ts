import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation, UserStatus } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { queueFirstAccess } from '../identity/account';
import { retireCodes } from '../identity/codes';
import { deliverAfter, redactMessagesTo } from '../../mail/outbox';
import { appendAccessEvent } from '../identity/access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import {
  isLockedOut,
  standingProblems,
  statusOfForm,
  USER_ADMIN_MESSAGES,
  type Actor,
  type AdminStanding,
  type FieldErrors,
  type FormStatus,
  type OtherAdmins,
  type UserStatusCode,
} from '../../../lib/user-admin';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import { managedUser, requireChange, type UserRecord } from './user-admin';

/*
 * User administration, writing (issue 16, decision 046): what every change of a user shares, of
 * either generation — the unique e-mail and CPF, the user-change lock, the last-administrator rules,
 * the access log, ending what a user held — and the status change of both generations.
 */

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────────

/** Unique e-mail and CPF: field errors naming which (409). */
export async function duplicates(db: DB, email: string, cpf: string, exceptId?: number): Promise<FieldErrors> {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'cpf'])
    .where((eb) => eb.or([eb('email', '=', email), eb('cpf', '=', cpf)]));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  const errors: FieldErrors = {};
  if (rows.some((r) => r.email === email)) errors.email = [USER_ADMIN_MESSAGES.duplicateEmail];
  if (rows.some((r) => r.cpf === cpf)) errors.cpf = [USER_ADMIN_MESSAGES.duplicateCpf];
  return errors;
}

export const refuse = (errors: FieldErrors, kind: 'invalid' | 'conflict' | 'too-large' = 'invalid'): never => {
  const first = Object.values(errors)[0]?.[0] ?? 'Verifique os campos destacados.';
  throw new DomainError(kind, first, errors);
};

/**
 * A duplicate that slipped past `duplicates` — two requests registering one e-mail or CPF at the same
 * moment — is stopped by the unique indexes; the loser gets the same 409 as if it had come second.
 */
export async function uniqueAsConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
    if (code !== '23505' || !constraint?.startsWith('users_')) throw error;
    return refuse(
      constraint.includes('cpf') ? { cpf: [USER_ADMIN_MESSAGES.duplicateCpf] } : { email: [USER_ADMIN_MESSAGES.duplicateEmail] },
      'conflict',
    );
  }
}

/** Any key will do, as long as every change of a user takes the same one. */
const USER_CHANGE_LOCK = 460_016;

/**
 * A change to an existing user, in one transaction that first takes the portal's user-change lock:
 * such changes run one at a time across every instance, so the last-administrator rules, read inside
 * it, cannot be beaten by two administrators deactivating each other at the same moment.
 */
export function inUserChange<T>(db: DB, change: (trx: DB) => Promise<T>): Promise<T> {
  // A change may queue a first-access code: the delivery job runs once it committed.
  return deliverAfter(
    uniqueAsConflict(
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${USER_CHANGE_LOCK})`.execute(trx);
        return change(trx);
      }),
    ),
  );
}

/** The other active administrators besides `userId`, of the generation and of the companies given. */
async function otherAdmins(db: DB, generation: 'v1' | 'v2', userId: number, companyIds: readonly number[]): Promise<OtherAdmins> {
  if (generation === 'v1') {
    const { n } = await db
      .selectFrom('users as u')
      .innerJoin('user_groups as ug', 'ug.user_id', 'u.id')
      .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
      .select(sql<number>`count(distinct u.id)::int`.as('n'))
      .where('u.generation', '=', 'v1')
      .where('u.status', '=', 'ATIVO')
      .where((eb) => eb.or([eb('g.is_admin', '=', true), eb('g.nome', '=', V1_ADMIN_GROUP)]))
      .where('u.id', '!=', userId)
      .executeTakeFirstOrThrow();
    return { portal: n, perCompany: new Map() };
  }
  const { n } = await db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('generation', '=', 'v2')
    .where('status', '=', 'ATIVO')
    .where('profile', '=', 'admin')
    .where('id', '!=', userId)
    .executeTakeFirstOrThrow();
  const perCompany = new Map<number, number>();
  if (companyIds.length > 0) {
    const rows = await db
      .selectFrom('user_companies as uc')
      .innerJoin('users as u', 'u.id', 'uc.user_id')
      .select(['uc.company_id', sql<number>`count(*)::int`.as('n')])
      .where('u.status', '=', 'ATIVO')
      .where('u.profile', '=', 'parceiro_admin')
      .where('u.id', '!=', userId)
      .where('uc.company_id', 'in', [...companyIds])
      .groupBy('uc.company_id')
      .execute();
    for (const id of companyIds) perCompany.set(id, rows.find((r) => r.company_id === id)?.n ?? 0);
  }
  return { portal: n, perCompany };
}

export async function checkStanding(db: DB, actor: Actor, before: UserRecord, after: AdminStanding): Promise<void> {
  const others = await otherAdmins(db, before.generation, before.id, before.companyIds);
  const problems = standingProblems(before.generation, actor.userId, before.id, before, after, others);
  if (Object.keys(problems).length > 0) refuse(problems, 'conflict');
}

export async function logEvent(
  db: DB,
  event: AccessEventCode,
  target: { id: number; email: string; generation: Generation },
  actorId: number,
  ip: string | null,
  detalhe: string,
) {
  await appendAccessEvent(db, { event, generation: target.generation, email: target.email, userId: target.id, actorId, ip, detalhe });
}

/**
 * Ends what a user holds under the old terms, inside the caller's transaction (the caller announces
 * after the commit): every session, and every reset link and first-access code still out there — a
 * link sent before a block, or to an address since replaced, must not let anyone back in — with their
 * copies in the mailbox.
 */
async function endAccess(trx: DB, user: { id: number; email: string }): Promise<void> {
  await trx.updateTable('sessions').set({ revoked_at: now() }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
  await retireCodes(trx, user.id, ['RESET', 'PRIMEIRO_ACESSO']);
  await redactMessagesTo(trx, user.email);
}

/**
 * After a change, inside its transaction: a user who lost access, or whose e-mail changed, loses
 * what they held; a user left pending (first access not done) gets a new code at the address they
 * have now — the old one went with the old terms.
 */
export async function settleAccess(
  trx: DB,
  before: { id: number; email: string; status: UserStatus },
  after: { id: number; email: string; nome: string; status: UserStatus },
): Promise<void> {
  const newEmail = after.email !== before.email;
  if (!isLockedOut(after.status) && !newEmail) {
    if (after.status === 'PENDENTE' && before.status !== 'PENDENTE') await queueFirstAccess(trx, after);
    return;
  }
  await endAccess(trx, before);
  if (after.status === 'PENDENTE') await queueFirstAccess(trx, after);
}

/** After a commit that changed a user: this instance forgets them now, the others when the notice arrives. */
export const changed = (db: DB, userId: number) => announce(db, { kind: 'user', userId });

export const EVENT_OF_STATUS: Record<UserStatusCode, AccessEventCode> = {
  ATIVO: 'USUARIO_REATIVADO',
  // Only a reactivation leaves a user PENDENTE: one who had not done the first access yet.
  PENDENTE: 'USUARIO_REATIVADO',
  INATIVO: 'USUARIO_DESATIVADO',
  BLOQUEADO: 'USUARIO_BLOQUEADO',
};

/**
 * What a status in a form becomes for a user: 'ativo' is PENDENTE for whoever has no password yet — a
 * new user, or one deactivated before their first access — since only the first access makes them active.
 */
export const storedStatus = (form: FormStatus, hasPassword: boolean): UserStatus => {
  const wanted = statusOfForm(form);
  return wanted === 'ATIVO' && !hasPassword ? 'PENDENTE' : wanted;
};

/** Lists what changed between two records, by field name, for the access log (never a CPF or a password). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return keys.length > 0 ? `campos: ${keys.join(', ')}` : 'sem alterações';
}

/** What a change answers: the user as saved. */
export interface SavedUser {
  id: number;
  nome: string;
  email: string;
  status: UserStatus;
}

// ─── Status (both generations) ───────────────────────────────────────────────────────────────────

/**
 * A condition of a status change, asked inside its transaction once the user's row is locked (a
 * sign-in's update of the row waits for the change): it throws a DomainError to refuse, or answers
 * what the log's detail adds (an access review: "sem entrar há N dias", decision 076).
 */
export type StatusCondition = (trx: DB, userId: number) => Promise<string>;

/** Activates, deactivates or blocks a user; leaving ATIVO ends their sessions at once. */
export async function setUserStatus(
  db: DB,
  actor: Actor,
  id: number,
  form: FormStatus,
  ip: string | null,
  condition?: StatusCondition,
): Promise<SavedUser> {
  requireChange(actor);
  const result = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const why = condition ? await condition(trx, id) : undefined;
    const status = storedStatus(form, before.hasPassword);
    if (status === before.status) return { saved: { id, nome: before.nome, email: before.email, status }, changed: false };
    await checkStanding(trx, actor, before, { ...before, status });
    const user = await trx
      .updateTable('users')
      .set({ status })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await settleAccess(trx, before, user);
    await logEvent(
      trx,
      EVENT_OF_STATUS[status],
      { ...user, generation: before.generation },
      actor.userId,
      ip,
      `situação: ${before.status} → ${status}${why ? `; ${why}` : ''}`,
    );
    return { saved: user, changed: true };
  });
  if (result.changed) changed(db, id);
  return result.saved;
}
