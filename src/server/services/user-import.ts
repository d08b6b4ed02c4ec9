import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError, forbidden } from '../api/errors';
import { now } from '../clock';
import {
  actorOf,
  insertLegacyUser,
  insertV2User,
  legacyGroups,
  refuse,
  requireChange,
  updateLegacyUser,
  updateV2User,
  type V2Change,
} from './user-admin';
import {
  decodeCsv,
  delimiterOf,
  duplicatesInFile,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  readHeader,
  readRow,
  type ImportGeneration,
  type ImportResult,
  type ImportRow,
  type RowProblem,
} from '../../lib/user-import';
import {
  formStatusOf,
  mayChangeUsers,
  mayManage,
  USER_ADMIN_MESSAGES,
  v1GrantProblems,
  v2GrantProblems,
  type Actor,
  type FieldErrors,
  type LegacyUserInput,
  type ManagedUser,
  type V1Actor,
  type V2Actor,
} from '../../lib/user-admin';
import { REPORT_CSV_OPTIONS } from '../../lib/sales-reports';
import { errorMessage, logError } from '../log';

/*
 * Bulk user import (issue 16, decision 048). The upload reads the file whole (2 MB at most) and
 * checks every row at once — the forms' schemas, then what the database says, in a handful of bulk
 * queries: companies, points of sale, groups, and the users already there — so each row's problems
 * are shown by line and column before anything is written. Confirming queues it; the jobs of every
 * instance take it (SKIP LOCKED) and write it in batches, one transaction per batch of new users,
 * each row ending with its result. A row for a user who already exists updates them through the
 * single-user path (every check of a manual edit), or is left alone when nothing differs — so the
 * same file imported twice creates nobody twice.
 */

/**
 * Rows per transaction. Small on purpose: on the embedded database a transaction holds the one
 * connection, and its queries run on the event loop, so other users' requests wait for the batch
 * in course — ten rows keep that wait near a tenth of a second (decision 048).
 */
const BATCH = 10;
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A worker silent this long has died: its import is taken up again where it stopped. */
const STALE_CLAIM_MS = 60_000;

// ─── Upload and validation ───────────────────────────────────────────────────────────────────────

/** What a valid row stores: the input of the single-user path, and the user it updates (when any). */
type StoredRow =
  | { generation: 'v1'; input: LegacyUserInput; existingId?: number; unchanged?: boolean }
  | { generation: 'v2'; change: V2Change; existingId?: number; unchanged?: boolean };

/** The field of a rule's refusal → the file's column. */
const COLUMN_OF: Record<string, string> = {
  pontoVenda: 'ponto_venda',
  grupoPermissao: 'grupo_permissao',
  status: 'situacao',
};
const problemsOf = (line: number, errors: FieldErrors): RowProblem[] =>
  Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ line, column: COLUMN_OF[field] ?? field, message })));

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** The users already registered under the file's e-mails or CPFs, with what the rules judge. */
async function existingUsers(db: DB, rows: readonly ImportRow[]) {
  const emails = rows.map((r) => (r.generation === 'v1' ? r.input.email : r.dados.email));
  const cpfs = rows.map((r) => (r.generation === 'v1' ? r.input.cpf : r.dados.cpf));
  const found = [];
  for (const [someEmails, someCpfs] of chunks(emails, 1000).map((e, i) => [e, chunks(cpfs, 1000)[i]!] as const)) {
    found.push(
      ...(await db
        .selectFrom('users as u')
        .select([
          'u.id',
          'u.email',
          'u.cpf',
          'u.nome',
          'u.celular',
          'u.generation',
          'u.status',
          'u.profile',
          'u.company_id',
          'u.point_of_sale_id',
          'u.permission_group_id',
          sql<
            string[]
          >`coalesce((select array_agg(g.nome order by g.nome) from user_groups ug join permission_groups g on g.id = ug.group_id where ug.user_id = u.id), '{}')`.as(
            'groups',
          ),
          sql<
            number[]
          >`coalesce((select array_agg(uc.company_id order by uc.company_id) from user_companies uc where uc.user_id = u.id), '{}')`.as(
            'companies',
          ),
          sql<
            string[]
          >`coalesce((select array_agg(o.operation order by o.operation) from user_operations o where o.user_id = u.id), '{}')`.as(
            'operations',
          ),
        ])
        .where((eb) => eb.or([eb('u.email', 'in', someEmails), eb('u.cpf', 'in', someCpfs)]))
        .execute()),
    );
  }
  return found;
}
type Existing = Awaited<ReturnType<typeof existingUsers>>[number];

