import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import type { Database, ProposalsTable } from '../../db/schema';
import type { WorklistItem, WorklistKind, windowsOf } from '../../../lib/worklist';
import { stepPath, type QuoteStep } from '../../../lib/quote-flow';
import type { ProductLine } from '../../../lib/simulators';
import { embeddedQuoteHref } from '../../../lib/embedded-apps';

/*
 * What every kind of the worklist is made of (services/reporting/worklist.ts): the reading's context,
 * an item's key and `since` worked out in SQL, and a branch read as the page or the count needs it.
 */

const ZONE = 'America/Sao_Paulo';

export interface Context {
  generation: 'v1' | 'v2';
  userId: number;
  now: Date;
  w: ReturnType<typeof windowsOf>;
  /** Read so far: items that became what they are after this, and not read one by one, are new. */
  readAllAt: Date | null;
  /** Whether the viewer may open a page (the menus' guards): a link goes only where it opens. */
  opens: (href: string) => boolean;
}

/** `kind:id:version`, the version being `since` in milliseconds (lib/worklist.ts itemKey). */
export const keyOf = (kind: WorklistKind, id: Expression<number>, since: RawBuilder<Date> | Expression<Date>) =>
  sql<string>`${kind} || ':' || ${id} || ':' || floor(extract(epoch from ${since}) * 1000)::bigint`;

/** A Brasília day as the instant it starts. */
export const dayStart = (day: RawBuilder<string>) => sql<Date>`(${day})::timestamp at time zone ${ZONE}`;

/** Only what is new: after the "all read" mark and not read one by one. */
const newOnly = (ctx: Context, key: RawBuilder<string>, since: RawBuilder<Date> | Expression<Date>): Expression<SqlBool> =>
  sql<SqlBool>`(${ctx.readAllAt === null ? sql`true` : sql`${since} > ${ctx.readAllAt}`} and not exists (select 1 from worklist_reads wr where wr.user_id = ${ctx.userId} and wr.item_key = ${key}))`;

// ---------------------------------------------------------------------------------------------
// The kinds: each a list of branch queries (one per branch of its scope), each read in its kind's
// order and cut at its limit. The page's select `k`, `since` and what the item shows (joining what
// names it); the count's only the keys of the new ones, without those joins — at 1000× the demo its
// one statement of ~20 branches costs mostly the planning of each join. A notice is an item only
// while new, on the page too.
// ---------------------------------------------------------------------------------------------

export interface Row {
  k: string;
  since: Date;
  id: number;
  [column: string]: unknown;
}

export type Branch = { execute(): Promise<Row[]> } & Expression<unknown>;

export type Reading = 'page' | 'count';

export interface KindReader {
  kind: WorklistKind;
  /**
   * The one page every item of the kind opens, where there is one: the kind is the viewer's only when
   * that page lets them in (its route guard), so the bell never counts what its link refuses.
   */
  page?: (generation: 'v1' | 'v2') => string;
  branches(db: DB, ctx: Context, reading: Reading): Branch[];
  item(row: Row, ctx: Context): Omit<WorklistItem, 'kind' | 'key' | 'since' | 'isNew'>;
}

/** A branch as `reading` needs it: the count, only the key of what is new; the page, what `display` selects. */
// biome-ignore lint/suspicious/noExplicitAny: any kind's table and joins.
export function branchOf<QB extends SelectQueryBuilder<any, any, any>>(
  reading: Reading,
  ctx: Context,
  base: QB,
  key: { k: RawBuilder<string>; since: RawBuilder<Date>; notice?: boolean },
  display: (qb: QB) => Expression<unknown>,
): Branch {
  const wanted = (reading === 'count' || key.notice ? base.where(newOnly(ctx, key.k, key.since)) : base) as QB;
  return (reading === 'count' ? wanted.select(key.k.as('k')) : display(wanted)) as unknown as Branch;
}

const lineOf = (row: Row) => row.line as ProductLine;

/** A quote's own page, as the history opens it (quote-history.ts): read-only once sent or expired. */
export function quoteHref(generation: 'v1' | 'v2', row: Row, sent: boolean): string {
  const action = sent ? 'visualizar' : 'editar';
  return (
    (generation === 'v1' && embeddedQuoteHref(row.simulator_code as string, row.nr_cotacao as string, row.etapa as string, action)) ||
    stepPath(generation, lineOf(row), row.etapa as QuoteStep, row.nr_cotacao as string, { action, sent, pinned: true })
  );
}

/** A proposal's branch joined to what names its sale in an item (whoseOfSale): the insured, the company, the seller. */
export const withSaleNames = <O>(qb: SelectQueryBuilder<Database & { p: ProposalsTable }, 'p', O>) =>
  qb
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .leftJoin('companies as c', 'c.id', 'p.company_id')
    .innerJoin('users as u', 'u.id', 'p.seller_id')
    .select(['q.nome_segurado', 'c.razao_social as company', 'u.nome as seller']);

export const whoseOfSale = (row: Row) =>
  [row.nome_segurado as string, row.company as string | null, row.seller as string | null].filter(Boolean) as string[];
