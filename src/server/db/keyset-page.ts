import { sql, type Expression, type SelectQueryBuilder } from 'kysely';
import type { DB } from './index';
import { exactInstant, pastKey } from './keyset';
import { COUNT_LIMIT, lastPlainPage, type KeysetPage, type PageRequest, type RowKey } from '../../lib/keyset-pages';

/*
 * Reads a keyset page (lib/keyset-pages.ts) of a list ordered by (instant, id): newest first, or — a
 * queue by its deadline — soonest first (`order: 'asc'`). A scope
 * that is a union — "my own sales, or my companies'" — comes as branches, one select per index: each
 * branch reads at most the rows the page needs in its index's order, and the page is the top of their
 * union. An OR of the branches would make the database fetch and sort the whole scope instead (issue 29).
 */

// biome-ignore lint/suspicious/noExplicitAny: a branch of any list; its rows are typed by `columns`.
type Branch = SelectQueryBuilder<any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: the tables a branch joins are its own; only its rows matter here.
type Selecting<Row> = SelectQueryBuilder<any, any, Row>;

export interface KeysetList<Row> {
  /** The scope's branches (disjoint: a row in one is in no other), filtered, nothing selected yet. */
  branches: Branch[];
  /** The instant and id columns of the order, as the branches name them (`a.emitida_em`, `a.id`). */
  time: string;
  id: string;
  /** What a row shows: joins and columns added to a branch. */
  columns: (branch: Branch) => Selecting<Row>;
  /** The page's order by (time, id): newest first unless told (a queue reads its soonest deadline first). */
  order?: 'asc' | 'desc';
  /**
   * How many rows the branches hold, when the list knows it already (a report's totals per product
   * add up to its period's count): no count is read then. Else the branches are counted up to
   * COUNT_LIMIT + 1. Either way a page shows the total only within COUNT_LIMIT.
   */
  count?: () => Promise<number>;
}

type Keyed<Row> = Row & { page_time: string; page_id: number };

/** The rows of a page, the keys around it, whether more follow and — up to COUNT_LIMIT — how many in all. */
export async function readKeysetPage<Row>(db: DB, list: KeysetList<Row>, request: PageRequest, pageSize: number): Promise<KeysetPage<Row>> {
  const { cursor } = request;
  const page = cursor ? request.page : Math.min(request.page, lastPlainPage(pageSize));
  if (list.branches.length === 0) return { content: [], page: 1, pageSize, more: false, total: 0 };
  // 'after' (or no cursor) reads on in the page's order; 'before' reads back towards page 1.
  const forward = cursor?.direction !== 'before';
  const listOrder = list.order ?? 'desc';
  const order = forward ? listOrder : listOrder === 'desc' ? 'asc' : 'desc';
  const skip = (cursor ? cursor.skip : page - 1) * pageSize;
  const [rows, counted] = await Promise.all([
    rowsOf(db, list, { cursor: cursor?.from, order, skip, take: pageSize + 1 }),
    page === 1 && !cursor ? undefined : countOf(db, list),
  ]);
  // A stale cursor (its rows gone) or a plain page past the end: the first page, or the last one counted.
  if (rows.length === 0 && page > 1) {
    const lastPage = counted ? Math.ceil(counted / pageSize) : 0;
    return readKeysetPage(db, list, { page: lastPage > 1 && !cursor ? lastPage : 1 }, pageSize);
  }
  if (!forward && rows.length < pageSize) return readKeysetPage(db, list, { page: 1 }, pageSize);
  const shown = forward ? rows.slice(0, pageSize) : rows.slice(0, pageSize).reverse();
  const more = forward ? rows.length > pageSize : true;
  const total = counted ?? (await totalOfFirstPage(db, list, shown.length, more));
  const keyOf = (row: Keyed<Row> | undefined): RowKey | undefined => row && { time: row.page_time, id: Number(row.page_id) };
  return {
    content: shown.map(({ page_time: _time, page_id: _id, ...row }) => row as Row),
    page,
    pageSize,
    first: keyOf(shown[0]),
    last: keyOf(shown[shown.length - 1]),
    more,
    total: total !== undefined && total <= COUNT_LIMIT ? total : undefined,
  };
}

/** A list searched by a name (issue 42): how close each row is to what was typed, and the column its page's rows are fetched by. */
export interface RankedList<Row> extends KeysetList<Row> {
  /** Higher is closer: an expression over the branches' columns (pg_trgm's similarity of the name). */
  rank: Expression<number>;
  /** The column that names a row for fetching what it shows (default `id`): one an index finds. */
  key?: string;
}

type Candidate = { page_time: Date; page_id: number | string; page_key: number | string };

/**
 * A page of the rows a name search finds (issue 42): at most `limit` + 1 of the branches' matches are
 * read — each branch unordered, so the database takes them as the trigram index finds them and stops
 * (a common name matches thousands in a large book: in the list's order it had to read them all) —,
 * ranked by `rank`, newest first among equals, and the first `limit` kept; `ranked.exceeded` when there
 * were more. The page is a slice of them by its number (no cursor: they are read again at each page),
 * and only its rows are joined to what they show. A page past the last shows the last.
 */
