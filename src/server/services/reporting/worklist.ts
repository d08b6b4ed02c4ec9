import { sql } from 'kysely';
import type { DB } from '../../db';
import { now as clockNow } from '../../clock';
import { announce } from '../../cache';
import { isInsurerStaff, type SessionViewer } from '../../../lib/session';
import {
  groupItems,
  NEW_COUNT_CAP,
  WORKLIST_KIND_LIMIT,
  WORKLIST_KINDS,
  windowsOf,
  type WorklistGroup,
  type WorklistItem,
  type WorklistKind,
} from '../../../lib/worklist';
import { pageAccess } from '../../../lib/route-guards';
import { config } from '../../config';
import { commissionScopeFor, quoteScopeFor, scopeFor } from '../identity/scope';
import type { Context, KindReader } from './worklist-reader';
import { analysisKind, decisionsKind, documentsKind, expiringQuotesKind } from './worklist-sales';
import { overdueKind, refundsKind, renewalsKind } from './worklist-policies';
import { importsKind, notasKind, reportsKind } from './worklist-notices';

/*
 * The worklist (issue 31; rules in lib/worklist.ts): what waits for a user's action, each kind read
 * through the scope the page that shows its record uses — proposals and quotes the history's
 * (quoteScopeFor), policies renewals the policies' (APOLICES), overdue installments the 2ª via's
 * (BOLETOS), notas fiscais the commissions' (commissionScopeFor), a report or an import its owner's —
 * and, for the insurer's staff, the acceptance queue and the refunds to pay. Each kind is read as the
 * scope's disjoint branches, each in its index's order within its window and cut at the kind's limit
 * (migrations 037 and 042: the proposals and installments carry their sale's scope), so neither the page
 * nor the bell's count grows with the book.
 *
 * An item's key and its `since` (the instant it became what it is) are worked out in SQL, once: the
 * count filters the new ones there, the page marks them.
 */

// ---------------------------------------------------------------------------------------------

/**
 * Whether the viewer may open a page: one of their generation's (the middleware's gate) that the routes'
 * guards let them into (lib/route-guards.ts, which knows only its own generation's paths).
 */
const opensFor = (viewer: SessionViewer) => (href: string) => {
  const path = href.split('?')[0]!;
  return path.startsWith('/v2/') === (viewer.generation === 'v2') && pageAccess(path, viewer, config().PORTAL_ENV) === 'allowed';
};

/**
 * The kinds a viewer has, each with the scope its page uses; a kind whose page refuses the viewer is
 * none of theirs (issue 42: the bell counts only what its link opens) — so the acceptance queue and the
 * refunds queue are the staff's because their pages' guards say so, and no nota fiscal is counted where
 * the commission pages do not exist (production).
 */
async function kindsOf(db: DB, viewer: SessionViewer): Promise<KindReader[]> {
  const [quotes, policies, boletos, notas] = await Promise.all([
    quoteScopeFor(db, viewer),
    scopeFor(db, viewer, 'APOLICES'),
    scopeFor(db, viewer, 'BOLETOS'),
    commissionScopeFor(db, viewer),
  ]);
  // The insurer's staff made the decisions the partners are told of (proposals, notas fiscais): no notice to itself.
  const toldOfDecisions = !isInsurerStaff(viewer);
  const kinds = [
    documentsKind(quotes),
    ...(toldOfDecisions ? [decisionsKind(quotes)] : []),
    overdueKind(boletos),
    renewalsKind(policies),
    // Only the seller continues a quote (decision 029): a manager's or the insurer's bell does not count their team's.
    expiringQuotesKind({ kind: 'own', userId: viewer.user.idUsuario }),
    reportsKind,
    ...(toldOfDecisions ? [notasKind(notas)] : []),
    importsKind,
    analysisKind,
    refundsKind(policies),
  ];
  const opens = opensFor(viewer);
  return kinds.filter((kind) => !kind.page || opens(kind.page(viewer.generation)));
}

