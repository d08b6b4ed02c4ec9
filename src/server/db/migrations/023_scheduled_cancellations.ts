import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 (decision 055): a cancellation asked for a day ahead is kept, not carried out at once. The
 * policy stays in force, its installments due, until that day, when the job of server/boot/jobs.ts issues
 * the endorsement — with the refund of what was paid by then — exactly as a confirmation would.
 * - dados: the draft's answers (motivo, coberturas), as lib/cancellation.ts reads them.
 * - conta: where the refund goes (lib/refund-account.ts), checked when scheduled; null when the
 *   insured had paid nothing and nothing can come back.
 * - chave: the draft's key, so a confirmation sent twice schedules once.
 * - status: AGENDADO until the day; then EFETIVADO (endorsement_id) or, undone before, DESFEITO.
 * - One AGENDADO per policy (a partial unique index): a second one is asked to undo the first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('scheduled_cancellations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('chave', 'text', (c) => c.notNull().unique())
    .addColumn('dados', 'jsonb', (c) => c.notNull())
    .addColumn('conta', 'jsonb')
    .addColumn('solicitada_em', 'date', (c) => c.notNull())
    .addColumn('efetiva_em', 'date', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('AGENDADO').check(sql`status in ('AGENDADO', 'EFETIVADO', 'DESFEITO')`))
    .addColumn('endorsement_id', 'integer', (c) => c.references('endorsements.id'))
    .addColumn('desfeito_por', 'integer', (c) => c.references('users.id'))
    .addColumn('desfeito_em', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create unique index scheduled_cancellations_one_per_policy on scheduled_cancellations (policy_id) where status = 'AGENDADO'`.execute(
    db,
  );
  // The job's question: which are due today.
  await sql`create index scheduled_cancellations_due on scheduled_cancellations (efetiva_em) where status = 'AGENDADO'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduled_cancellations').execute();
}
