import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import type { DB } from '../../db';
import type { KeptRow } from './user-import';
import type { ImportResult } from '../../../lib/user-import';
import type { Actor } from '../../../lib/user-admin';
import { REPORT_CSV_OPTIONS } from '../../../lib/sales-reports';

/*
 * Bulk user import, reading (issue 16, decision 048): an import as its pages show it — the summary,
 * the changes to existing accounts, the rows with problems, the actor's latest imports — and the
 * result file.
 */

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
