import { type Kysely, sql } from 'kysely';

/**
 * Issue 15, commissions (decision 041). The commissions themselves are not stored: each month's
 * statement is derived on read from payments × the rate fixed at the sale (quotes.comissao_centesimos)
 * and the clawbacks of cancellations (refunds.estorno_comissao), so rows inserted by any path — the
 * services, a bank's notice, demo data — show up at once. What is stored is what a person does: the
 * nota fiscal a partner sends for a closed month, with the amount it was checked against (the month's
 * total at that moment, frozen with it), its file's metadata (the bytes are DATA_DIR/files/<sha256>,
 * server/files.ts) and the insurer's decision. One nota per company and month unless refused: a
 * partial unique index, so two uploads at once cannot both pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notas_fiscais')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('competencia', 'text', (c) => c.notNull().check(sql`competencia ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`))
    .addColumn('numero', 'text', (c) => c.notNull().check(sql`numero ~ '^[0-9]{1,15}$'`))
    .addColumn('valor', 'integer', (c) => c.notNull().check(sql`valor > 0`))
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull().check(sql`mime in ('application/pdf', 'application/xml')`))
    .addColumn('tamanho', 'integer', (c) => c.notNull().check(sql`tamanho > 0`))
    .addColumn('sha256', 'text', (c) => c.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ENVIADA').check(sql`status in ('ENVIADA', 'APROVADA', 'RECUSADA', 'PAGA')`))
    .addColumn('motivo', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decidida_por', 'integer', (c) => c.references('users.id'))
    .addColumn('decidida_em', 'timestamptz')
    .addColumn('paga_em', 'timestamptz')
    .execute();
  await sql`create unique index notas_fiscais_uma_por_mes on notas_fiscais (company_id, competencia) where status <> 'RECUSADA'`.execute(
    db,
  );
  await db.schema.createIndex('notas_fiscais_created').on('notas_fiscais').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('notas_fiscais_sha256').on('notas_fiscais').column('sha256').execute();
  // The statement reads a company's payments by month (policies_company_issued finds its policies).
  await db.schema.createIndex('commissions_payments_pago_em').on('payments').columns(['pago_em', 'installment_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('commissions_payments_pago_em').execute();
  await db.schema.dropTable('notas_fiscais').execute();
}