async function contextOf(db: DB, viewer: SessionViewer, now: Date): Promise<Context> {
  const userId = viewer.user.idUsuario;
  const seen = await db.selectFrom('worklist_seen').select('all_read_at').where('user_id', '=', userId).executeTakeFirst();
  return {
    generation: viewer.generation,
    userId,
    now,
    w: windowsOf(now),
    readAllAt: seen ? new Date(seen.all_read_at) : null,
    opens: opensFor(viewer),
  };
}

/**
 * How many items this viewer has not read: one statement, each branch of each kind cut at its limit,
 * counted no further than NEW_COUNT_CAP + 1 (the bell says 99+). Asked by the live stream
 * (api/live-worklist.ts), not by every page: at 1000× the demo it costs 20–60 ms, mostly planning the
 * branches (decision 067). A given `now` (tests) reads at that instant.
 */
export async function worklistNewCount(db: DB, viewer: SessionViewer, now?: Date): Promise<number> {
  return countNew(db, viewer, now ?? clockNow());
}

async function countNew(db: DB, viewer: SessionViewer, now: Date): Promise<number> {
  const [kinds, ctx] = await Promise.all([kindsOf(db, viewer), contextOf(db, viewer, now)]);
  const branches = kinds.flatMap((kind) => kind.branches(db, ctx, 'count'));
  if (branches.length === 0) return 0;
  const union = sql.join(
    branches.map((b) => sql`(select x.k from (${b}) x)`),
    sql` union all `,
  );
  const row = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from (${union}) u limit ${NEW_COUNT_CAP + 1}) c`.execute(db);
  return row.rows[0]?.n ?? 0;
}

/** The viewer's worklist, grouped and ordered (lib/worklist.ts), optionally one kind only. */
export async function worklist(db: DB, viewer: SessionViewer, options: { kind?: WorklistKind; now?: Date } = {}): Promise<WorklistGroup[]> {
  const now = options.now ?? clockNow();
  const [all, ctx] = await Promise.all([kindsOf(db, viewer), contextOf(db, viewer, now)]);
  const kinds = options.kind ? all.filter((k) => k.kind === options.kind) : all;
  const read = await Promise.all(
    kinds.map(async (kind) => {
      const rows = (await Promise.all(kind.branches(db, ctx, 'page').map((b) => b.execute()))).flat();
      return rows.map((row) => ({ kind, row }));
    }),
  );
  const found = read.flat();
  const keys = found.map((f) => f.row.k);
  const readKeys = new Set(
    keys.length === 0
      ? []
      : (
          await db.selectFrom('worklist_reads').select('item_key').where('user_id', '=', ctx.userId).where('item_key', 'in', keys).execute()
        ).map((r) => r.item_key),
  );
  const items: WorklistItem[] = found.map(({ kind, row }) => {
    const since = new Date(row.since);
    return {
      kind: kind.kind,
      key: row.k,
      since: since.toISOString(),
      // A notice is read only while new (its branch keeps only those); an action is new as lib/worklist.ts says.
      isNew: WORKLIST_KINDS[kind.kind].notice || ((ctx.readAllAt === null || since > ctx.readAllAt) && !readKeys.has(row.k)),
      ...kind.item(row, ctx),
    };
  });
  // Two branches of a scope are disjoint; the kind's limit holds for the whole kind.
  return groupItems(items).map((g) => ({ ...g, items: g.items.slice(0, WORKLIST_KIND_LIMIT) }));
}

/** Marks one item read for the viewer (a key of lib/worklist.ts parseItemKey); again is nothing. */
export async function markRead(db: DB, userId: number, key: string, now: Date = clockNow()): Promise<void> {
  await db
    .insertInto('worklist_reads')
    .values({ user_id: userId, item_key: key, read_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'item_key']).doNothing())
    .execute();
  // The memoized home and the live stream hear it at once here; other instances hear migration 037's notice.
  announce(db, { kind: 'user', userId });
}

/** Marks everything read up to now: one mark, and the item-by-item rows it makes needless go. */
export async function markAllRead(db: DB, userId: number, now: Date = clockNow()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('worklist_seen')
      .values({ user_id: userId, all_read_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ all_read_at: now }))
      .execute();
    await trx.deleteFrom('worklist_reads').where('user_id', '=', userId).where('read_at', '<=', now).execute();
  });
  announce(db, { kind: 'user', userId });
}
