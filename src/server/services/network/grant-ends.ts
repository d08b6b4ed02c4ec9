import type { DB } from '../../db';
import { notFound } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { appendAccessEvent } from '../identity/access-log';
import { managedUser, requireChange } from './user-admin';
import { changed, inUserChange, logEvent } from './user-admin-writing';
import { GRANT_END_MESSAGES } from '../../../lib/grant-ends';
import { USER_ADMIN_MESSAGES, type Actor } from '../../../lib/user-admin';

/*
 * Grants with an end date (issue 32, decision 071). A legacy user's access group (user_groups.ends_at),
 * a v2 user's permission group (users.permission_group_ends_at), and a group's own grant — a legacy
 * group's permission (group_permissions.ends_at) or a v2 group's operation
 * (v2_permission_group_operations.ends_at) — may end. Past the end the grant does not count: the
 * principal's facts read it so at every query (identity/principals.ts) and their cache entry is not
 * served past the nearest end (server/cache.ts expiresAt). The sweep below then removes what ended and
 * writes "acesso expirado" to the access log — once, whichever instance runs it (DELETE … RETURNING).
 */

/** A legacy user's groups that end, by group name (the edit form shows them). */
export async function groupEndsOf(db: DB, userId: number): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('user_groups as ug')
    .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
    .select(['g.nome', 'ug.ends_at'])
    .where('ug.user_id', '=', userId)
    .where('ug.ends_at', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.nome, r.ends_at!]));
}

/** Sets (or clears, with null) when a legacy user's membership of an access group ends. */
export async function setGroupMembershipEnd(
  db: DB,
  actor: Actor,
  userId: number,
  groupName: string,
  endsAt: Date | null,
  ip: string | null,
): Promise<void> {
  requireChange(actor);
  await inUserChange(db, async (trx) => {
    const user = await managedUser(trx, actor, { id: userId });
    if (user?.generation !== 'v1') throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const updated = await trx
      .updateTable('user_groups')
      .set({ ends_at: endsAt })
      .where('user_id', '=', userId)
      .where('group_id', 'in', trx.selectFrom('permission_groups').select('id').where('nome', '=', groupName))
      .returning('group_id')
      .executeTakeFirst();
    if (!updated) throw notFound(GRANT_END_MESSAGES.notMember);
    await logEvent(
      trx,
      'USUARIO_ALTERADO',
      { ...user, generation: 'v1' },
      actor.userId,
      ip,
      GRANT_END_MESSAGES.membershipDetail(groupName, endsAt),
    );
  });
  changed(db, userId);
}

/** Sets (or clears) when a v2 user's permission group stops counting. */
export async function setPermissionGroupEnd(db: DB, actor: Actor, userId: number, endsAt: Date | null, ip: string | null): Promise<void> {
  requireChange(actor);
  await inUserChange(db, async (trx) => {
    const user = await managedUser(trx, actor, { id: userId });
    if (user?.generation !== 'v2') throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const updated = await trx
      .updateTable('users as u')
      .from('v2_permission_groups as g')
      .set({ permission_group_ends_at: endsAt })
      .whereRef('g.id', '=', 'u.permission_group_id')
      .where('u.id', '=', userId)
      .returning('g.nome')
      .executeTakeFirst();
    if (!updated) throw notFound(GRANT_END_MESSAGES.notMember);
    await logEvent(
      trx,
      'USUARIO_ALTERADO',
      { ...user, generation: 'v2' },
      actor.userId,
      ip,
      GRANT_END_MESSAGES.membershipDetail(updated.nome, endsAt),
    );
  });
  changed(db, userId);
}

/** What the sweep removed, for the caller (the job and the tests). */
export interface Swept {
  memberships: number;
  permissionGroups: number;
  groupGrants: number;
}

/**
 * Removes every grant whose end has come, each with its access-log row ("acesso expirado"), and tells
 * the caches. The job runs it every minute; the read-time rule already stopped counting them.
 */
export async function sweepEndedGrants(db: DB): Promise<Swept> {
  const at = now();
  const result = await db.transaction().execute(async (trx) => {
    const memberships = await trx
      .deleteFrom('user_groups as ug')
      .using(['users as u', 'permission_groups as g'])
      .whereRef('u.id', '=', 'ug.user_id')
      .whereRef('g.id', '=', 'ug.group_id')
      .where('ug.ends_at', '<=', at)
      .returning(['u.id', 'u.email', 'u.generation', 'g.nome'])
      .execute();
    // The group each user held, read and cleared in one statement (the old value from the join's snapshot).
    const groups = await trx
      .updateTable('users as u')
      .from('v2_permission_groups as g')
      .set({ permission_group_id: null, permission_group_ends_at: null })
      .whereRef('g.id', '=', 'u.permission_group_id')
      .where('u.permission_group_ends_at', '<=', at)
      .returning(['u.id', 'u.email', 'u.generation', 'g.nome'])
      .execute();
    const permissions = await trx
      .deleteFrom('group_permissions as gp')
      .using('permission_groups as g')
      .whereRef('g.id', '=', 'gp.group_id')
      .where('gp.ends_at', '<=', at)
      .returning(['g.nome as grupo', 'gp.nome as permissao'])
      .execute();
    const operations = await trx
      .deleteFrom('v2_permission_group_operations as o')
      .using('v2_permission_groups as g')
      .whereRef('g.id', '=', 'o.group_id')
      .where('o.ends_at', '<=', at)
      .returning(['g.nome as grupo', 'g.company_id', 'o.operation as permissao'])
      .execute();
    for (const m of [...memberships, ...groups])
      await appendAccessEvent(trx, {
        event: 'ACESSO_EXPIRADO',
        generation: m.generation,
        email: m.email,
        userId: m.id,
        ip: null,
        detalhe: GRANT_END_MESSAGES.membershipEnded(m.nome),
      });
    for (const g of permissions)
      await appendAccessEvent(trx, {
        event: 'ACESSO_EXPIRADO',
        generation: 'v1',
        email: '',
        userId: null,
        ip: null,
        detalhe: GRANT_END_MESSAGES.grantEnded(g.grupo, g.permissao),
      });
    for (const g of operations)
      await appendAccessEvent(trx, {
        event: 'ACESSO_EXPIRADO',
        generation: 'v2',
        email: '',
        userId: null,
        ip: null,
        companyId: g.company_id,
        detalhe: GRANT_END_MESSAGES.grantEnded(g.grupo, g.permissao),
      });
    return { memberships, groups, groupGrants: permissions.length + operations.length };
  });
  for (const m of [...result.memberships, ...result.groups]) changed(db, m.id);
  if (result.groupGrants > 0) announce(db, { kind: 'principals' });
  return { memberships: result.memberships.length, permissionGroups: result.groups.length, groupGrants: result.groupGrants };
}