export async function readRankedPage<Row>(
  db: DB,
  list: RankedList<Row>,
  requested: number,
  pageSize: number,
  limit: number,
): Promise<KeysetPage<Row>> {
  const ranked = { limit, exceeded: false };
  if (list.branches.length === 0) return { content: [], page: 1, pageSize, more: false, total: 0, ranked };
  const key = list.key ?? list.id;
  const branches = list.branches.map((branch, i) =>
    db
      .selectFrom(
        branch
          .select([
            sql.ref(list.time).as('page_time'),
            sql.ref(list.id).as('page_id'),
            sql.ref(key).as('page_key'),
            sql<number>`${list.rank}`.as('page_rank'),
          ])
          .limit(limit + 1)
          .as(`m${i}`),
      )
      .selectAll(),
  );
  const found = (await db
    .selectFrom(branches.reduce((all, next) => all.unionAll(next)).as('matches'))
    .select(['page_time', 'page_id', 'page_key'])
    .orderBy('page_rank', 'desc')
    .orderBy('page_time', 'desc')
    .orderBy('page_id', 'desc')
    .limit(limit + 1)
    .execute()) as Candidate[];
  ranked.exceeded = found.length > limit;
  const kept = found.slice(0, limit);
  const page = Math.min(Math.max(requested, 1), Math.max(1, Math.ceil(kept.length / pageSize)));
  const shown = kept.slice((page - 1) * pageSize, page * pageSize);
  const base = { page, pageSize, more: page * pageSize < kept.length, total: kept.length, ranked };
  if (shown.length === 0) return { ...base, content: [] };
  const keys = shown.map((row) => row.page_key);
  const fetched = list.branches.map((branch) => list.columns(branch).select(sql.ref(key).as('page_key')).where(sql.ref(key), 'in', keys));
  const rows = (await fetched.reduce((all, next) => all.unionAll(next)).execute()) as (Row & { page_key: number | string })[];
  const byKey = new Map(rows.map(({ page_key, ...row }) => [String(page_key), row as Row]));
  return { ...base, content: keys.flatMap((k) => byKey.get(String(k)) ?? []) };
}

/**
 * A batch of rows in the list's order after a key (none: from the start), with the key of its last
 * row — an export streaming the whole list, uncounted, each batch through the branches' indexes.
 */
export async function readBatch<Row>(
  db: DB,
  list: KeysetList<Row>,
  after: RowKey | undefined,
  take: number,
): Promise<{ rows: Row[]; last?: RowKey }> {
  if (list.branches.length === 0) return { rows: [] };
  const rows = await rowsOf(db, list, { cursor: after, order: list.order ?? 'desc', skip: 0, take });
  const end = rows.at(-1);
  return {
    rows: rows.map(({ page_time: _time, page_id: _id, ...row }) => row as Row),
    last: end && { time: end.page_time, id: Number(end.page_id) },
  };
}

/** Page 1 knows its total when it holds every row; else the list's count. */
const totalOfFirstPage = <Row>(db: DB, list: KeysetList<Row>, shown: number, more: boolean) =>
  more ? countOf(db, list) : Promise.resolve(shown);

/** The list's own count when it has one, else the bounded count. */
const countOf = <Row>(db: DB, list: KeysetList<Row>) => (list.count ? list.count() : countUpTo(db, list));

async function rowsOf<Row>(
  db: DB,
  list: KeysetList<Row>,
  at: { cursor?: RowKey; order: 'asc' | 'desc'; skip: number; take: number },
): Promise<Keyed<Row>[]> {
  const { order } = at;
  const branches = list.branches.map((branch) =>
    list
      .columns(branch)
      .select([exactInstant(list.time).as('page_time'), sql.ref(list.id).as('page_id')])
      .$if(at.cursor !== undefined, (qb) =>
        qb.where(pastKey(list.time, list.id, at.cursor!, order)).where(pastInstant(list.time, at.cursor!, order)),
      )
      .orderBy(list.time, order)
      .orderBy(list.id, order),
  );
  if (branches.length === 1) return (await branches[0]!.offset(at.skip).limit(at.take).execute()) as Keyed<Row>[];
  // Each branch brings what the page could need of it; the union's top is the page.
  const limited = branches.map((branch, i) => db.selectFrom(branch.limit(at.skip + at.take).as(`b${i}`)).selectAll());
  const union = limited.reduce((all, next) => all.unionAll(next));
  return (await db
    .selectFrom(union.as('page'))
    .selectAll()
    .orderBy('page_time', order)
    .orderBy('page_id', order)
    .offset(at.skip)
    .limit(at.take)
    .execute()) as Keyed<Row>[];
}

/**
 * The key's instant alone, as far as the cursor: implied by pastKey, said again for a key whose id is
 * another table's (an installment of a policy): that row comparison is a join's condition, this one
 * bounds the scan of the instant's index.
 */
const pastInstant = (timeColumn: string, key: RowKey, order: 'asc' | 'desc') =>
  order === 'asc'
    ? sql<boolean>`${sql.ref(timeColumn)} >= ${key.time}::timestamptz`
    : sql<boolean>`${sql.ref(timeColumn)} <= ${key.time}::timestamptz`;

/**
 * How many rows the branches hold, counted no further than COUNT_LIMIT + 1 (past it, the page says
 * "mais de"). Each branch counts in the list's order, so the database reads its index from the top
 * and stops at the bound: unordered, a LIMIT lets it choose a scan of the whole table that it hopes
 * ends early, or a hash join that reads every row of the other side first.
 */
async function countUpTo<Row>(db: DB, list: KeysetList<Row>): Promise<number> {
  const cap = COUNT_LIMIT + 1;
  const order = list.order ?? 'desc';
  const bounded = list.branches.map((branch, i) =>
    db.selectFrom(branch.select(sql`1`.as('one')).orderBy(list.time, order).orderBy(list.id, order).limit(cap).as(`c${i}`)).select('one'),
  );
  // The union's own limit stops reading the next branch once enough rows are counted.
  const union = db
    .selectFrom(bounded.reduce((all, next) => all.unionAll(next)).as('branches'))
    .select('one')
    .limit(cap);
  const row = await db.selectFrom(union.as('counted')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
