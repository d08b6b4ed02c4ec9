import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { DomainError, forbidden, conflict } from '../../errors';
import { now } from '../../clock';
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
  fieldChanges,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  readHeader,
  readRow,
  templatePerson,
  templateRows,
  type FieldChange,
  type ImportGeneration,
  type ImportResult,
  type ImportRow,
  type RowProblem,
} from '../../../lib/user-import';
import {
  formStatusOf,
  grantableGroups,
  grantableProfiles,
  heldOperations,
  managedCompanies,
  mayChangeUsers,
  mayManage,
  PROFILE_LABELS,
  STATUS_LABELS,
  statusOfForm,
  unknownGroups,
  USER_ADMIN_MESSAGES,
  v1GrantProblems,
  v2GrantProblems,
  type Actor,
  type FieldErrors,
  type LegacyUserInput,
  type ManagedUser,
  type V1Actor,
  type V2Actor,
} from '../../../lib/user-admin';
import { REPORT_CSV_OPTIONS } from '../../../lib/sales-reports';
import { formatPhone } from '../../../lib/quote-summary';
import { formatCnpj } from '../../../lib/validators';
import type { Profile } from '../../../lib/permissions';
import { appendAccessEvent } from '../identity/access-log';
import { errorMessage, logError } from '../../log';

/*
 * Bulk user import (issue 16, decision 048). The upload reads the file whole (2 MB at most) and
 * checks every row at once — the forms' schemas, then what the database says, in a handful of bulk
 * queries: companies, points of sale, groups, and the users already there — so each row's problems
 * are shown by line and column before anything is written. Confirming queues it; the jobs of every
 * instance take it (SKIP LOCKED) and write it in batches, one transaction per batch of new users,
 * each row ending with its result. A row for a user who already exists is shown at the validation
 * with each field it would change (old → new; a different CPF is an error: an import never changes
 * who an account is), and updates them through the single-user path (every check of a manual edit)
 * only when the author asked for it at the confirmation (decision 060); otherwise it is skipped
 * ("ignorado"), or left alone when nothing differs — so the same file imported twice creates nobody
 * twice.
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

/** What a valid row stores: the input of the single-user path, the user it updates (when any) and what would change. */
type StoredRow =
  | { generation: 'v1'; input: LegacyUserInput; existingId?: number; unchanged?: boolean; changes: FieldChange[] }
  | { generation: 'v2'; change: V2Change; existingId?: number; unchanged?: boolean; changes: FieldChange[] };

/**
 * A row as kept between the validation and the job: as read, and — when its e-mail was an account's
 * — that account and the changes the author was shown. The job updates only an account it finds the
 * same, with the same changes: nothing the author did not see.
 */
type KeptRow = ImportRow & { seen?: { id: number; changes: FieldChange[] } };

/** Field by field (jsonb keeps an object's keys in its own order: no comparing the JSON text). */
const sameChanges = (a: readonly FieldChange[], b: readonly FieldChange[]) =>
  a.length === b.length && a.every((c, i) => c.column === b[i]!.column && c.before === b[i]!.before && c.after === b[i]!.after);
