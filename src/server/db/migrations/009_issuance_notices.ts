import { type Kysely, sql } from 'kysely';

/**
 * Issue 13, telling the seller and the insured that a policy was issued. Those messages are written
 * in the transaction that issues the policy and delivered after it by a job (emails.fila), which
 * leases a message (reservado_ate) so that of several instances only one sends it. The insured gets
 * a link to the policy's PDF that needs no account: policy_links keeps only the SHA-256 of its token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('emails')
    .addColumn('fila', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('reservado_ate', 'timestamptz')
    .execute();
  await sql`create index emails_queued on emails (id) where fila and sent_at is null and error is null`.execute(db);

  await db.schema
    .createTable('policy_links')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expira_em', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
