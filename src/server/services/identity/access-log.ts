import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import { stringify } from 'csv-stringify';
import type { DB } from '../../db';
import { readBatch, readKeysetPage } from '../../db/keyset-page';
import type { Generation } from '../../db/schema';
import { now } from '../../clock';
import { principalFacts } from './principals';
import { actingCompanyId, soldWithin } from './scope';
import { containing, worksForAny } from './users';
import {
  ACCESS_LOG_CSV_COLUMNS,
  accessLogCsvRecord,
  accessLogRow,
  DATA_VIEWS,
  describeFilters,
  isSaleRecord,
  recordList,
  recordsText,
  SALE_RECORD_KINDS,
  SECURITY_EVENTS,
  type AccessEventCode,
  type AccessLogFilters,
  type AccessLogRow,
  type InsuredDataView,
  type RecordKind,
  type SaleRecordKind,
} from '../../../lib/access-log';
import type { Scope } from '../../../lib/scope';
import { startOfBrasiliaDay, startOfNextBrasiliaDay } from '../../../lib/calendar';
import type { KeysetPage, PageRequest, RowKey } from '../../../lib/keyset-pages';
import { REPORT_CSV_OPTIONS } from '../../../lib/sales-reports';
import { SIGN_IN_EVENTS } from '../../../lib/user-page';
import { normalizeCnpj } from '../../../lib/validators';
import type { SessionViewer } from '../../../lib/session';

/*
 * The access log (issue 17, decision 049): every row of access_events is written here — sign-ins and
 * sign-outs, password and first-access events, user and permission changes, each view or export of an
 * insured's data — read here for /v2/log-acesso, its CSV and GET /api/bff/v1/log-acesso, and purged
 * here when older than ACCESS_LOG_RETENTION_DAYS. The table is append-only (migration 019's trigger).
 */

export interface AccessEvent {
  event: AccessEventCode;
  generation: Generation;
  /** The user's e-mail, or the one typed at a refused sign-in. */
  email: string;
  userId: number | null;
  /** Who did it, when it was not the user themself (an administrator). */
  actorId?: number | null;
  ip: string | null;
  detalhe?: string | null;
  /** The company it happened for; left out, the user's own company. */
  companyId?: number | null;
  registroTipo?: RecordKind;
  registro?: string | null;
}

/**
 * One row, one INSERT — inside the caller's transaction when there is one, so a change and its row
 * commit together. The time is the portal's clock (server/clock.ts), as every other record's.
 */
export async function appendAccessEvent(db: DB, event: AccessEvent): Promise<void> {
  const company =
    event.companyId !== undefined
      ? sql<number | null>`${event.companyId}::int`
      : event.userId !== null
        ? sql<number | null>`(select company_id from users where id = ${event.userId})`
        : sql<number | null>`null`;
  await db
    .insertInto('access_events')
    .values({
      event: event.event,
      generation: event.generation,
      email: event.email,
      user_id: event.userId,
      actor_id: event.actorId ?? null,
      ip: event.ip,
      detalhe: event.detalhe ?? null,
      company_id: company,
      registro_tipo: event.registroTipo ?? null,
      registro: event.registro ?? null,
      created_at: now(),
    })
    .execute();
}

/**
 * The sale records a row may name (lib/access-log.ts SALE_RECORD_KINDS): the table each is read from as
 * `s`, its seller's column, and how `s` is the record numbered `nr`. Each table carries its sale's
 * company and generation (kept by the database for proposals and documents, migrations 035 and 042).
 */
const SALE_RECORDS: Record<
  SaleRecordKind,
  { table: 'policies' | 'quotes' | 'proposals' | 'documents'; seller: string; names: (nr: RawBuilder<string>) => RawBuilder<boolean> }
