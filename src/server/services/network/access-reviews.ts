import { sql } from 'kysely';
import type { DB } from '../../db';
import { readKeysetPage } from '../../db/keyset-page';
import { conflict, DomainError } from '../../errors';
import { now } from '../../clock';
import { manageableAmong, manageableIds, requireChange } from './user-admin';
import { setUserStatus, type SavedUser } from './user-admin-writing';
import { worksForAny } from '../identity/users';
import { ACCESS_REVIEW_MESSAGES, ACCESS_REVIEW_PAGE_SIZE, IDLE_DAYS, idleDays, idleSince } from '../../../lib/access-reviews';
import { managedCompanies, type Actor } from '../../../lib/user-admin';
import { BULK_LIMITS } from '../../../lib/user-bulk';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';

/*
 * Access reviews (issue 32, decision 071): the users of the administrator's generation and scope who
 * have not signed in for IDLE_DAYS (never signed in: since their creation), the longest idle first, a
 * keyset page at a time through migration 047's index on (generation, coalesce(last_access_at,
 * created_at), id) of the active and pending; and their deactivation, each through the single-user
 * path (every rule of a manual deactivation, the access log saying why) on the condition that the
 * user is still idle at that moment. The rows ticked on a page are deactivated here and now; "todos
 * da revisão" is a bulk action (user-bulk.ts, decision 076) that reads idleIds and deactivateIfIdle.
 */

export interface IdleUser {
  id: number;
  nome: string;
  email: string;
  status: 'ATIVO' | 'PENDENTE';
  lastAccessAt: Date | null;
  createdAt: Date;
  /** Whole days since the last sign-in (or the creation), by the portal's clock. */
  days: number;
  empresa: string | null;
  /** May the actor deactivate them (a manager lists its companies' users, yet changes only those it may manage). */
  manageable: boolean;
}

/** The idle users' rows, as a derived table whose `seen_at` is the indexed expression (so the keyset reads the index). */
function idleScope(db: DB, actor: Actor, cutoff: Date) {
  const companies = managedCompanies(actor);
  let inner = db
    .selectFrom('users as u')
    .select(['u.id', 'u.nome', 'u.email', 'u.status', 'u.last_access_at', 'u.created_at', 'u.company_id'])
    .select(sql<Date>`coalesce(u.last_access_at, u.created_at)`.as('seen_at'))
    .where('u.generation', '=', actor.generation)
    .where('u.status', 'in', ['ATIVO', 'PENDENTE'])
    .where(sql<boolean>`coalesce(u.last_access_at, u.created_at) < ${cutoff}`);
  if (companies !== 'all') inner = inner.where(worksForAny(companies));
  return db.selectFrom(inner.as('r'));
}

/** A page of the idle users the actor administers, the longest idle first. */
export async function idleUsers(db: DB, actor: Actor, request: PageRequest): Promise<KeysetPage<IdleUser>> {
  requireChange(actor);
  const page = await readKeysetPage(
    db,
    {
      branches: [idleScope(db, actor, idleSince(now()))],
      time: 'r.seen_at',
      id: 'r.id',
      order: 'asc',
      columns: (branch) =>
        branch
          .leftJoin('companies as c', 'c.id', 'r.company_id')
          .select(['r.id', 'r.nome', 'r.email', 'r.status', 'r.last_access_at', 'r.created_at', 'c.razao_social as empresa']),
    },
    request,
    ACCESS_REVIEW_PAGE_SIZE,
  );
  const rows = page.content as unknown as {
    id: number;
    nome: string;
    email: string;
    status: 'ATIVO' | 'PENDENTE';
    last_access_at: Date | null;
    created_at: Date;
    empresa: string | null;
  }[];
  const manageable = await manageableIds(
    db,
    actor,
    rows.map((r) => r.id),
  );
  const at = now();
  return {
    ...page,
    content: rows.map((r) => ({
      id: r.id,
      nome: r.nome,
      email: r.email,
      status: r.status,
      lastAccessAt: r.last_access_at,
      createdAt: r.created_at,
      days: idleDays(r.last_access_at ?? r.created_at, at),
      empresa: r.empresa,
      manageable: manageable.has(r.id),
    })),
  };
}