const managedOf = (u: Existing): ManagedUser => ({
  id: u.id,
  generation: u.generation,
  status: u.status,
  profile: u.profile ? (u.profile.toUpperCase() as ManagedUser['profile']) : null,
  operations: u.operations,
  companyIds: [...new Set([...u.companies, ...(u.company_id ? [u.company_id] : [])])],
  groups: u.groups,
});

/** The lookups the rules need for every row, read once. */
async function lookups(db: DB) {
  const [companies, points, permissionGroups, groups] = await Promise.all([
    db.selectFrom('companies').select(['id', 'cnpj', 'tipo']).execute(),
    db.selectFrom('points_of_sale').select(['id', 'company_id', 'codigo', 'status']).execute(),
    db
      .selectFrom('v2_permission_groups as g')
      .select([
        'g.id',
        'g.company_id',
        'g.nome',
        sql<string[]>`coalesce((select array_agg(o.operation) from v2_permission_group_operations o where o.group_id = g.id), '{}')`.as(
          'operations',
        ),
      ])
      .execute(),
    legacyGroups(db),
  ]);
  return { companies, points, permissionGroups, groups };
}

/** The rules' verdict on one valid row, and what to store for it. */
function judge(
  actor: Actor,
  row: ImportRow,
  found: readonly Existing[],
  facts: Awaited<ReturnType<typeof lookups>>,
): { problems: RowProblem[]; stored?: StoredRow } {
  const email = row.generation === 'v1' ? row.input.email : row.dados.email;
  const cpf = row.generation === 'v1' ? row.input.cpf : row.dados.cpf;
  const byEmail = found.find((u) => u.email === email);
  const byCpf = found.find((u) => u.cpf === cpf);
  const errors: FieldErrors = {};
  if (byCpf && byCpf.id !== byEmail?.id) errors.cpf = [USER_ADMIN_MESSAGES.duplicateCpf];
  const before = byEmail ? managedOf(byEmail) : undefined;
  // A blank situacao keeps an existing user's status: re-importing a team never reactivates who left.
  const status = row.keepStatus && byEmail ? formStatusOf(byEmail.status) : row.generation === 'v1' ? row.input.status : row.status;
  if (byEmail && !mayManage(actor, before!, facts.groups)) errors.email = ['E-mail já cadastrado para um usuário que você não administra.'];
  if (row.generation === 'v1') {
    const company = row.input.empresa ? facts.companies.find((c) => c.cnpj === row.input.empresa) : null;
    if (company === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
    if (row.input.grupos.some((g) => !facts.groups.some((x) => x.nome === g))) errors.grupos = [USER_ADMIN_MESSAGES.group];
    Object.assign(
      errors,
      v1GrantProblems(actor as V1Actor, { groups: row.input.grupos, companyId: company?.id ?? null }, facts.groups, before),
      { ...errors },
    );
    if (Object.keys(errors).length > 0) return { problems: problemsOf(row.line, errors) };
    const unchanged =
      byEmail !== undefined &&
      byEmail.nome === row.input.nome &&
      byEmail.cpf === row.input.cpf &&
      byEmail.company_id === (company?.id ?? null) &&
      [...byEmail.groups].sort().join('|') === [...row.input.grupos].sort().join('|') &&
      formStatusOf(byEmail.status) === status;
    return { problems: [], stored: { generation: 'v1', input: { ...row.input, status }, existingId: byEmail?.id, unchanged } };
  }
  const companies = row.vinculo.empresas.map((cnpj) => facts.companies.find((c) => c.cnpj === cnpj));
  if (companies.some((c) => !c)) errors.empresas = [USER_ADMIN_MESSAGES.company];
  const ids = companies.filter((c) => c !== undefined).map((c) => c.id);
  const point = row.pontoVenda
    ? facts.points.find((p) => p.codigo.toUpperCase() === row.pontoVenda.toUpperCase() && ids.includes(p.company_id))
    : null;
  if (point === undefined) errors.pontoVenda = [USER_ADMIN_MESSAGES.pointOfSale];
  const group = row.grupoPermissao
    ? facts.permissionGroups.find((g) => g.nome.toLowerCase() === row.grupoPermissao.toLowerCase() && ids.includes(g.company_id))
    : null;
  if (group === undefined) errors.grupoPermissao = [USER_ADMIN_MESSAGES.permissionGroup];
  const grant = v2GrantProblems(
    actor as V2Actor,
    {
      profile: row.dados.perfil,
      operations: row.vinculo.operacoes,
      companies: companies.filter((c) => c !== undefined).map((c) => ({ id: c.id, tipo: c.tipo })),
      pointOfSaleCompanyId: point?.company_id ?? null,
      pointOfSaleInactive: point ? point.status !== 'ATIVO' && byEmail?.point_of_sale_id !== point.id : false,
      permissionGroup: group ? { companyId: group.company_id, operations: group.operations } : null,
    },
    before,
  );
  for (const [field, messages] of Object.entries(grant)) errors[field] = [...(errors[field] ?? []), ...messages];
  if (Object.keys(errors).length > 0) return { problems: problemsOf(row.line, errors) };
  const change: V2Change = {
    dados: row.dados,
    vinculo: { ...row.vinculo, pontoVenda: point ? String(point.id) : '', grupoPermissao: group ? String(group.id) : '' },
    status,
  };
  const unchanged =
    byEmail !== undefined &&
    byEmail.nome === row.dados.nome &&
    byEmail.cpf === row.dados.cpf &&
    byEmail.celular === row.dados.celular &&
    byEmail.profile === row.dados.perfil.toLowerCase() &&
    byEmail.companies.join('|') === [...ids].sort((a, b) => a - b).join('|') &&
    byEmail.point_of_sale_id === (point?.id ?? null) &&
    byEmail.permission_group_id === (group?.id ?? null) &&
    byEmail.operations.join('|') === [...new Set(row.vinculo.operacoes)].sort().join('|') &&
    formStatusOf(byEmail.status) === status;
  return { problems: [], stored: { generation: 'v2', change, existingId: byEmail?.id, unchanged } };
}

/** A refusal of the whole file (a field error on `arquivo`, nothing stored). */
const refuseFile = (message: string, status = 400): never => refuse({ arquivo: [message] }, status);

/**
 * Reads and checks an uploaded file; answers the import's id. Nothing but the import and its rows
 * is written: the users wait for the author's confirmation.
 */
export async function uploadImport(db: DB, actor: Actor, fileName: string, bytes: Uint8Array, ip: string | null): Promise<number> {
  requireChange(actor);
  const generation: ImportGeneration = actor.generation;
  if (bytes.byteLength === 0) refuseFile(IMPORT_MESSAGES.empty);
  if (bytes.byteLength > IMPORT_LIMITS.maxBytes) refuseFile(IMPORT_MESSAGES.tooBig, 413);
  // A spreadsheet's own format (a zip: XLSX/ODS) or any binary is not a CSV.
  if (bytes.includes(0) || (bytes[0] === 0x50 && bytes[1] === 0x4b)) refuseFile(IMPORT_MESSAGES.notCsv);
  const { text, encoding } = decodeCsv(bytes);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with the line it ends on (a quoted cell may span lines).
    records = parse(text, {
      delimiter: delimiterOf(text),
      bom: true,
      info: true,
      relax_column_count: true,
      // A quote inside an unquoted cell (=HYPERLINK("…")) is text, not a syntax error.
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    }) as unknown as typeof records;
  } catch {
    return refuseFile(IMPORT_MESSAGES.unreadable);
  }
  if (records.length === 0) refuseFile(IMPORT_MESSAGES.empty);
  const { index, problems: headerProblems } = readHeader(generation, records[0]!.record);
  if (headerProblems.length > 0) refuse({ arquivo: headerProblems });
  const data = records.slice(1);
  if (data.length === 0) refuseFile(IMPORT_MESSAGES.noRows);
  if (data.length > IMPORT_LIMITS.maxRows) refuseFile(IMPORT_MESSAGES.tooManyRows);

  const read = data.map(({ record, info }) => ({
    email: record[index.get('email') ?? -1]?.trim() ?? '',
    ...readRow(generation, record, index, info.lines),
  }));
  const valid = read.flatMap((r) => (r.row ? [r.row] : []));
  const repeated = duplicatesInFile(valid);
  const candidates = valid.filter((r) => !repeated.some((p) => p.line === r.line));
  const facts = await lookups(db);
  const found = await existingUsers(db, candidates);
  const verdicts = new Map(candidates.map((row) => [row.line, judge(actor, row, found, facts)]));

  const rows = read.map((r) => {
    const line = r.row?.line ?? r.problems[0]!.line;
    const verdict = verdicts.get(line);
    const problems = [...r.problems, ...repeated.filter((p) => p.line === line), ...(verdict?.problems ?? [])];
    // What is kept is the row as read: the job judges it again when it writes (users change meanwhile).
    return { line, email: r.email.slice(0, 254), problems, row: problems.length === 0 ? r.row : undefined };
  });
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('user_imports')
      .values({
        actor_id: actor.userId,
        generation,
        file_name: fileName.slice(0, 200),
        encoding,
        status: 'VALIDADO',
        total_rows: rows.length,
        valid_rows: rows.filter((r) => r.row).length,
        ip,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const some of chunks(rows, 500))
      await trx
        .insertInto('user_import_rows')
        .values(
          some.map((r) => ({
            import_id: id,
            line: r.line,
            email: r.email,
            data: r.row ? JSON.stringify(r.row) : null,
            problems: r.problems.length > 0 ? JSON.stringify(r.problems.map(({ column, message }) => ({ column, message }))) : null,
          })),
        )
        .execute();
    return id;
  });
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