const listText = (values: readonly string[]) => [...values].sort((a, b) => a.localeCompare(b, 'pt-BR')).join(', ');

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
  const before = byEmail ? managedOf(byEmail) : undefined;
  if (byEmail && !mayManage(actor, before!, facts.groups)) {
    // Not theirs: nothing else about the account is told (not even whether the CPF matches).
    return { problems: problemsOf(row.line, { email: ['E-mail já cadastrado para um usuário que você não administra.'] }) };
  }
  // Who an account is does not change by import (issue 27): a CPF other than the account's is the row's error.
  if (byEmail && byEmail.cpf !== cpf) errors.cpf = [IMPORT_MESSAGES.cpfOfExisting];
  else if (byCpf && byCpf.id !== byEmail?.id) errors.cpf = [USER_ADMIN_MESSAGES.duplicateCpf];
  // A blank situacao keeps an existing user's status: re-importing a team never reactivates who left.
  const status = row.keepStatus && byEmail ? formStatusOf(byEmail.status) : row.generation === 'v1' ? row.input.status : row.status;
  const statusLabel = (s: typeof status) => STATUS_LABELS[statusOfForm(s)];
  const cnpjOf = (id: number | null) => (id === null ? '' : formatCnpj(facts.companies.find((c) => c.id === id)?.cnpj ?? ''));
  if (row.generation === 'v1') {
    const company = row.input.empresa ? facts.companies.find((c) => c.cnpj === row.input.empresa) : null;
    if (company === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
    const unknown = unknownGroups(row.input.grupos, facts.groups);
    Object.assign(
      errors,
      v1GrantProblems(actor as V1Actor, { groups: row.input.grupos, companyId: company?.id ?? null }, facts.groups, before),
      { ...errors },
    );
    if (unknown) errors.grupos = [USER_ADMIN_MESSAGES.unknownGroup(unknown)];
    if (Object.keys(errors).length > 0) return { problems: problemsOf(row.line, errors) };
    const changes = byEmail
      ? fieldChanges(
          'v1',
          {
            nome: byEmail.nome,
            empresa: cnpjOf(byEmail.company_id),
            grupos: listText(byEmail.groups),
            situacao: statusLabel(formStatusOf(byEmail.status)),
          },
          { nome: row.input.nome, empresa: cnpjOf(company?.id ?? null), grupos: listText(row.input.grupos), situacao: statusLabel(status) },
        )
      : [];
    return {
      problems: [],
      stored: {
        generation: 'v1',
        input: { ...row.input, status },
        existingId: byEmail?.id,
        unchanged: byEmail && changes.length === 0,
        changes,
      },
    };
  }
  const companies = row.vinculo.empresas.map((cnpj) => facts.companies.find((c) => c.cnpj === cnpj));
  if (companies.some((c) => !c)) errors.empresas = [USER_ADMIN_MESSAGES.company];
  const ids = companies.filter((c) => c !== undefined).map((c) => c.id);
  const point = row.pontoVenda
    ? facts.points.find((p) => p.codigo.toUpperCase() === row.pontoVenda.toUpperCase() && ids.includes(p.company_id))
    : null;
  // Named but not among the row's companies: of another company the actor manages, or unknown (nothing
  // is told of companies the actor does not manage).
  const managed = managedCompanies(actor);
  const mayKnow = (companyId: number) => managed === 'all' || managed.includes(companyId);
  if (point === undefined)
    errors.pontoVenda = [
      facts.points.some((p) => p.codigo.toUpperCase() === row.pontoVenda.toUpperCase() && mayKnow(p.company_id))
        ? USER_ADMIN_MESSAGES.pointOfSale
        : USER_ADMIN_MESSAGES.unknownPointOfSale,
    ];
  const group = row.grupoPermissao
    ? facts.permissionGroups.find((g) => g.nome.toLowerCase() === row.grupoPermissao.toLowerCase() && ids.includes(g.company_id))
    : null;
  if (group === undefined)
    errors.grupoPermissao = [
      facts.permissionGroups.some((g) => g.nome.toLowerCase() === row.grupoPermissao.toLowerCase() && mayKnow(g.company_id))
        ? USER_ADMIN_MESSAGES.permissionGroup
        : USER_ADMIN_MESSAGES.unknownPermissionGroup,
    ];
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
  const pointCode = (id: number | null) => (id === null ? '' : (facts.points.find((p) => p.id === id)?.codigo ?? ''));
  const groupName = (id: number | null) => (id === null ? '' : (facts.permissionGroups.find((g) => g.id === id)?.nome ?? ''));
  const changes = byEmail
    ? fieldChanges(
        'v2',
        {
          nome: byEmail.nome,
          celular: byEmail.celular ? formatPhone(byEmail.celular) : '',
          perfil: byEmail.profile ? PROFILE_LABELS[byEmail.profile.toUpperCase() as Profile] : '',
          empresas: listText(byEmail.companies.map((id) => cnpjOf(id))),
          ponto_venda: pointCode(byEmail.point_of_sale_id),
          grupo_permissao: groupName(byEmail.permission_group_id),
          operacoes: listText(byEmail.operations),
          situacao: statusLabel(formStatusOf(byEmail.status)),
        },
        {
          nome: row.dados.nome,
          celular: formatPhone(row.dados.celular),
          perfil: PROFILE_LABELS[row.dados.perfil],
          empresas: listText([...new Set(ids)].map((id) => cnpjOf(id))),
          ponto_venda: point?.codigo ?? '',
          grupo_permissao: group?.nome ?? '',
          operacoes: listText([...new Set(row.vinculo.operacoes)]),
          situacao: statusLabel(status),
        },
      )
    : [];
  return {
    problems: [],
    stored: { generation: 'v2', change, existingId: byEmail?.id, unchanged: byEmail && changes.length === 0, changes },
  };
}