> = {
  APOLICE: { table: 'policies', seller: 'user_id', names: (nr) => sql`s.nr_apolice = ${nr}` },
  COTACAO: { table: 'quotes', seller: 'user_id', names: (nr) => sql`s.nr_cotacao = ${nr}` },
  PROPOSTA: { table: 'proposals', seller: 'seller_id', names: (nr) => sql`s.nr_proposta = ${nr}` },
  // A document is named by its id: text that is no id names none (never a failed cast).
  DOCUMENTO: { table: 'documents', seller: 'seller_id', names: (nr) => sql`s.id = case when ${nr} ~ '^[0-9]{1,9}$' then ${nr}::int end` },
};

/**
 * A row naming records, filed under each record's own company (issue 42, decision 072): a partner
 * administrator acting for Vale Verde who opens a Horizonte policy did it in Horizonte's books, and the
 * insurer's log filtered by company must find it there. One INSERT: the records of one company make one
 * row, so a lookup that found policies of two companies writes two. `acting` — the company the user
 * acted for — is kept where no sale says otherwise: a kind that is no sale's, a record not found.
 */
async function appendRecordEvent(
  db: DB,
  event: Omit<AccessEvent, 'companyId' | 'registro' | 'actorId'> & { registroTipo: RecordKind },
  records: string | readonly string[],
  acting: number | null,
): Promise<void> {
  const list = recordList(records);
  if (!isSaleRecord(event.registroTipo) || list.length === 0)
    return appendAccessEvent(db, { ...event, companyId: acting, registro: recordsText(list) });
  const sale = SALE_RECORDS[event.registroTipo];
  await sql`
    insert into access_events (event, generation, email, user_id, ip, detalhe, company_id, registro_tipo, registro, created_at)
    select ${event.event}::text, ${event.generation}::text, ${event.email}::text, ${event.userId}::int, ${event.ip}::text,
      ${event.detalhe ?? null}::text, x.owner, ${event.registroTipo}::text, string_agg(x.nr, ', ' order by x.ord), ${now()}::timestamptz
    from (
      select r.nr, r.ord, case when s.id is null then ${acting}::int else s.company_id end as owner
      from unnest(${list}::text[]) with ordinality as r (nr, ord)
      left join ${sql.table(sale.table)} as s on ${sale.names(sql.ref('r.nr'))}
    ) as x
    group by x.owner
    order by min(x.ord)`.execute(db);
}

/**
 * A view or an export of an insured's personal data (lib/access-log.ts DATA_VIEWS) by a signed-in
 * viewer: who (user, generation), when, from where (the client address the request pipeline resolved),
 * which record(s) and whose books they are in (the record's company; decision 072). The viewer's facts
 * come from the principal cache the pipeline filled: the INSERT is the only statement.
 */
export async function recordDataAccess(
  db: DB,
  viewer: SessionViewer,
  ip: string,
  view: InsuredDataView,
  records: string | readonly string[],
  more?: string,
): Promise<void> {
  const { event, record, detalhe } = DATA_VIEWS[view];
  const facts = await principalFacts(db, viewer.user.idUsuario);
  await appendRecordEvent(
    db,
    {
      event,
      generation: viewer.generation,
      email: viewer.user.email,
      userId: viewer.user.idUsuario,
      ip,
      detalhe: more ? `${detalhe}: ${more}` : detalhe,
      registroTipo: record,
    },
    records,
    actingCompanyId(viewer, facts),
  );
}