/** Up to `limit` of the idle users the actor administers, the longest idle first: the review's "todos". */
export async function idleIds(db: DB, actor: Actor, limit: number): Promise<number[]> {
  requireChange(actor);
  const rows = await idleScope(db, actor, idleSince(now())).select('r.id').orderBy('r.seen_at').orderBy('r.id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** How many users the review lists, counted up to `limit`. */
export async function countIdle(db: DB, actor: Actor, limit: number): Promise<number> {
  requireChange(actor);
  const { n } = await db
    .selectFrom(idleScope(db, actor, idleSince(now())).select('r.id').limit(limit).as('c'))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return n;
}

/**
 * How many the review's "todos" speaks of, given a page of it: the page's own total, which stops at
 * COUNT_LIMIT, else counted on up to one past the bulk actions' bound (enough to say "more than").
 */
export const idleTotal = (db: DB, actor: Actor, page: KeysetPage<IdleUser>): Promise<number> =>
  page.total !== undefined ? Promise.resolve(page.total) : countIdle(db, actor, BULK_LIMITS.filtered + 1);

/** Those of `ids` who are idle now and in the actor's scope. */
export async function idleAmong(db: DB, actor: Actor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await idleScope(db, actor, idleSince(now()))
    .select('r.id')
    .where('r.id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The condition of a review's deactivation, asked inside the change with the user's row locked: still
 * ATIVO or PENDENTE, and no sign-in for IDLE_DAYS — else refused (a sign-in a second before is seen);
 * the log's detail says for how long.
 */
async function stillIdle(trx: DB, userId: number): Promise<string> {
  const at = now();
  const row = await trx
    .selectFrom('users')
    .select(['status', sql<Date>`coalesce(last_access_at, created_at)`.as('seen_at')])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  const seen = row && new Date(row.seen_at);
  if (!row || !seen || (row.status !== 'ATIVO' && row.status !== 'PENDENTE') || seen >= idleSince(at))
    throw conflict(ACCESS_REVIEW_MESSAGES.notIdle);
  return ACCESS_REVIEW_MESSAGES.detail(Math.max(IDLE_DAYS, idleDays(seen, at)));
}

/** Deactivates one user of the review, if still idle at that moment (every rule of a manual deactivation besides). */
export const deactivateIfIdle = (db: DB, actor: Actor, id: number, ip: string | null): Promise<SavedUser> =>
  setUserStatus(db, actor, id, 'inativo', ip, stillIdle);

/**
 * Deactivates the users given who are still idle and in the actor's administration, each on its own
 * (one refused — the last administrator, or one who signed in meanwhile — leaves the others done).
 */
export async function deactivateIdle(
  db: DB,
  actor: Actor,
  ids: readonly number[],
  ip: string | null,
): Promise<{ deactivated: number; refused: { id: number; message: string }[] }> {
  requireChange(actor);
  const idle = await idleAmong(db, actor, ids);
  const managed = new Set((await manageableAmong(db, actor, [...idle])).map((u) => u.id));
  let deactivated = 0;
  const refused: { id: number; message: string }[] = [];
  for (const id of new Set(ids)) {
    // Not idle any more, or not theirs: said the same way (nothing is told of a user outside the scope).
    if (!idle.has(id) || !managed.has(id)) {
      refused.push({ id, message: ACCESS_REVIEW_MESSAGES.notIdle });
      continue;
    }
    try {
      await deactivateIfIdle(db, actor, id, ip);
      deactivated += 1;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused.push({ id, message: error.message });
    }
  }
  return { deactivated, refused };
}