/** A refusal of the whole file (a field error on `arquivo`, nothing stored). */
const refuseFile = (message: string, kind: 'invalid' | 'too-large' = 'invalid'): never => refuse({ arquivo: [message] }, kind);

/**
 * Reads and checks an uploaded file; answers the import's id. Nothing but the import and its rows
 * is written: the users wait for the author's confirmation.
 */
export async function uploadImport(db: DB, actor: Actor, fileName: string, bytes: Uint8Array, ip: string | null): Promise<number> {
  requireChange(actor);
  const generation: ImportGeneration = actor.generation;
  if (bytes.byteLength === 0) refuseFile(IMPORT_MESSAGES.empty);
  if (bytes.byteLength > IMPORT_LIMITS.maxBytes) refuseFile(IMPORT_MESSAGES.tooBig, 'too-large');
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
    // What is kept is the row as read, and the account it matched with the changes shown: the job
    // judges it again when it writes (users change meanwhile).
    const stored = verdict?.stored;
    const kept: KeptRow | undefined =
      problems.length === 0 && r.row
        ? { ...r.row, ...(stored?.existingId ? { seen: { id: stored.existingId, changes: stored.changes } } : {}) }
        : undefined;
    return { line, email: r.email.slice(0, 254), problems, row: kept };
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
        created_at: now(),
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

// ─── The template ────────────────────────────────────────────────────────────────────────────────

/**
 * The template the actor downloads (issue 27): its example line names the actor's own company, a
 * group, point of sale and permission they may give, and a person whose CPF and e-mail nobody holds
 * — so the template sent back unchanged validates. Sample data (ILLUSTRATIVE), read in a few queries.
 */
export async function importTemplate(db: DB, actor: Actor): Promise<string> {
  requireChange(actor);
  const people = Array.from({ length: 10 }, (_, n) => templatePerson(n));
  const taken = await db
    .selectFrom('users')
    .select(['email', 'cpf'])
    .where((eb) =>
      eb.or([
        eb(
          'email',
          'in',
          people.map((p) => p.email),
        ),
        eb(
          'cpf',
          'in',
          people.map((p) => p.cpf.replace(/\D/g, '')),
        ),
      ]),
    )
    .execute();
  const person = people.find((p) => !taken.some((t) => t.email === p.email || t.cpf === p.cpf.replace(/\D/g, ''))) ?? people[0]!;
  const managed = managedCompanies(actor);
  let companies = db.selectFrom('companies').select(['id', 'cnpj', 'tipo']).orderBy('id');
  if (managed !== 'all') companies = companies.where('id', 'in', managed.length > 0 ? [...managed] : [0]);
  const [mine, facts] = await Promise.all([companies.execute(), lookups(db)]);
  if (actor.generation === 'v1') {
    const grantable = grantableGroups(actor, facts.groups).filter((g) => !g.isAdmin);
    const group = grantable.find((g) => g.nome === 'VENDEDOR') ?? grantable[0];
    return stringify(
      templateRows('v1', {
        ...person,
        empresa: mine[0] ? formatCnpj(mine[0].cnpj) : '',
        ...(group ? { grupos: group.nome } : {}),
      }),
      REPORT_CSV_OPTIONS,
    );
  }
  const profiles = grantableProfiles(actor).filter((p): p is 'PARCEIRO' | 'SUBSTABELECIDO' => p === 'PARCEIRO' || p === 'SUBSTABELECIDO');
  const profile = profiles.find((p) => mine.some((c) => c.tipo === p)) ?? profiles[0] ?? 'PARCEIRO';
  const company = mine.find((c) => c.tipo === profile);
  const held = new Set(heldOperations(actor));
  const point = facts.points.find((p) => p.company_id === company?.id && p.status === 'ATIVO');
  const group = facts.permissionGroups.find((g) => g.company_id === company?.id && g.operations.every((op) => held.has(op)));
  return stringify(
    templateRows('v2', {
      ...person,
      perfil: profile,
      empresas: company ? formatCnpj(company.cnpj) : '',
      ponto_venda: point?.codigo ?? '',
      grupo_permissao: group?.nome ?? '',
      operacoes: held.has('COTAR_VENDER') ? 'COTAR_VENDER' : '',
    }),
    REPORT_CSV_OPTIONS,
  );
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
  /** Valid rows whose e-mail is an existing account's, as validated: with changes to show, and without. */
  existing: { changed: number; unchanged: number };
  /** What the author chose at the confirmation (decision 060). */
  updateExisting: boolean;
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
      sql<number>`(select count(*)::int from user_import_rows where import_id = i.id and data->'seen' is not null and jsonb_array_length(data->'seen'->'changes') > 0)`.as(
        'changed',
      ),
      sql<number>`(select count(*)::int from user_import_rows where import_id = i.id and data->'seen' is not null and jsonb_array_length(data->'seen'->'changes') = 0)`.as(
        'unchanged',
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
    results: { criado: 0, atualizado: 0, sem_alteracao: 0, ignorado: 0, recusado: 0, ...row.counts },
    existing: { changed: row.changed, unchanged: row.unchanged },
    updateExisting: row.update_existing,
  };
}

/** The valid rows that would change an existing account: each field old → new, a page of them at a time. */
export async function importChanges(db: DB, importId: number, limit = 200) {
  const rows = await db
    .selectFrom('user_import_rows')
    .select(['line', 'email', 'data'])
    .where('import_id', '=', importId)
    .where(sql<boolean>`data->'seen' is not null and jsonb_array_length(data->'seen'->'changes') > 0`)
    .orderBy('line')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const kept = r.data as unknown as KeptRow;
    const changes = kept.seen?.changes ?? [];
    // The name the account has now is the one before the change (or the row's, when unchanged).
    const nome = changes.find((c) => c.column === 'nome')?.before ?? (kept.generation === 'v1' ? kept.input.nome : kept.dados.nome);
    return { line: r.line, email: r.email, nome, changes };
  });
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
  const LABEL: Record<ImportResult, string> = {
    criado: 'criado',
    atualizado: 'atualizado',
    sem_alteracao: 'sem alteração',
    ignorado: 'ignorado',
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

/** What the author chooses at the confirmation. */
export interface ImportConfirmation {
  /** Update the existing accounts whose changes the validation showed; false (the default) skips them. */
  updateExisting: boolean;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Queues a validated import of the actor's with something to write, with the author's choice about
 * existing accounts; once only (a second confirmation is a 409, whatever it asks). The access log
 * says who confirmed what: how many to create, and whether the accounts with changes are updated.
 */
export async function confirmImport(db: DB, actor: Actor, id: number, choice: ImportConfirmation, ip: string | null): Promise<void> {
  requireChange(actor);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('user_imports')
      .set({ status: 'NA_FILA', confirmed_at: now(), update_existing: choice.updateExisting })
      .where('id', '=', id)
      .where('actor_id', '=', actor.userId)
      .where('status', '=', 'VALIDADO')
      .where('valid_rows', '>', 0)
      .returning(['generation'])
      .executeTakeFirst();
    if (!updated) throw conflict('Esta importação já foi confirmada ou não tem linhas válidas.');
    const summary = (await importOf(trx, actor, id))!;
    const created = summary.validRows - summary.existing.changed - summary.existing.unchanged;
    const detail = [
      `${created} a criar`,
      summary.existing.changed === 0
        ? undefined
        : choice.updateExisting
          ? counted(summary.existing.changed, 'existente a atualizar', 'existentes a atualizar')
          : counted(summary.existing.changed, 'existente com alterações não atualizado', 'existentes com alterações não atualizados'),
      `${summary.existing.unchanged} sem alteração`,
    ]
      .filter(Boolean)
      .join('; ');
    const author = await trx.selectFrom('users').select(['email']).where('id', '=', actor.userId).executeTakeFirstOrThrow();
    await appendAccessEvent(trx, {
      event: 'USUARIOS_IMPORTADOS',
      generation: updated.generation,
      email: author.email,
      userId: actor.userId,
      actorId: actor.userId,
      ip,
      detalhe: detail,
      registroTipo: 'IMPORTACAO_USUARIOS',
      registro: String(id),
    });
  });
}

