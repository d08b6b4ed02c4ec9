import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 item 4 (decision 058): the sales reports' queue is shared fairly between users.
 * - sales_reports.vez: the turn a report was claimed at, from one sequence (monotonic across every
 *   instance over one PostgreSQL, unlike a clock). The job claims next the waiting report of the user
 *   whose latest turn is oldest (or who never had one): round-robin by user instead of FIFO.
 * - sales_reports_user_turn serves that "latest turn of this user" as one index probe per user.
 * - sales_reports_user_pending serves the per-user cap on reports waiting or being made, counted
 *   inside the transaction that inserts (it reads only the user's pending rows, not their history).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence sales_reports_vez`.execute(db);
  await db.schema.alterTable('sales_reports').addColumn('vez', 'bigint').execute();
  await db.schema.createIndex('sales_reports_user_turn').on('sales_reports').columns(['user_id', 'vez']).execute();
  await sql`create index sales_reports_user_pending on sales_reports (user_id) where status in ('NA_FILA', 'GERANDO')`.execute(db);
}