export interface ImportSummary {
  id: number;
  generation: 'v1' | 'v2';
  fileName: string;
  status: 'VALIDADO' | 'NA_FILA' | 'PROCESSANDO' | 'CONCLUIDO' | 'ERRO';
  totalRows: number;
  validRows: number;
  processedRows: number;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  results: Record<ImportResult, number>;
}

/** The actor's own import `id` (anyone else's is undefined: the 404). */
export async function importOf(db: DB, actor: Actor, id: number): Promise<ImportSummary | undefined> {
  const row = await db
    .selectFrom('user_imports as i')
    .selectAll('i')
    .select([
      sql<
        Record<string, number>
      >`coalesce((select json_object_agg(r.result, r.n) from (select result, count(*)::int as n from user_import_rows where import_id = i.id and result is not null group by result) r), '{}')`.as(
        'counts',
      ),
    ])
    .where('i.id', '=', id)
    .where('i.actor_id', '=', actor.userId)
    .where('i.generation', '=', actor.generation)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    generation: row.generation,
    fileName: row.file_name,
    status: row.status,
    totalRows: row.total_rows,
    validRows: row.valid_rows,
    processedRows: row.processed_rows,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    results: { criado: 0, atualizado: 0, sem_alteracao: 0, recusado: 0, ...row.counts },
  };
}