/** The policy's PDF opened with the link e-mailed to the insured, who has no account (decision 035): the policy's company. */
export async function recordInsuredLinkAccess(
  db: DB,
  generation: Generation,
  nrApolice: string,
  ip: string,
  // Issue 31: the boleto link too, naming its installment.
  view: 'apolice.link-segurado' | 'boleto.link-segurado' = 'apolice.link-segurado',
  more?: string,
): Promise<void> {
  const { event, record, detalhe: what } = DATA_VIEWS[view];
  const detalhe = more ? `${what}: ${more}` : what;
  await appendRecordEvent(db, { event, generation, email: '', userId: null, ip, detalhe, registroTipo: record }, nrApolice, null);
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

type Events = ReturnType<typeof eventsOf>;

/** The period and the filters the row itself answers (event, record), on access_events alone. */
const eventsOf = (db: DB, filters: AccessLogFilters) =>
  db
    .selectFrom('access_events as e')
    .where('e.created_at', '>=', startOfBrasiliaDay(filters.de))
    .where('e.created_at', '<', startOfNextBrasiliaDay(filters.ate))
    .$if(filters.evento !== undefined, (qb) => qb.where('e.event', '=', filters.evento!))
    .$if(filters.registro !== undefined, (qb) =>
      qb.where(sql<boolean>`string_to_array(e.registro, ', ') @> array[${filters.registro!}::text]`),
    );

/** Up to this many users or companies a filter names, each reads its own index; past it, one read of them all. */
const BRANCHES_PER_FILTER = 30;

/** The users whose name or e-mail holds the text (users do not grow with the log: a plain scan). */
const usersNamed = async (db: DB, text: string) =>
  (
    await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('email', 'ilike', containing(text)), eb('nome', 'ilike', containing(text))]))
      .execute()
  ).map((r) => r.id);

/** The companies whose name, trade name or CNPJ (with or without its mask) holds the text. */
const companiesNamed = async (db: DB, text: string) => {
  const pattern = containing(text);
  const cnpj = containing(normalizeCnpj(text));
  return (
    await db
      .selectFrom('companies')
      .select('id')
      .where((eb) => eb.or([eb('razao_social', 'ilike', pattern), eb('nome_fantasia', 'ilike', pattern), eb('cnpj', 'like', cnpj)]))
      .execute()
  ).map((r) => r.id);
};

/** A column equal to one of the ids: one branch per id while they are few (each an ordered index read), else one. */
const oneOf = (column: 'e.user_id' | 'e.company_id', ids: number[]) =>
  ids.length <= BRANCHES_PER_FILTER
    ? ids.map((id) => (qb: Events) => qb.where(column, '=', id))
    : [(qb: Events) => qb.where(column, 'in', ids)];

/**
 * The log of these filters as disjoint branches for a keyset page (db/keyset-page.ts, issue 29), each
 * read through an index ending in (created_at, id) — migration 032: the period alone, an event, a
 * company, a user. The text filters are resolved first against the small tables they name: a user
 * filter is the rows about one of the users whose name or e-mail holds it, the rows one of them did to
 * someone else, and the rows of no user (a refused sign-in) whose typed e-mail holds it; a company
 * filter, the rows of one of the companies whose name or CNPJ holds it.
 */
async function branchesOf(db: DB, filters: AccessLogFilters): Promise<Events[]> {
  let branches: Events[] = [eventsOf(db, filters)];
  if (filters.empresa) {
    const companies = await companiesNamed(db, filters.empresa);
    branches = branches.flatMap((branch) => oneOf('e.company_id', companies).map((only) => only(branch)));
  }
  if (filters.usuario) {
    const users = await usersNamed(db, filters.usuario);
    const pattern = containing(filters.usuario);
    branches = branches.flatMap((branch) => [
      ...oneOf('e.user_id', users).map((only) => only(branch)),
      ...(users.length > 0
        ? [branch.where('e.actor_id', 'in', users).where((eb) => eb.or([eb('e.user_id', 'is', null), eb('e.user_id', 'not in', users)]))]
        : []),
      branch
        .where('e.user_id', 'is', null)
        .where('e.email', 'ilike', pattern)
        .$if(users.length > 0, (qb) => qb.where((eb) => eb.or([eb('e.actor_id', 'is', null), eb('e.actor_id', 'not in', users)]))),
    ]);
  }
  return branches;
}

/** What a row of the log holds; the names it shows are looked up for the page's rows alone (`named`). */
const EVENT_COLUMNS = [
  'e.id',
  'e.created_at',
  'e.event',
  'e.generation',
  'e.email',
  'e.user_id',
  'e.actor_id',
  'e.company_id',
  'e.ip',
  'e.registro_tipo',
  'e.registro',
  'e.detalhe',
] as const;

