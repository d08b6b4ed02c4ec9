import type { DB } from '../../db';
import { notFound } from '../../errors';
import { now } from '../../clock';
import { queueFirstAccess } from '../identity/account';
import { deliverAfter } from '../../mail/outbox';
import {
  unknownGroups,
  USER_ADMIN_MESSAGES,
  v1GrantProblems,
  type FieldErrors,
  type LegacyGroup,
  type LegacyUserInput,
  type V1Actor,
} from '../../../lib/user-admin';
import { legacyGroups, managedUser, requireChange } from './user-admin';
import {
  changed,
  changedFields,
  checkStanding,
  duplicates,
  EVENT_OF_STATUS,
  inUserChange,
  logEvent,
  refuse,
  settleAccess,
  storedStatus,
  uniqueAsConflict,
  type SavedUser,
} from './user-admin-writing';

/*
 * User administration, legacy users (issue 16, decision 046): creating and changing a user of the
 * legacy generation — name, e-mail, CPF, one company, permission groups, status.
 */

async function legacyCompanyId(db: DB, cnpj: string): Promise<number | null | undefined> {
  if (!cnpj) return null;
  const row = await db.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirst();
  return row?.id;
}

/** Creates a legacy user (pending until first access) and sends the first-access e-mail. */
export function createLegacyUser(db: DB, actor: V1Actor, input: LegacyUserInput, ip: string | null): Promise<SavedUser> {
  return deliverAfter(uniqueAsConflict(db.transaction().execute((trx) => insertLegacyUser(trx, actor, input, ip))));
}

/**
 * Checks and writes a new legacy user inside the caller's transaction (the form's, or a batch of an
 * import): a refusal is thrown before anything is written. The first-access code and its e-mail are
 * written in the same transaction (the delivery job sends it), so a user never exists without them.
 * An import passes the permission groups it read for the whole file, not read again per row.
 */
export async function insertLegacyUser(
  trx: DB,
  actor: V1Actor,
  input: LegacyUserInput,
  ip: string | null,
  knownGroups?: readonly LegacyGroup[],
): Promise<SavedUser> {
  requireChange(actor);
  const groups = knownGroups ?? (await legacyGroups(trx));
  const companyId = await legacyCompanyId(trx, input.empresa);
  const errors: FieldErrors = {};
  if (companyId === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
  const unknown = unknownGroups(input.grupos, groups);
  Object.assign(errors, v1GrantProblems(actor, { groups: input.grupos, companyId: companyId ?? null }, groups), errors);
  if (unknown) errors.grupos = [USER_ADMIN_MESSAGES.unknownGroup(unknown)];
  if (Object.keys(errors).length > 0) refuse(errors);
  const status = storedStatus(input.status, false);
  const dup = await duplicates(trx, input.email, input.cpf);
  if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
  const user = await trx
    .insertInto('users')
    .values({
      email: input.email,
      nome: input.nome,
      cpf: input.cpf,
      generation: 'v1',
      profile: null,
      status,
      password_hash: null,
      company_id: companyId ?? null,
      created_at: now(),
    })
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  if (companyId) await trx.insertInto('user_companies').values({ user_id: user.id, company_id: companyId }).execute();
  const ids = groups.filter((g) => input.grupos.includes(g.nome)).map((g) => ({ user_id: user.id, group_id: g.id }));
  if (ids.length > 0) await trx.insertInto('user_groups').values(ids).execute();
  if (user.status === 'PENDENTE') await queueFirstAccess(trx, user);
  await logEvent(trx, 'USUARIO_CRIADO', { ...user, generation: 'v1' }, actor.userId, ip, `grupos: ${input.grupos.join(', ') || 'nenhum'}`);
  return user;
}

/**
 * Changes a legacy user: name, e-mail, CPF, company, groups, status — and, when the form gives them,
 * each group's end date (decision 071; by group name, null: no end). Without them a group kept keeps its end.
 */
export async function updateLegacyUser(
  db: DB,
  actor: V1Actor,
  id: number,
  input: LegacyUserInput,
  ip: string | null,
  groupEnds?: ReadonlyMap<string, Date | null>,
): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const groups = await legacyGroups(trx);
    const companyId = await legacyCompanyId(trx, input.empresa);
    const errors: FieldErrors = {};
    if (companyId === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
    const unknown = unknownGroups(input.grupos, groups);
    Object.assign(errors, v1GrantProblems(actor, { groups: input.grupos, companyId: companyId ?? null }, groups, before), errors);
    if (unknown) errors.grupos = [USER_ADMIN_MESSAGES.unknownGroup(unknown)];
    if (Object.keys(errors).length > 0) refuse(errors);
    const status = storedStatus(input.status, before.hasPassword);
    await checkStanding(trx, actor, before, { status, profile: null, groups: input.grupos, companyIds: companyId ? [companyId] : [] });
    const dup = await duplicates(trx, input.email, input.cpf, id);
    if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
    const user = await trx
      .updateTable('users')
      .set({ nome: input.nome, email: input.email, cpf: input.cpf, status, company_id: companyId ?? null })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('user_companies').where('user_id', '=', id).execute();
    if (companyId) await trx.insertInto('user_companies').values({ user_id: id, company_id: companyId }).execute();
    // A group kept keeps its end date (decision 071): editing a user never makes a temporary grant permanent.
    const ends = new Map(
      (await trx.selectFrom('user_groups').select(['group_id', 'ends_at']).where('user_id', '=', id).execute()).map((r) => [
        r.group_id,
        r.ends_at,
      ]),
    );
    await trx.deleteFrom('user_groups').where('user_id', '=', id).execute();
    const ids = groups
      .filter((g) => input.grupos.includes(g.nome))
      .map((g) => ({ user_id: id, group_id: g.id, ends_at: (groupEnds ? groupEnds.get(g.nome) : ends.get(g.id)) ?? null }));
    if (ids.length > 0) await trx.insertInto('user_groups').values(ids).execute();
    await settleAccess(trx, before, user);
    const detail = changedFields(
      {
        nome: before.nome,
        email: before.email,
        cpf: before.cpf,
        empresa: before.companyId,
        grupos: before.groups,
        status: before.status,
        fimGrupos: Object.fromEntries([...ends].map(([g, e]) => [g, e?.getTime() ?? null])),
      },
      {
        nome: input.nome,
        email: input.email,
        cpf: input.cpf,
        empresa: companyId ?? null,
        grupos: input.grupos,
        status,
        fimGrupos: Object.fromEntries(ids.map((r) => [r.group_id, r.ends_at?.getTime() ?? null])),
      },
    );
    await logEvent(
      trx,
      status !== before.status ? EVENT_OF_STATUS[status] : 'USUARIO_ALTERADO',
      { ...user, generation: 'v1' },
      actor.userId,
      ip,
      detail,
    );
    return user;
  });
  changed(db, id);
  return saved;
}