/** Takes one import waiting (or whose worker went quiet) for this instance; undefined when none. */
async function claim(
  db: DB,
): Promise<{ id: number; actor_id: number; generation: 'v1' | 'v2'; ip: string | null; update_existing: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const next = await trx
      .selectFrom('user_imports')
      .select(['id', 'actor_id', 'generation', 'ip', 'update_existing'])
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
  if (!(error instanceof DomainError)) return undefined;
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
  rows: readonly KeptRow[],
  facts: Awaited<ReturnType<typeof lookups>>,
  ip: string | null,
  updateExisting: boolean,
) {
  const found = await existingUsers(db, rows);
  const verdicts = rows.map((row) => ({ line: row.line, seen: row.seen, ...judge(actor, row, found, facts) }));
  const decided = new Map<number, Outcome>();
  for (const v of verdicts) {
    if (v.problems.length > 0) decided.set(v.line, { result: 'recusado', reason: reasonOfProblems(v.problems) });
    else if (v.stored?.unchanged) decided.set(v.line, { result: 'sem_alteracao' });
    else if (v.stored?.existingId) {
      // An update only when asked, and only of the account shown with the changes shown (decision 060).
      if (!updateExisting) decided.set(v.line, { result: 'ignorado', reason: IMPORT_MESSAGES.skipped });
      else if (v.seen?.id !== v.stored.existingId || !sameChanges(v.seen.changes, v.stored.changes))
        decided.set(v.line, { result: 'ignorado', reason: IMPORT_MESSAGES.changedSinceValidation });
    }
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
  for (const v of verdicts.filter((x) => x.stored?.existingId && !decided.has(x.line))) {
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

/** The job (server/boot/jobs.ts): writes every import waiting, a batch at a time, yielding between batches. */
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
          rows.map((r) => r.data as unknown as KeptRow),
          facts,
          job.ip,
          job.update_existing,
        );
        await yieldTurn(); // other requests' turn
      }
      await db.updateTable('user_imports').set({ status: 'CONCLUIDO', finished_at: now() }).where('id', '=', job.id).execute();
    } catch (error) {
      const message =
        error instanceof DomainError ? error.message : 'Falha inesperada ao importar; as linhas já gravadas ficam, peça de novo as demais.';
      if (!(error instanceof DomainError)) logError('importacao-falha', { importacao: job.id, erro: errorMessage(error) });
      await db.updateTable('user_imports').set({ status: 'ERRO', error: message, finished_at: now() }).where('id', '=', job.id).execute();
    }
  }
}
