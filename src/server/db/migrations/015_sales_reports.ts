import { type Kysely, sql } from 'kysely';

/**
 * Issue 15, sales reports (decision 042): a report asked for is a row, generated in the background by
 * whichever instance claims it (FOR UPDATE SKIP LOCKED; a claim that outlives `reservado_ate` — an
 * instance that died mid-report — is claimed again, at most three times). The request keeps the
 * scope it was asked under, so the file holds exactly what its requester could see then. The file is
 * DATA_DIR/files/<sha256>, like the documents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sales_reports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('generation', 'text', (c) => c.notNull().check(sql`generation in ('v1', 'v2')`))
    /** The request as asked (lib/sales-reports.ts ReportRequest) and the names of its filters. */
    .addColumn('pedido', 'jsonb', (c) => c.notNull())
    /** The scope and the filters as ids, fixed when asked. */
    .addColumn('filtro', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('NA_FILA').check(sql`status in ('NA_FILA', 'GERANDO', 'PRONTO', 'ERRO')`))
    .addColumn('total', 'integer')
    .addColumn('linhas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('motivo', 'text')
    .addColumn('sha256', 'text', (c) => c.check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('tamanho', 'bigint')
    .addColumn('tentativas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reservado_ate', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sales_reports_user').on('sales_reports').columns(['user_id', 'id']).execute();
  await sql`create index sales_reports_pending on sales_reports (id) where status in ('NA_FILA', 'GERANDO')`.execute(db);
  // The reports read proposals by the day they were sent.
  await db.schema.createIndex('proposals_created_at').on('proposals').columns(['created_at']).execute();
}
