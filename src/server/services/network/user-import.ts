import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { now } from '../../clock';
import { legacyGroups, requireChange } from './user-admin';
import { refuse } from './user-admin-writing';
import type { V2Change } from './user-admin-v2';
import {
  decodeCsv,
  delimiterOf,
  duplicatesInFile,
  fieldChanges,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  readHeader,
  readRow,
  type FieldChange,
  type ImportGeneration,
  type ImportRow,
  type RowProblem,
} from '../../../lib/user-import';
import {
  formStatusOf,
  managedCompanies,
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
import { formatPhone } from '../../../lib/quote-summary';
import { formatCnpj } from '../../../lib/validators';
import type { Profile } from '../../../lib/permissions';

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
 *
 * This file holds the upload and its validation (the rules' verdict on each row, which the job asks
 * again when it writes); the template is in user-import-template.ts, what the pages read of an import
 * in user-import-reading.ts, the confirmation and the job in user-import-processing.ts.
 */

// ─── Upload and validation ───────────────────────────────────────────────────────────────────────

/** What a valid row stores: the input of the single-user path, the user it updates (when any) and what would change. */
export type StoredRow =
  | { generation: 'v1'; input: LegacyUserInput; existingId?: number; unchanged?: boolean; changes: FieldChange[] }
  | { generation: 'v2'; change: V2Change; existingId?: number; unchanged?: boolean; changes: FieldChange[] };

/**
 * A row as kept between the validation and the job: as read, and — when its e-mail was an account's
 * — that account and the changes the author was shown. The job updates only an account it finds the
 * same, with the same changes: nothing the author did not see.
 */
export type KeptRow = ImportRow & { seen?: { id: number; changes: FieldChange[] } };

/** Field by field (jsonb keeps an object's keys in its own order: no comparing the JSON text). */
export const sameChanges = (a: readonly FieldChange[], b: readonly FieldChange[]) =>
  a.length === b.length && a.every((c, i) => c.column === b[i]!.column && c.before === b[i]!.before && c.after === b[i]!.after);
const listText = (values: readonly string[]) => [...values].sort((a, b) => a.localeCompare(b, 'pt-BR')).join(', ');

/** The field of a rule's refusal → the file's column. */
export const COLUMN_OF: Record<string, string> = {
  pontoVenda: 'ponto_venda',
  grupoPermissao: 'grupo_permissao',
  status: 'situacao',
};
const problemsOf = (line: number, errors: FieldErrors): RowProblem[] =>
  Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ line, column: COLUMN_OF[field] ?? field, message })));

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** The users already registered under the file's e-mails or CPFs, with what the rules judge. */
export async function existingUsers(db: DB, rows: readonly ImportRow[]) {
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
export async function lookups(db: DB) {
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
export function judge(
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