/** The log of these filters as a keyset list, newest first: what a page and the CSV export read. */
const logOf = async (db: DB, filters: AccessLogFilters) => ({
  branches: await branchesOf(db, filters),
  time: 'e.created_at',
  id: 'e.id',
  columns: (branch: Events) => branch.select(EVENT_COLUMNS),
});

type EventRow = {
  id: number;
  created_at: Date | string;
  event: string;
  generation: string;
  email: string;
  user_id: number | null;
  actor_id: number | null;
  company_id: number | null;
  ip: string | null;
  registro_tipo: string | null;
  registro: string | null;
  detalhe: string | null;
};

/**
 * The rows as the log shows them, with the names of their users, authors and companies — read once
 * for the rows at hand, not joined in every branch of the page (a filter may make dozens).
 */
async function named(db: DB, rows: EventRow[]): Promise<AccessLogRow[]> {
  const userIds = [...new Set(rows.flatMap((r) => [r.user_id, r.actor_id]).filter((id): id is number => id !== null))];
  const companyIds = [...new Set(rows.map((r) => r.company_id).filter((id): id is number => id !== null))];
  const [users, companies] = await Promise.all([
    userIds.length > 0 ? db.selectFrom('users').select(['id', 'nome', 'email']).where('id', 'in', userIds).execute() : [],
    companyIds.length > 0 ? db.selectFrom('companies').select(['id', 'razao_social', 'cnpj']).where('id', 'in', companyIds).execute() : [],
  ]);
  const user = new Map(users.map((u) => [u.id, u]));
  const company = new Map(companies.map((c) => [c.id, c]));
  return rows.map((r) => {
    const author = r.actor_id === null ? undefined : user.get(r.actor_id);
    const at = r.company_id === null ? undefined : company.get(r.company_id);
    return accessLogRow({
      id: r.id,
      quando: new Date(r.created_at),
      evento: r.event,
      geracao: r.generation,
      email: r.email,
      usuarioId: r.user_id,
      usuarioNome: (r.user_id !== null && user.get(r.user_id)?.nome) || null,
      autorId: r.actor_id,
      autorNome: author?.nome ?? null,
      autorEmail: author?.email ?? null,
      empresaNome: at?.razao_social ?? null,
      empresaCnpj: at?.cnpj ?? null,
      ip: r.ip,
      registroTipo: r.registro_tipo,
      registro: r.registro,
      detalhe: r.detalhe,
    });
  });
}

/**
 * A keyset page of the log for these filters, newest first (lib/keyset-pages.ts): a page reads its rows
 * from where its link's cursor says, and the filters are counted no further than COUNT_LIMIT — at 1000×
 * the demo a month holds ~75,000 events, and a deep page skipped them all (issue 29).
 */
export async function listAccessLog(
  db: DB,
  filters: AccessLogFilters,
  request: PageRequest,
  pageSize: number,
): Promise<KeysetPage<AccessLogRow>> {
  const read = await readKeysetPage(db, await logOf(db, filters), request, pageSize);
  return { ...read, content: await named(db, read.content as EventRow[]) };
}

// ─── A user's history (issue 32; issue 42, decision 072) ─────────────────────────────────────────

/**
 * What a viewer may read of a user's history. `all`: the insurer's ADMIN and the legacy admin group —
 * whoever the log itself is for (decision 049). Anyone else reads the rows whose record or target is in
 * their own scope, and the user's sessions, sign-ins, password and second factor only when `security`
 * (they may manage the user).
 */
export type HistoryLens =
  | { kind: 'all' }
  | {
      kind: 'scoped';
      generation: Generation;
      /** The companies whose users and company changes the viewer administers (lib/user-admin.ts managedCompanies). */
      companyIds: readonly number[];
      /** The viewer's scope of each kind of sale record a row may name (services/identity/scope.ts). */
      records: Record<SaleRecordKind, Scope>;
      security: boolean;
    };
type ScopedLens = Extract<HistoryLens, { kind: 'scoped' }>;

