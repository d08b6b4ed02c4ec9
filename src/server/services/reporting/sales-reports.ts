import { createWriteStream } from 'node:fs';
import type { Download } from '../../../lib/download';
import { rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { sql, type SelectQueryBuilder } from 'kysely';
import { stringify } from 'csv-stringify';
import writeExcelFile from 'write-excel-file/node';
import type { DB } from '../../db';
import { exactInstant, pastKey } from '../../db/keyset';
import type { Generation } from '../../db/schema';
import type { Scope } from '../../../lib/scope';
import { startOfBrasiliaDay, startOfNextBrasiliaDay } from '../../../lib/calendar';
import { pagedOf, type Paged } from '../../../lib/list-query';
import {
  MAX_PENDING_REPORTS_PER_USER,
  MAX_XLSX_ROWS,
  REPORT_CSV_OPTIONS,
  REPORT_MESSAGES,
  REPORT_STATUS_LABELS,
  describeRequest,
  reportColumns,
  reportFileName,
  reportRowOf,
  type ReportKind,
  type ReportRequest,
  type ReportStatus,
} from '../../../lib/sales-reports';
import { storedDownload, type FileStore } from '../../files';
import { saleMatches, type MetricsOptions, type ResolvedFilters } from './metrics';
import { pointOfSaleByCode } from '../../../lib/points-of-sale';
import { METRICS_MESSAGES } from '../../../lib/metrics';
import { now as clockNow } from '../../clock';
import { errorMessage, logError } from '../../log';

/*
 * Sales reports (issue 15, decision 042): asked for on a page, generated in the background by the job
 * loop (server/boot/jobs.ts) — claimed with FOR UPDATE SKIP LOCKED, read from the database in batches of
 * BATCH rows by id, written to a file as they come (CSV) and stored under its hash. The file holds
 * what the requester's scope saw when they asked; only they (and whoever sees every sale) download it.
 */

const BATCH = 500;
/** How long a claim holds before another instance may take the report over; renewed at every batch. */
const CLAIM_MS = 120_000;
/** A report that brought its instance down three times is not tried a fourth. */
const MAX_ATTEMPTS = 3;
export const REPORTS_PAGE_SIZE = 20;

/** Who asks, and whether they see every report (their scope is every sale). */
export interface Requester {
  userId: number;
  generation: Generation;
  seesAll: boolean;
}

interface StoredFilter {
  scope: Scope;
  filters: ResolvedFilters;
  de: string;
  ate: string;
  tipo: ReportKind;
}

/**
 * Records a request, its filters checked against the requester's options (a company, point of sale or
 * seller outside them is a field error and nothing is stored); answers the report's id.
 */
export async function requestReport(
  db: DB,
  requester: Requester,
  scope: Scope,
  options: MetricsOptions,
  request: ReportRequest,
): Promise<{ ok: true; id: number } | { ok: false; busy?: true; errors: Record<string, string[]> }> {
  const errors: Record<string, string[]> = {};
  const company = request.empresa ? options.companies.find((c) => c.cnpj === request.empresa) : undefined;
  if (request.empresa && !company) errors.empresa = [REPORT_MESSAGES.empresa];
  const found = request.pontoVenda ? pointOfSaleByCode(options.pointsOfSale, request.pontoVenda, company?.id) : undefined;
  if (found === 'ambiguous') errors.pontoVenda = [METRICS_MESSAGES.pontoVendaAmbiguo];
  else if (request.pontoVenda && !found) errors.pontoVenda = [REPORT_MESSAGES.pontoVenda];
  const point = found === 'ambiguous' ? undefined : found;
  const seller = request.vendedor !== undefined ? options.sellers.find((s) => s.id === request.vendedor) : undefined;
  if (request.vendedor !== undefined && !seller) errors.vendedor = [REPORT_MESSAGES.vendedor];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const filtro: StoredFilter = {
    scope,
    filters: { companyId: company?.id, pointOfSaleId: point?.id, sellerId: seller?.id, products: request.produtos },
    de: request.de,
    ate: request.ate,
    tipo: request.tipo,
  };
  const names = { empresa: company?.name, pontoVenda: point ? `${point.name} (${point.code})` : undefined, vendedor: seller?.name };
  const stored = await db.transaction().execute(async (trx) => {
    if (await queueIsFull(trx, requester.userId)) return undefined;
    return trx
      .insertInto('sales_reports')
      .values({
        user_id: requester.userId,
        generation: requester.generation,
        pedido: JSON.stringify({ ...request, nomes: names }),
        filtro: JSON.stringify(filtro),
        created_at: clockNow(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  // Over the per-user cap: the route answers it 429 (too many at once), with the message as a field error.
  return stored ? { ok: true, id: stored.id } : { ok: false, busy: true, errors: { relatorio: [REPORT_MESSAGES.fila] } };
}

/**
 * Whether the user already has MAX_PENDING_REPORTS_PER_USER reports waiting or being made (decision
 * 058). Called inside the transaction that would add one, after taking a lock of this user's own: a
 * second request of the same user — on this instance or another over the same PostgreSQL — waits
 * for the first to commit, and its count then sees the first's row. Twenty requests at once store
 * the cap's worth and refuse the rest.
 */
async function queueIsFull(trx: DB, userId: number): Promise<boolean> {
  await sql`select pg_advisory_xact_lock(hashtext(${`sales-reports:${userId}`}))`.execute(trx);
  const { n } = await trx
    .selectFrom('sales_reports')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .where(sql<boolean>`status in ('NA_FILA', 'GERANDO')`)
    .executeTakeFirstOrThrow();
  return n >= MAX_PENDING_REPORTS_PER_USER;
}

/**
 * Asks again for a report that ended in error (its request unchanged): 'fila' when it is back in the
 * queue, 'cheia' when its owner already has the most reports waiting (it waits in the queue too, so
 * it counts against the same cap), 'recusado' when it is not such a report.
 */
export async function retryReport(db: DB, requester: Requester, id: number): Promise<'fila' | 'cheia' | 'recusado'> {
  return db.transaction().execute(async (trx) => {
    const report = await trx
      .selectFrom('sales_reports')
      .select('user_id')
      .where('id', '=', id)
      .where('status', '=', 'ERRO')
      .$if(!requester.seesAll, (qb) => qb.where('user_id', '=', requester.userId))
      .executeTakeFirst();
    if (!report) return 'recusado';
    if (await queueIsFull(trx, report.user_id)) return 'cheia';
    const { numUpdatedRows } = await trx
      .updateTable('sales_reports')
      .set({ status: 'NA_FILA', motivo: null, linhas: 0, total: null, tentativas: 0, reservado_ate: null, finished_at: null })
      .where('id', '=', id)
      .where('status', '=', 'ERRO')
      .executeTakeFirst();
    return numUpdatedRows > 0n ? 'fila' : 'recusado';
  });
}

export interface ReportView {
  id: number;
  requestedAt: string;
  requestedBy: string;
  description: string;
  format: 'csv' | 'xlsx';
  status: ReportStatus;
  statusLabel: string;
  total: number | null;
  rows: number;
  reason: string | null;
  size: number | null;
  finishedAt: string | null;
  fileName: string;
}

const reportsOf = (db: DB, requester: Requester) =>
  db
    .selectFrom('sales_reports as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .where('r.generation', '=', requester.generation)
    .$if(!requester.seesAll, (qb) => qb.where('r.user_id', '=', requester.userId));

function viewOf(row: {
  id: number;
  created_at: Date;
  nome: string;
  pedido: unknown;
  status: ReportStatus;
  total: number | null;
  linhas: number;
  motivo: string | null;
  tamanho: string | null;
  finished_at: Date | null;
}): ReportView {
  const pedido = row.pedido as ReportRequest & { nomes?: Record<string, string> };
  return {
    id: row.id,
    requestedAt: new Date(row.created_at).toISOString(),
    requestedBy: row.nome,
    description: describeRequest(pedido, pedido.nomes),
    format: pedido.formato,
    status: row.status,
    statusLabel: REPORT_STATUS_LABELS[row.status],
    total: row.total,
    rows: row.linhas,
    reason: row.motivo,
    size: row.tamanho === null ? null : Number(row.tamanho),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    fileName: reportFileName(row.id, pedido.tipo, pedido.formato),
  };
}

const VIEW_COLUMNS = [
  'r.id',
  'r.created_at',
  'u.nome',
  'r.pedido',
  'r.status',
  'r.total',
  'r.linhas',
  'r.motivo',
  'r.tamanho',
  'r.finished_at',
] as const;

/** The reports a requester sees, newest first, a page at a time. */
export async function listReports(db: DB, requester: Requester, page: number): Promise<Paged<ReportView>> {
  const [rows, { total }] = await Promise.all([
    reportsOf(db, requester)
      .select(VIEW_COLUMNS)
      .orderBy('r.id', 'desc')
      .limit(REPORTS_PAGE_SIZE)
      .offset((page - 1) * REPORTS_PAGE_SIZE)
      .execute(),
    reportsOf(db, requester)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return pagedOf(rows.map(viewOf), total, page, REPORTS_PAGE_SIZE);
}

/** A ready report's file as a download; undefined (a 404) for one not the requester's, or not ready. */
export async function reportFile(db: DB, files: FileStore, requester: Requester, id: number): Promise<Download | undefined> {
  const row = await reportsOf(db, requester)
    .select([...VIEW_COLUMNS, 'r.sha256'])
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (row?.status !== 'PRONTO' || !row.sha256) return undefined;
  const view = viewOf(row);
  const type = view.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  // The stored object's own length, read before a header is written (a missing one is a 404, never a cut 200).
  return storedDownload(files, row.sha256, { fileName: view.fileName, type });
}

/* ---------- Generation ---------- */

type Claimed = { id: number; filtro: StoredFilter; formato: 'csv' | 'xlsx'; tentativas: number };

/**
 * Claims the next report waiting (or abandoned by a dead instance); none when every one is taken.
 * Users take turns (decision 058): the next is the oldest waiting report of the user served least
 * recently — whose latest claim has the oldest turn, or who was never served —, so one user's many
 * requests no longer hold another's single one behind them. SKIP LOCKED: two instances claiming at
 * once take different reports (the second skips the row the first holds and takes the next in turn).
 */
async function claimReport(db: DB, now: Date): Promise<Claimed | undefined> {
  const row = await sql<{ id: number; filtro: StoredFilter; pedido: ReportRequest; tentativas: number }>`
    update sales_reports set status = 'GERANDO', tentativas = tentativas + 1,
      reservado_ate = ${new Date(now.getTime() + CLAIM_MS)}, vez = nextval('sales_reports_vez')
    where id = (
      select r.id from sales_reports r
      where r.status = 'NA_FILA' or (r.status = 'GERANDO' and r.reservado_ate < ${now})
      order by (select max(s.vez) from sales_reports s where s.user_id = r.user_id) nulls first, r.id
      limit 1 for update of r skip locked)
    returning id, filtro, pedido, tentativas`
    .execute(db)
    .then((r) => r.rows[0]);
  return row && { id: row.id, filtro: row.filtro, formato: row.pedido.formato, tentativas: row.tentativas };
}

/** A row as the report's query reads it (lib/sales-reports.ts reportRowOf puts it in words). */
type RawRow = Parameters<typeof reportRowOf>[0] & { key: number };
// The four kinds read different tables into the same columns: one type for the four builders.
// biome-ignore lint/suspicious/noExplicitAny: the union of four builders over different tables is not callable
type RowsQuery = SelectQueryBuilder<any, any, RawRow>;

/** The rows of a report's kind, within its scope, filters and period: a query to read in batches by id. */
function rowsQuery(db: DB, filter: StoredFilter): RowsQuery {
  const from = startOfBrasiliaDay(filter.de);
  const to = startOfNextBrasiliaDay(filter.ate);
  const base = db
    .selectFrom('quotes as q')
    .innerJoin('users as u', 'u.id', 'q.user_id')
    .leftJoin('companies as c', 'c.id', 'q.company_id')
    .leftJoin('points_of_sale as pv', 'pv.id', 'q.point_of_sale_id');
  const common = [
    'q.simulator_code',
    'q.nome_segurado',
    'q.documento_segurado',
    'c.nome_fantasia as empresa',
    'pv.nome as ponto_venda',
    'u.nome as vendedor',
  ] as const;
  const kinds = {
    cotacoes: () =>
      base
        .select([...common, 'q.id as key', 'q.nr_cotacao as numero', 'q.created_at as data', 'q.status as situacao'])
        .select([
          sql<number | null>`null`.as('premio_liquido'),
          'q.premio_total',
          sql<string | null>`q.contratacao->>'formaPagamento'`.as('forma_pagamento'),
          sql<string | null>`null`.as('cancelada_em'),
        ])
        .where('q.created_at', '>=', from)
        .where('q.created_at', '<', to)
        .where(saleMatches(filter.scope, filter.filters, 'q')),
    propostas: () =>
      base
        .innerJoin('proposals as p', 'p.quote_id', 'q.id')
        .select([...common, 'p.id as key', 'p.nr_proposta as numero', 'p.created_at as data', 'p.status as situacao'])
        .select([
          sql<number | null>`null`.as('premio_liquido'),
          'q.premio_total',
          sql<string | null>`q.contratacao->>'formaPagamento'`.as('forma_pagamento'),
          sql<string | null>`null`.as('cancelada_em'),
        ])
        .where('p.created_at', '>=', from)
        .where('p.created_at', '<', to)
        .where(saleMatches(filter.scope, filter.filters, 'q')),
    apolices: () => policies().where('a.emitida_em', '>=', from).where('a.emitida_em', '<', to),
    canceladas: () =>
      policies().where('a.status', '=', 'CANCELADA').where('a.cancelada_em', '>=', filter.de).where('a.cancelada_em', '<=', filter.ate),
  };
  const policies = () =>
    db
      .selectFrom('policies as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('companies as c', 'c.id', 'a.company_id')
      .leftJoin('points_of_sale as pv', 'pv.id', 'a.point_of_sale_id')
      .select([
        'a.id as key',
        'a.nr_apolice as numero',
        'a.emitida_em as data',
        'a.status as situacao',
        'a.simulator_code',
        'a.nome_segurado',
        'a.documento_segurado',
        'c.nome_fantasia as empresa',
        'pv.nome as ponto_venda',
        'u.nome as vendedor',
        'a.premio_liquido',
        'a.premio_total',
        'a.forma_pagamento',
        'a.cancelada_em',
      ])
      .where(saleMatches(filter.scope, filter.filters, 'a'));
  return kinds[filter.tipo]() as unknown as RowsQuery;
}

const KEYS: Record<ReportKind, [string, string]> = {
  cotacoes: ['q.created_at', 'q.id'],
  propostas: ['p.created_at', 'p.id'],
  apolices: ['a.emitida_em', 'a.id'],
  canceladas: ['a.emitida_em', 'a.id'],
};

/**
 * After each batch the job rests twice as long as the batch took (at most a quarter second): on
 * PGlite every query shares one connection and the process's one thread, and a job that only
 * yielded between batches still made another user's page wait behind each next batch (the bench
 * measured its median at 4× while a 100,000-row report was written). Resting gives the pages two
 * thirds of the time; the report takes about three times as long (decision 042).
 */
const REST_PER_BATCH = 2;
const MAX_REST_MS = 250;
const restAfter = (busyMs: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.min(MAX_REST_MS, Math.ceil(busyMs * REST_PER_BATCH))));

/** Reads the report's rows batch by batch, handing each to `write`; reports the count after each batch. */
async function eachBatch(
  db: DB,
  filter: StoredFilter,
  write: (rows: ReturnType<typeof reportRowOf>[]) => Promise<void>,
  progress: (done: number) => Promise<void>,
) {
  // Keyset by (the kind's time, id), ordered by them: each batch walks the time index from where the
  // last one stopped, instead of sorting the whole period again (which made a report quadratic).
  // The key carries the database's own time, to the microsecond (db/keyset.ts, issue 29).
  const [timeColumn, idColumn] = KEYS[filter.tipo];
  let last: { time: string; id: number } | undefined;
  let done = 0;
  for (;;) {
    const startedAt = performance.now();
    const after = last;
    const batch = await rowsQuery(db, filter)
      .select(exactInstant(timeColumn).as('chave_tempo'))
      .$if(after !== undefined, (qb) => qb.where(pastKey(timeColumn, idColumn, after!, 'asc')))
      .orderBy(sql.ref(timeColumn))
      .orderBy(sql.ref(idColumn))
      .limit(BATCH)
      .execute();
    if (batch.length === 0) return;
    await write(batch.map((raw) => reportRowOf({ ...raw, data: new Date(raw.data) }, filter.tipo)));
    const end = batch[batch.length - 1]! as RawRow & { chave_tempo: string };
    last = { time: end.chave_tempo, id: Number(end.key) };
    done += batch.length;
    await progress(done);
    // Other users' requests run between two batches: a long report never holds the process.
    await restAfter(performance.now() - startedAt);
  }
}

async function countRows(db: DB, filter: StoredFilter): Promise<number> {
  const { rows } = await sql<{ total: string }>`select count(*) as total from (${rowsQuery(db, filter)}) r`.execute(db);
  return Number(rows[0]!.total);
}

class ReportRefused extends Error {}

/** Generates one claimed report into a temporary file; answers the file's path. */
async function writeReport(
  db: DB,
  files: FileStore,
  report: Claimed,
  total: number,
  progress: (done: number) => Promise<void>,
): Promise<string> {
  // Written on this instance's disk (the store's scratch directory); only the finished file is stored.
  const path = await files.temporaryPath('relatorio');
  const columns = reportColumns(report.filtro.tipo);
  try {
    if (report.formato === 'csv') {
      const csv = stringify({ ...REPORT_CSV_OPTIONS, header: true, columns: columns.map(([header]) => header) });
      const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      const finished = once(file, 'finish');
      csv.pipe(file);
      await eachBatch(
        db,
        report.filtro,
        async (rows) => {
          for (const row of rows) if (!csv.write(columns.map(([, cell]) => cell(row)))) await once(csv, 'drain');
        },
        progress,
      );
      csv.end();
      await finished;
    } else {
      // write-excel-file builds the workbook whole: the rows are read in batches, the sheet is kept
      // compact (one array per row) and the size is capped (MAX_XLSX_ROWS, decision 042).
      if (total > MAX_XLSX_ROWS)
        throw new ReportRefused(
          `O relatório tem ${total.toLocaleString('pt-BR')} linhas, mais que as ${MAX_XLSX_ROWS.toLocaleString('pt-BR')} de um relatório em Excel: peça em CSV ou divida o período.`,
        );
      const sheet: unknown[][] = [columns.map(([header]) => ({ value: header, fontWeight: 'bold' }))];
      await eachBatch(
        db,
        report.filtro,
        async (rows) => void sheet.push(...rows.map((row) => columns.map(([, , cell]) => cell(row)))),
        progress,
      );
      await writeExcelFile(sheet as never, { stickyRowsCount: 1, columns: columns.map(() => ({ width: 18 })) } as never).toFile(path);
    }
    return path;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** The job's turn: claims and generates reports until none waits. */
export async function generateReports(db: DB, files: FileStore, now: () => Date = clockNow): Promise<number> {
  let generated = 0;
  for (;;) {
    const report = await claimReport(db, now());
    if (!report) return generated;
    await generateOne(db, files, report, now);
    generated += 1;
  }
}

async function generateOne(db: DB, files: FileStore, report: Claimed, now: () => Date) {
  const mine = () => db.updateTable('sales_reports').where('id', '=', report.id).where('status', '=', 'GERANDO');
  if (report.tentativas > MAX_ATTEMPTS) {
    await mine()
      .set({
        status: 'ERRO',
        motivo: 'A geração foi interrompida várias vezes. Peça de novo; se persistir, divida o período.',
        finished_at: now(),
      })
      .execute();
    return;
  }
  try {
    const total = await countRows(db, report.filtro);
    await mine().set({ total, linhas: 0 }).execute();
    const path = await writeReport(db, files, report, total, async (done) => {
      await mine()
        .set({ linhas: done, reservado_ate: new Date(now().getTime() + CLAIM_MS) })
        .execute();
    });
    const size = (await stat(path)).size;
    const sha256 = await files.adopt(path);
    await mine().set({ status: 'PRONTO', sha256, tamanho: size, finished_at: now(), reservado_ate: null }).execute();
  } catch (error) {
    const motivo = error instanceof ReportRefused ? error.message : 'Não foi possível gerar o relatório. Peça de novo em alguns minutos.';
    if (!(error instanceof ReportRefused)) logError('relatorio-vendas-falha', { relatorio: report.id, erro: errorMessage(error) });
    await mine().set({ status: 'ERRO', motivo, finished_at: now(), reservado_ate: null }).execute();
  }
}
