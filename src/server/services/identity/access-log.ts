import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { stringify } from 'csv-stringify';
import type { DB } from '../../db';
import { exactInstant, pastKey } from '../../db/keyset';
import type { Generation } from '../../db/schema';
import { now } from '../../clock';
import { principalFacts } from './principals';
import { actingCompanyId } from './scope';
import { containing } from './users';
import {
  ACCESS_LOG_CSV_COLUMNS,
  accessLogCsvRecord,
  accessLogRow,
  DATA_VIEWS,
  describeFilters,
  recordsText,
  type AccessEventCode,
  type AccessLogEntry,
  type AccessLogFilters,
  type AccessLogRow,
  type InsuredDataView,
  type RecordKind,
} from '../../../lib/access-log';
import { startOfBrasiliaDay, startOfNextBrasiliaDay } from '../../../lib/calendar';
import { pagedOf, type Paged } from '../../../lib/list-query';
import { REPORT_CSV_OPTIONS } from '../../../lib/sales-reports';
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
 * A view or an export of an insured's personal data (lib/access-log.ts DATA_VIEWS) by a signed-in
 * viewer: who (user, generation, the company they act for), when, from where (the client address the
 * request pipeline resolved) and which record(s). The viewer's facts come from the principal cache the
 * pipeline filled: the INSERT is the only statement.
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
  await appendAccessEvent(db, {
    event,
    generation: viewer.generation,
    email: viewer.user.email,
    userId: viewer.user.idUsuario,
    ip,
    detalhe: more ? `${detalhe}: ${more}` : detalhe,
    companyId: actingCompanyId(viewer, facts),
    registroTipo: record,
    registro: recordsText(records),
  });
}

/** The policy's PDF opened with the link e-mailed to the insured, who has no account (decision 035). */
export async function recordInsuredLinkAccess(db: DB, generation: Generation, nrApolice: string, ip: string): Promise<void> {
  const { event, record, detalhe } = DATA_VIEWS['apolice.link-segurado'];
  await appendAccessEvent(db, {
    event,
    generation,
    email: '',
    userId: null,
    companyId: null,
    ip,
    detalhe,
    registroTipo: record,
    registro: nrApolice,
  });
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

function filtered(db: DB, filters: AccessLogFilters) {
  let query = db
    .selectFrom('access_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .leftJoin('companies as c', 'c.id', 'e.company_id')
    .where('e.created_at', '>=', startOfBrasiliaDay(filters.de))
    .where('e.created_at', '<', startOfNextBrasiliaDay(filters.ate));
  if (filters.evento) query = query.where('e.event', '=', filters.evento);
  if (filters.usuario) {
    // The user the row is about, or whoever did it for them.
    const pattern = containing(filters.usuario);
    query = query.where((eb) =>
      eb.or([
        eb('e.email', 'ilike', pattern),
        eb('u.nome', 'ilike', pattern),
        eb('a.email', 'ilike', pattern),
        eb('a.nome', 'ilike', pattern),
      ]),
    );
  }
  if (filters.empresa) {
    const pattern = containing(filters.empresa);
    const cnpj = containing(normalizeCnpj(filters.empresa));
    query = query.where((eb) =>
      eb.or([eb('c.razao_social', 'ilike', pattern), eb('c.nome_fantasia', 'ilike', pattern), eb('c.cnpj', 'like', cnpj)]),
    );
  }
  if (filters.registro) query = query.where(sql<boolean>`string_to_array(e.registro, ', ') @> array[${filters.registro}::text]`);
  return query;
}

const COLUMNS = [
  'e.id',
  'e.created_at',
  'e.event',
  'e.generation',
  'e.email',
  'e.user_id',
  'u.nome as user_name',
  'e.actor_id',
  'a.nome as actor_name',
  'a.email as actor_email',
  'c.razao_social',
  'c.cnpj',
  'e.ip',
  'e.registro_tipo',
  'e.registro',
  'e.detalhe',
] as const;

type Selected = {
  id: number;
  created_at: Date | string;
  event: string;
  generation: string;
  email: string;
  user_id: number | null;
  user_name: string | null;
  actor_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  razao_social: string | null;
  cnpj: string | null;
  ip: string | null;
  registro_tipo: string | null;
  registro: string | null;
  detalhe: string | null;
};

const entryOf = (r: Selected): AccessLogEntry => ({
  id: r.id,
  quando: new Date(r.created_at),
  evento: r.event,
  geracao: r.generation,
  email: r.email,
  usuarioId: r.user_id,
  usuarioNome: r.user_name,
  autorId: r.actor_id,
  autorNome: r.actor_name,
  autorEmail: r.actor_email,
  empresaNome: r.razao_social,
  empresaCnpj: r.cnpj,
  ip: r.ip,
  registroTipo: r.registro_tipo,
  registro: r.registro,
  detalhe: r.detalhe,
});

/** A page of the log for these filters, newest first. */
export async function listAccessLog(db: DB, filters: AccessLogFilters, page: number, pageSize: number): Promise<Paged<AccessLogRow>> {
  const { total } = await filtered(db, filters).select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const rows = await filtered(db, filters)
    .select(COLUMNS)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return pagedOf(
    rows.map((r) => accessLogRow(entryOf(r))),
    total,
    page,
    pageSize,
  );
}

const EXPORT_BATCH = 1_000;

/** Every row of the filters, newest first, read in batches after the last one sent (keyset: time, id). */
async function* allRows(db: DB, filters: AccessLogFilters): AsyncGenerator<string[]> {
  let after: { time: string; id: number } | undefined;
  for (;;) {
    const last = after;
    const batch = await filtered(db, filters)
      .select(COLUMNS)
      .select(exactInstant('e.created_at').as('chave_tempo'))
      .$if(last !== undefined, (qb) => qb.where(pastKey('e.created_at', 'e.id', last!, 'desc')))
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(EXPORT_BATCH)
      .execute();
    for (const row of batch) yield accessLogCsvRecord(accessLogRow(entryOf(row)));
    if (batch.length < EXPORT_BATCH) return;
    const end = batch.at(-1)!;
    after = { time: end.chave_tempo, id: end.id };
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
 * Deletes the rows older than `retentionDays` (ACCESS_LOG_RETENTION_DAYS), a batch per transaction so
 * no transaction holds the embedded database's one connection for long. Each transaction tells the
 * append-only trigger the cut-off it may delete before (migration 019), for itself alone; rows are
 * claimed with SKIP LOCKED, so instances purging at once share the work. Returns how many went.
 */
export async function purgeAccessLog(db: DB, retentionDays: number, at: Date = now()): Promise<number> {
  const before = new Date(at.getTime() - retentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      await sql`select set_config('portal.access_log_purge_before', ${before.toISOString()}, true)`.execute(trx);
      const result = await sql`delete from access_events where id in (
        select id from access_events where created_at < ${before} order by created_at limit ${PURGE_BATCH} for update skip locked
      )`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    });
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
