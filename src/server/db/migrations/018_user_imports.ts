import { type Kysely, sql } from 'kysely';

/**
 * Issue 16 (decision 048): bulk user imports. An import is read and checked when the file arrives
 * (every row kept with its problems, by line and column), confirmed by its author, then written in
 * the background by the jobs of every instance — claimed with SKIP LOCKED, a batch per transaction —
 * each row ending with its result (created, updated, unchanged, refused and why).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_imports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('generation', 'text', (c) => c.notNull().check(sql`generation in ('v1', 'v2')`))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('encoding', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('VALIDADO', 'NA_FILA', 'PROCESSANDO', 'CONCLUIDO', 'ERRO')`))
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('valid_rows', 'integer', (c) => c.notNull())
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('confirmed_at', 'timestamptz')
    // The worker's last sign of life: an import PROCESSANDO whose worker went quiet is taken up again.
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('user_imports_waiting').on('user_imports').columns(['status', 'id']).execute();
  await db.schema.createIndex('user_imports_actor').on('user_imports').columns(['actor_id', 'created_at']).execute();
  await db.schema
    .createTable('user_import_rows')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('user_imports.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb')
    .addColumn('problems', 'jsonb')
    .addColumn('result', 'text', (c) => c.check(sql`result in ('criado', 'atualizado', 'sem_alteracao', 'recusado')`))
    .addColumn('reason', 'text')
    .addPrimaryKeyConstraint('user_import_rows_pk', ['import_id', 'line'])
    .execute();
}