/** The rows with problems (line, column, message), a page of them at a time. */
export async function importProblems(db: DB, importId: number, limit = 200) {
  const rows = await db
    .selectFrom('user_import_rows')
    .select(['line', 'email', 'problems'])
    .where('import_id', '=', importId)
    .where('problems', 'is not', null)
    .orderBy('line')
    .limit(limit)
    .execute();
  return rows.flatMap((r) => (r.problems ?? []).map((p) => ({ line: r.line, email: r.email, ...p })));
}

/** The actor's latest imports of their generation. */
export async function recentImports(db: DB, actor: Actor, limit = 5) {
  return db
    .selectFrom('user_imports')
    .select(['id', 'file_name', 'status', 'total_rows', 'valid_rows', 'processed_rows', 'created_at'])
    .where('actor_id', '=', actor.userId)
    .where('generation', '=', actor.generation)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The result file: every line of the file with its e-mail, result and reason (csv-stringify, formulas as text). */
export async function resultCsv(db: DB, importId: number): Promise<string> {
  const rows = await db
    .selectFrom('user_import_rows')
    .select(['line', 'email', 'problems', 'result', 'reason'])
    .where('import_id', '=', importId)
    .orderBy('line')
    .execute();
  const LABEL: Record<string, string> = {
    criado: 'criado',
    atualizado: 'atualizado',
    sem_alteracao: 'sem alteração',
    recusado: 'recusado',
  };
  return stringify(
    rows.map((r) => {
      const reason = r.problems ? r.problems.map((p) => `${p.column}: ${p.message}`).join(' | ') : (r.reason ?? '');
      return [r.line, r.email, r.problems ? 'recusado' : r.result ? LABEL[r.result] : 'pendente', reason];
    }),
    { ...REPORT_CSV_OPTIONS, header: true, columns: ['linha', 'email', 'resultado', 'motivo'] },
  );
}

// ─── Confirmation and processing ─────────────────────────────────────────────────────────────────

/** Queues a validated import of the actor's with something to write. */
export async function confirmImport(db: DB, actor: Actor, id: number): Promise<void> {
  requireChange(actor);
  const updated = await db
    .updateTable('user_imports')
    .set({ status: 'NA_FILA', confirmed_at: now() })
    .where('id', '=', id)
    .where('actor_id', '=', actor.userId)
    .where('status', '=', 'VALIDADO')
    .where('valid_rows', '>', 0)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new ApiError(409, 'Esta importação já foi confirmada ou não tem linhas válidas.');
}

/** Takes one import waiting (or whose worker went quiet) for this instance; undefined when none. */
async function claim(db: DB): Promise<{ id: number; actor_id: number; generation: 'v1' | 'v2'; ip: string | null } | undefined> {
  return db.transaction().execute(async (trx) => {
    const next = await trx
      .selectFrom('user_imports')
      .select(['id', 'actor_id', 'generation', 'ip'])
      .where((eb) =>
        eb.or([
          eb('status', '=', 'NA_FILA'),
          eb.and([eb('status', '=', 'PROCESSANDO'), eb('claimed_at', '<', new Date(now().getTime() - STALE_CLAIM_MS))]),
        ]),
      )
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (next) await trx.updateTable('user_imports').set({ status: 'PROCESSANDO', claimed_at: now() }).where('id', '=', next.id).execute();
    return next;
  });
}

const reasonOf = (error: unknown): string | undefined => {
  if (!(error instanceof ApiError)) return undefined;
  const fields = error.fieldErrors ? Object.entries(error.fieldErrors).map(([f, m]) => `${COLUMN_OF[f] ?? f}: ${m.join(' ')}`) : [];
  return fields.length > 0 ? fields.join(' | ') : error.message;
};
const reasonOfProblems = (problems: readonly RowProblem[]) => problems.map((p) => `${p.column}: ${p.message}`).join(' | ');

type Outcome = { result: ImportResult; reason?: string };

/** Records rows' results and counts them done, in the caller's transaction. */
async function record(trx: DB, importId: number, outcomes: ReadonlyMap<number, Outcome>): Promise<void> {
  for (const [line, { result, reason }] of outcomes)
    await trx
      .updateTable('user_import_rows')
      .set({ result, reason: reason ?? null })
      .where('import_id', '=', importId)
      .where('line', '=', line)
      .execute();
  await trx
    .updateTable('user_imports')
    .set({ processed_rows: sql`processed_rows + ${outcomes.size}`, claimed_at: now() })
    .where('id', '=', importId)
    .execute();
}

/**
 * Writes one batch, judged again against the database as it is now. One transaction holds the new
 * users, their first-access codes and e-mails (queued), and the results of every row it decides —
 * so a crash leaves the batch either done and recorded or not begun. A refusal is that row's; a
 * database error redoes the batch row by row. Users who already exist change through the single-user
 * path, one by one, each result recorded right after.
 */
async function writeBatch(
  db: DB,
  actor: Actor,
  importId: number,
  rows: readonly ImportRow[],
  facts: Awaited<ReturnType<typeof lookups>>,
  ip: string | null,
) {
  const found = await existingUsers(db, rows);
  const verdicts = rows.map((row) => ({ line: row.line, ...judge(actor, row, found, facts) }));
  const decided = new Map<number, Outcome>();
  for (const v of verdicts) {
    if (v.problems.length > 0) decided.set(v.line, { result: 'recusado', reason: reasonOfProblems(v.problems) });
    else if (v.stored?.unchanged) decided.set(v.line, { result: 'sem_alteracao' });
  }
  const creations = verdicts.filter((v) => v.stored && !v.stored.existingId);
  const create = async (trx: DB, stored: StoredRow): Promise<Outcome> => {
    try {
      // The new user's first-access code and e-mail are written with them, in this batch's transaction.
      if (stored.generation === 'v1') await insertLegacyUser(trx, actor as V1Actor, stored.input, ip);
      else await insertV2User(trx, actor as V2Actor, stored.change, ip);
      return { result: 'criado' };
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === undefined) throw error;
      return { result: 'recusado', reason };
    }
  };
  try {
    await db.transaction().execute(async (trx) => {
      const outcomes = new Map(decided);
      for (const v of creations) outcomes.set(v.line, await create(trx, v.stored!));
      await record(trx, importId, outcomes);
    });
  } catch {
    // The database refused something mid-batch (a unique key taken meanwhile): each row on its own.
    await db.transaction().execute((trx) => record(trx, importId, decided));
    const failed: Outcome = { result: 'recusado', reason: 'Não foi possível gravar este usuário.' };
    for (const v of creations)
      await db
        .transaction()
        .execute(async (trx) => record(trx, importId, new Map([[v.line, await create(trx, v.stored!)]])))
        .catch(() => db.transaction().execute((trx) => record(trx, importId, new Map([[v.line, failed]]))));
  }
  for (const v of verdicts.filter((x) => x.stored?.existingId && !x.stored.unchanged)) {
    const stored = v.stored!;
    let outcome: Outcome;
    try {
      if (stored.generation === 'v1') await updateLegacyUser(db, actor as V1Actor, stored.existingId!, stored.input, ip);
      else await updateV2User(db, actor as V2Actor, stored.existingId!, stored.change, ip);
      outcome = { result: 'atualizado' };
    } catch (error) {
      outcome = { result: 'recusado', reason: reasonOf(error) ?? 'Não foi possível alterar este usuário.' };
    }
    // Were this record lost, the next run would find the user as the file says: "sem alteração".
    await db.transaction().execute((trx) => record(trx, importId, new Map([[v.line, outcome]])));
  }
}