/** Every record the row names (`e.registro`, '1, 2') is a sale of its kind within the scope. */
function recordsWithin(kind: SaleRecordKind, scope: Scope, generation: Generation) {
  const sale = SALE_RECORDS[kind];
  return sql<boolean>`(e.registro is not null and not exists (
    select 1 from unnest(string_to_array(e.registro, ', ')) as r (nr)
    where not exists (
      select 1 from ${sql.table(sale.table)} as s
      where ${sale.names(sql.ref('r.nr'))} and s.generation = ${generation}
        and ${soldWithin(scope, sql.ref(`s.${sale.seller}`), sql.ref('s.company_id'))}
    )))`;
}

/**
 * A row of `subject`'s history the scoped viewer may read (decision 072), by what the row is about:
 *   - a user's security (SECURITY_EVENTS): the subject's own, to a viewer who may manage them — what
 *     the subject did to someone else's security shows on that user's page, under that user's rule;
 *   - a sale record (a policy, quote, proposal, document): every one it names within the viewer's scope
 *     of its kind; any other record (an import, a report, a period): its company among the viewer's;
 *   - another user (what the subject did to them): one the viewer may see in the users list — same
 *     generation, a company in common;
 *   - the subject, done by someone else or by nobody (a grant that ended): the viewer sees the subject;
 *   - anything else the subject did (a company, a group, an export): its company among the viewer's.
 */
function readableBy(lens: ScopedLens, subject: number) {
  const companies = lens.companyIds.length > 0 ? sql<boolean>`e.company_id in (${sql.join(lens.companyIds)})` : sql<boolean>`false`;
  const saleRecords = sql.join(
    SALE_RECORD_KINDS.map((kind) => sql`when ${sql.lit(kind)} then ${recordsWithin(kind, lens.records[kind], lens.generation)}`),
    sql` `,
  );
  const security = sql.join(SECURITY_EVENTS.map((event) => sql.lit(event)));
  return sql<boolean>`((e.event not in (${security}) or ${lens.security ? sql`e.user_id = ${subject}` : sql`false`})
    and case
      when e.registro_tipo is not null then case e.registro_tipo ${saleRecords} else ${companies} end
      when e.user_id <> ${subject} then exists (
        select 1 from users u where u.id = e.user_id and u.generation = ${lens.generation} and ${worksForAny(lens.companyIds)})
      when e.user_id = ${subject} and e.actor_id is distinct from ${subject} then true
      else ${companies}
    end)`;
}

/**
 * One user's history for their page (issue 32, decision 069), newest first, keyset-paged: `entradas`
 * the sign-ins, refusals and exits of the user (migration 045's partial index), `registro` every row
 * about the user and every row they wrote about someone else or nobody — two disjoint branches, each
 * an index range (migration 032's user and actor indexes) — as far as the viewer's lens lets them read
 * (decision 072): a scoped viewer's rows are those indexes' rows, filtered.
 */
export async function listUserHistory(
  db: DB,
  userId: number,
  kind: 'entradas' | 'registro',
  request: PageRequest,
  pageSize: number,
  lens: HistoryLens,
): Promise<KeysetPage<AccessLogRow>> {
  const all = db.selectFrom('access_events as e');
  const branches =
    kind === 'entradas'
      ? // The events as literals: a parameter would keep the planner from the partial index.
        [all.where('e.user_id', '=', userId).where(sql<boolean>`e.event in (${sql.join(SIGN_IN_EVENTS.map((e) => sql.lit(e)))})`)]
      : [
          all.where('e.user_id', '=', userId),
          all.where('e.actor_id', '=', userId).where((eb) => eb.or([eb('e.user_id', 'is', null), eb('e.user_id', '!=', userId)])),
        ];
  const read = await readKeysetPage(
    db,
    {
      branches: lens.kind === 'all' ? branches : branches.map((branch) => branch.where(readableBy(lens, userId))),
      time: 'e.created_at',
      id: 'e.id',
      columns: (branch: Events) => branch.select(EVENT_COLUMNS),
    },
    request,
    pageSize,
  );
  return { ...read, content: await named(db, read.content as EventRow[]) };
}

