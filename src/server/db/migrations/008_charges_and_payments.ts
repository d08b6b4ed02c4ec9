import { type Kysely, sql } from 'kysely';

/**
 * Issue 13, money: the charges (boleto with Pix) issued for an installment — the first one and any
 * 2ª via, each replacing the one before — and the payments that settle an installment. An
 * installment is paid once (payments.installment_id is unique) and a payment notice is recorded
 * once (payments.external_id is unique): a bank that notifies twice, or two payments at the same
 * moment, leave one payment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('charges')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('installment_id', 'integer', (c) => c.notNull().references('installments.id'))
    .addColumn('vencimento', 'date', (c) => c.notNull())
    .addColumn('valor', 'integer', (c) => c.notNull())
    .addColumn('multa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('juros', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('codigo_barras', 'text', (c) => c.notNull())
    .addColumn('linha_digitavel', 'text', (c) => c.notNull().unique())
    .addColumn('pix_txid', 'text', (c) => c.notNull().unique())
    .addColumn('pix_copia_e_cola', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ATIVA').check(sql`status in ('ATIVA', 'SUBSTITUIDA', 'PAGA', 'CANCELADA')`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('charges_installment').on('charges').columns(['installment_id', 'id']).execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('installment_id', 'integer', (c) => c.notNull().unique().references('installments.id'))
    .addColumn('charge_id', 'integer', (c) => c.notNull().references('charges.id'))
    .addColumn('external_id', 'text', (c) => c.notNull().unique())
    .addColumn('meio', 'text', (c) => c.notNull().check(sql`meio in ('BOLETO', 'PIX')`))
    .addColumn('origem', 'text', (c) => c.notNull().check(sql`origem in ('WEBHOOK', 'BANCO_DEMO')`))
    .addColumn('valor', 'integer', (c) => c.notNull())
    .addColumn('pago_em', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payments').execute();
  await db.schema.dropTable('charges').execute();
}