/** The import's author as the rules' actor, while still active and allowed to change users. */
async function authorOf(db: DB, id: number): Promise<Actor> {
  const author = await db.selectFrom('users').select(['id', 'generation', 'profile', 'status']).where('id', '=', id).executeTakeFirst();
  if (author?.status !== 'ATIVO') throw forbidden('O autor da importação não está mais ativo.');
  const actor = await actorOf(db, author);
  if (!mayChangeUsers(actor)) throw forbidden('O autor da importação não pode mais alterar usuários.');
  return actor;
}

/** The job (server/jobs.ts): writes every import waiting, a batch at a time, yielding between batches. */
export async function processImports(db: DB): Promise<void> {
  for (let job = await claim(db); job; job = await claim(db)) {
    try {
      const facts = await lookups(db);
      for (;;) {
        // The author as they are now, each batch: one blocked, demoted or moved meanwhile stops
        // writing with the rights they no longer have.
        const actor = await authorOf(db, job.actor_id);
        const rows = await db
          .selectFrom('user_import_rows')
          .select(['line', 'data'])
          .where('import_id', '=', job.id)
          .where('result', 'is', null)
          .where('data', 'is not', null)
          .orderBy('line')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        await writeBatch(
          db,
          actor,
          job.id,
          rows.map((r) => r.data as unknown as ImportRow),
          facts,
          job.ip,
        );
        await yieldTurn(); // other requests' turn
      }
      await db.updateTable('user_imports').set({ status: 'CONCLUIDO', finished_at: now() }).where('id', '=', job.id).execute();
    } catch (error) {
      const message =
        error instanceof ApiError ? error.message : 'Falha inesperada ao importar; as linhas já gravadas ficam, peça de novo as demais.';
      if (!(error instanceof ApiError)) logError('importacao-falha', { importacao: job.id, erro: errorMessage(error) });
      await db.updateTable('user_imports').set({ status: 'ERRO', error: message, finished_at: now() }).where('id', '=', job.id).execute();
    }
  }
}