/** When a user's first-access invitation was last cancelled, if that is the last thing done to their status. */
export async function invitationCancelledAt(db: DB, userId: number): Promise<Date | null> {
  const last = await db
    .selectFrom('access_events')
    .select(['event', 'created_at'])
    .where('user_id', '=', userId)
    .where('event', 'in', ['CONVITE_CANCELADO', 'USUARIO_REATIVADO', 'USUARIO_DESATIVADO', 'USUARIO_BLOQUEADO'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.event === 'CONVITE_CANCELADO' ? new Date(last.created_at) : null;
}

const EXPORT_BATCH = 1_000;

/** Every row of the filters, newest first, read in batches after the last one sent (keyset: time, id). */
async function* allRows(db: DB, filters: AccessLogFilters): AsyncGenerator<string[]> {
  const list = await logOf(db, filters);
  // Each batch after the last row sent, by its exact instant (db/keyset.ts) and id.
  let after: RowKey | undefined;
  for (;;) {
    const batch = await readBatch(db, list, after, EXPORT_BATCH);
    for (const row of await named(db, batch.rows as EventRow[])) yield accessLogCsvRecord(row);
    if (batch.rows.length < EXPORT_BATCH) return;
    after = batch.last;
  }
}

/**
 * The log of these filters as CSV (csv-stringify with the reports' options: BOM, ';', formulas
 * escaped), streamed in batches: the export itself is logged first, by whom and with which filters,
 * so a download cut short is still on record. A failure midway ends the stream with an error (a
 * truncated download, never a file that looks complete).
 */
export async function exportAccessLog(db: DB, viewer: SessionViewer, ip: string, filters: AccessLogFilters): Promise<Readable> {
  await appendAccessEvent(db, {
    event: 'LOG_ACESSO_EXPORTADO',
    generation: viewer.generation,
    email: viewer.user.email,
    userId: viewer.user.idUsuario,
    ip,
    detalhe: describeFilters(filters),
  });
  const csv = stringify({ ...REPORT_CSV_OPTIONS, header: true, columns: ACCESS_LOG_CSV_COLUMNS.map(([header]) => header) });
  pipeline(Readable.from(allRows(db, filters)), csv).catch(() => {
    // pipeline has already destroyed the stream with the error; the response ends there.
  });
  return csv;
}

// ─── Retention ───────────────────────────────────────────────────────────────────────────────────

const DAY_MS = 86_400_000;
const PURGE_BATCH = 5_000;

/**
 * One batch of the purge: the oldest rows before the cut-off, claimed through the created_at index,
 * deleted by their ids through the primary key. `= any(array(…))`, not `in (…)`: PostgreSQL plans an
 * `in` as a hash semi-join over a scan of the whole table — 900 ms a batch at 1000× the demo, 79 ms so.
 */
export const purgeBatch = (before: Date) =>
  sql`delete from access_events where id = any(array(
    select id from access_events where created_at < ${before} order by created_at, id limit ${PURGE_BATCH} for update skip locked
  ))`;

/**
 * Deletes the rows older than `retentionDays` (ACCESS_LOG_RETENTION_DAYS) in bounded batches, a batch
 * per transaction, so neither the table nor the embedded database's one connection is held for long:
 * each batch claims its PURGE_BATCH oldest rows through the created_at index (never a scan of the
 * table, issue 29) with SKIP LOCKED, so instances purging at once share the work, and deletes them by
 * id; between batches the purge yields, so the requests waiting for the connection go first. Each
 * transaction tells the append-only trigger the cut-off it may delete before (migration 019), for
 * itself alone. Returns how many went.
 */
export async function purgeAccessLog(db: DB, retentionDays: number, at: Date = now()): Promise<number> {
  const before = new Date(at.getTime() - retentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      await sql`select set_config('portal.access_log_purge_before', ${before.toISOString()}, true)`.execute(trx);
      const result = await purgeBatch(before).execute(trx);
      return Number(result.numAffectedRows ?? 0);
    });
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
    await yieldTurn();
  }
}
