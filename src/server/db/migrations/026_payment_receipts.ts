import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 item 13 (decision 059): every amount a bank confirms is a row of `receipts`, whatever it
 * turns out to be — the payment of an installment (QUITACAO), part of one (PARCIAL), money for an
 * installment already paid or cancelled (CREDITO), or for a code that names no charge of ours
 * (NAO_IDENTIFICADO). `aplicado` is the part that went to the installment, `credito` the part the
 * insurer owes back; `devido` what the installment cost on that day. `payments` stays what it was:
 * one row per paid installment — the receipt that completed it, with what was due — so the reports,
 * commissions and lookups keep reading one payment per installment.
 *
 * The bank's id is unique here (the same notice twice is one receipt). No column defaults to the
 * database's now(): the server writes its own clock's instant (decision 059, item 15).
 * The payments recorded before this migration become their receipts, each a whole QUITACAO.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receipts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('external_id', 'text', (c) => c.notNull().unique())
    .addColumn('charge_id', 'integer', (c) => c.references('charges.id'))
    .addColumn('installment_id', 'integer', (c) => c.references('installments.id'))
    .addColumn('codigo', 'text', (c) => c.notNull())
    .addColumn('meio', 'text', (c) => c.check(sql`meio in ('BOLETO', 'PIX')`))
    .addColumn('origem', 'text', (c) => c.notNull().check(sql`origem in ('WEBHOOK', 'BANCO_DEMO')`))
    .addColumn('valor', 'integer', (c) => c.notNull().check(sql`valor > 0`))
    .addColumn('devido', 'integer')
    .addColumn('aplicado', 'integer', (c) => c.notNull().check(sql`aplicado >= 0`))
    .addColumn('credito', 'integer', (c) => c.notNull().check(sql`credito >= 0`))
    .addColumn('situacao', 'text', (c) => c.notNull().check(sql`situacao in ('QUITACAO', 'PARCIAL', 'CREDITO', 'NAO_IDENTIFICADO')`))
    .addColumn('recebido_em', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('receipts_parts', sql`aplicado + credito = valor`)
    .execute();
  await db.schema.createIndex('receipts_installment').on('receipts').columns(['installment_id', 'id']).execute();
  // The insurer's list of what to look at (partial payments, money to give back), newest first.
  await sql`create index receipts_to_review on receipts (id) where credito > 0 or situacao = 'PARCIAL'`.execute(db);
  await sql`
    insert into receipts (external_id, charge_id, installment_id, codigo, meio, origem, valor, devido, aplicado, credito, situacao, recebido_em, created_at)
    select p.external_id, p.charge_id, p.installment_id,
           case p.meio when 'PIX' then c.pix_copia_e_cola else c.linha_digitavel end,
           p.meio, p.origem, p.valor, p.valor, p.valor, 0, 'QUITACAO', p.pago_em, p.created_at
      from payments p join charges c on c.id = p.charge_id
     order by p.id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('receipts').execute();
}
