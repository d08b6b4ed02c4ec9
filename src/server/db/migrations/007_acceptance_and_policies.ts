import { type Kysely, sql } from 'kysely';

/**
 * Issue 13, after the sale (DESIGN §10): a proposal's 25-day acceptance clock and its timeline, and
 * the policy an accepted proposal becomes, with its installments. A policy is the contract: its
 * number (nr_apolice) and contract id (id_contratacao) are what the partner quotes; its plan and
 * coverages are the quote's pricing, frozen since the proposal was sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await sql`create sequence policy_numbers`.execute(db);
  await sql`create sequence contract_numbers start 100001`.execute(db);

  await db.schema
    .alterTable('proposals')
    .addColumn('aceite_ate', 'timestamptz')
    .addColumn('suspensa_desde', 'timestamptz')
    .addColumn('decidida_em', 'timestamptz')
    .addColumn('motivo', 'text')
    .execute();
  // Proposals sent before this migration start their clock from the day they were sent.
  await sql`update proposals set aceite_ate = created_at + interval '25 days'`.execute(db);
  await sql`alter table proposals alter column aceite_ate set not null`.execute(db);
  await sql`alter table proposals add constraint proposals_status_check
    check (status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS', 'ACEITA', 'RECUSADA'))`.execute(db);
  // The deadline job looks for undecided proposals whose clock ran out.
  await sql`create index proposals_pending_deadline on proposals (aceite_ate) where status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS')`.execute(
    db,
  );

  await db.schema
    .createTable('proposal_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id'))
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('detalhe', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('proposal_events_proposal').on('proposal_events').columns(['proposal_id', 'id']).execute();

  await db.schema
    .createTable('policies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('nr_apolice', 'text', (c) => c.notNull().unique())
    .addColumn('id_contratacao', 'integer', (c) => c.notNull().unique())
    .addColumn('proposal_id', 'integer', (c) => c.notNull().unique().references('proposals.id'))
    .addColumn('quote_id', 'integer', (c) => c.notNull().references('quotes.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('point_of_sale_id', 'integer', (c) => c.references('points_of_sale.id'))
    .addColumn('simulator_code', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('generation', 'text', (c) => c.notNull())
    .addColumn('nome_segurado', 'text', (c) => c.notNull())
    .addColumn('documento_segurado', 'text', (c) => c.notNull())
    .addColumn('inicio_vigencia', 'date', (c) => c.notNull())
    .addColumn('fim_vigencia', 'date', (c) => c.notNull())
    .addColumn('premio_liquido', 'integer', (c) => c.notNull())
    .addColumn('custo_apolice', 'integer', (c) => c.notNull())
    .addColumn('iof', 'integer', (c) => c.notNull())
    .addColumn('premio_total', 'integer', (c) => c.notNull())
    .addColumn('forma_pagamento', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('VIGENTE').check(sql`status in ('VIGENTE', 'CANCELADA')`))
    .addColumn('emitida_em', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('policies_user_issued').on('policies').columns(['user_id', 'emitida_em']).execute();
  await db.schema.createIndex('policies_company_issued').on('policies').columns(['company_id', 'emitida_em']).execute();

  await db.schema
    .createTable('installments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('numero', 'integer', (c) => c.notNull())
    .addColumn('vencimento', 'date', (c) => c.notNull())
    .addColumn('valor', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ABERTA').check(sql`status in ('ABERTA', 'PAGA', 'CANCELADA')`))
    .addColumn('paga_em', 'timestamptz')
    .addUniqueConstraint('installments_policy_number', ['policy_id', 'numero'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('installments').execute();
  await db.schema.dropTable('policies').execute();
  await db.schema.dropTable('proposal_events').execute();
  await sql`drop index proposals_pending_deadline`.execute(db);
  await sql`alter table proposals drop constraint proposals_status_check`.execute(db);
  await db.schema
    .alterTable('proposals')
    .dropColumn('aceite_ate')
    .dropColumn('suspensa_desde')
    .dropColumn('decidida_em')
    .dropColumn('motivo')
    .execute();
  await sql`drop sequence contract_numbers`.execute(db);
  await sql`drop sequence policy_numbers`.execute(db);
}
