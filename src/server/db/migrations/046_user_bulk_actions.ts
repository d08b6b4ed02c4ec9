import { type Kysely, sql } from 'kysely';

/**
 * Issue 32 (decision 070): bulk actions on the users lists. A job is what its author confirmed after
 * the preview — the action, the group when it names one, and the users selected (a page's checked
 * rows, or every user the filter matched, kept as items so the run does exactly the users previewed).
 * The jobs of every instance take turns on it (server/boot/jobs.ts): a turn claims the job waiting
 * longest for one (SKIP LOCKED), does a batch of users — each through the single-user service, in its
 * own transaction — and gives it back, so one administrator's 5,000 users do not hold up another's 10.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_bulk_jobs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('generation', 'text', (c) => c.notNull().check(sql`generation in ('v1', 'v2')`))
    .addColumn('acao', 'text', (c) => c.notNull())
    /** The legacy group's name, or the v2 permission group's id, for the group actions. */
    .addColumn('grupo', 'text')
    /** What selected the users, as the author saw it (the filters, or "selecionados"), for the summary. */
    .addColumn('selecao', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('NA_FILA', 'PROCESSANDO', 'CONCLUIDO', 'ERRO')`))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Held while a worker does a batch; a worker silent past the stale limit lost it.
    .addColumn('claimed_at', 'timestamptz')
    // When its last batch ended: the turns go to the job that waited longest.
    .addColumn('turn_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index user_bulk_jobs_waiting on user_bulk_jobs (turn_at nulls first, id) where status in ('NA_FILA', 'PROCESSANDO')`.execute(
    db,
  );
  await db.schema.createIndex('user_bulk_jobs_actor').on('user_bulk_jobs').columns(['actor_id', 'created_at']).execute();
  await db.schema
    .createTable('user_bulk_items')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('user_bulk_jobs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.check(sql`result in ('alterado', 'ignorado', 'recusado')`))
    /** The skip's code (lib/user-bulk.ts SKIP_REASONS) or the refusal's message. */
    .addColumn('reason', 'text')
    .addPrimaryKeyConstraint('user_bulk_items_pk', ['job_id', 'user_id'])
    .execute();
  await sql`create index user_bulk_items_pending on user_bulk_items (job_id, user_id) where result is null`.execute(db);
}
