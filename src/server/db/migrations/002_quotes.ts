import { type Kysely, sql } from 'kysely';

/**
 * Quotes and proposals (issue 5). A quote is saved from the cadastro step on; each later step fills
 * its own column, so a reload or a shared link resumes where the partner stopped. A proposal row is
 * unique per quote: sending a proposal twice finds the first one (idempotent submit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await sql`create sequence quote_numbers`.execute(db);
  await sql`create sequence proposal_numbers`.execute(db);

  await db.schema
    .createTable('quotes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('nr_cotacao', 'text', (c) => c.notNull().unique())
    .addColumn('simulator_code', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('generation', 'text', (c) => c.notNull().check(sql`generation in ('v1', 'v2')`))
    .addColumn('offer_id', 'integer', (c) => c.notNull().references('offers.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('EM_ELABORACAO').check(sql`status in ('EM_ELABORACAO', 'PROPOSTA_EM_ANALISE')`),
    )
    .addColumn('etapa', 'text', (c) => c.notNull())
    .addColumn('segurado', 'jsonb', (c) => c.notNull())
    .addColumn('nome_segurado', 'text', (c) => c.notNull())
    .addColumn('documento_segurado', 'text', (c) => c.notNull())
    .addColumn('respostas', 'jsonb', (c) => c.notNull())
    .addColumn('risco', 'jsonb')
    .addColumn('selecao', 'jsonb')
    .addColumn('precificacao', 'jsonb')
    .addColumn('contratacao', 'jsonb')
    .addColumn('premio_total', 'integer')
    .addColumn('comissao_centesimos', 'integer', (c) => c.notNull())
    .addColumn('valida_ate', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('quotes_user_created').on('quotes').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('quotes_company_created').on('quotes').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('proposals')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('quote_id', 'integer', (c) => c.notNull().unique().references('quotes.id'))
    .addColumn('nr_proposta', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('EM_ANALISE'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('aceite_termo_em', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('proposals').execute();
  await db.schema.dropTable('quotes').execute();
  await sql`drop sequence proposal_numbers`.execute(db);
  await sql`drop sequence quote_numbers`.execute(db);
}
