import { type Kysely, sql } from 'kysely';

/**
 * Issue 17 (decision 052): partners and substabelecidos onboarded in steps, and suspended.
 * - companies: what the onboarding asks — broker or not and its SUSEP registration, the head
 *   office's address, the legal representative and the commercial contacts, the bank account (or
 *   Pix key) the commissions are paid to — as jsonb the lib's schemas read and write; when it was
 *   activated and by whom; a suspension's moment, author and reason. status is ATIVO or SUSPENSO.
 * - A SUSEP registration belongs to one broker: unique where given.
 * - offers.parent_offer_id: a substabelecido's offer derives from its partner's (remuneration at most
 *   the partner's, in force only while the partner's is). A partner's offer that has derived ones is
 *   not deleted (restrict): the history of what the sub sold points at both.
 * - company_drafts: the answers of the steps so far, per CNPJ and action (novo | editar), so any
 *   manager of that company resumes them after a reload or on another day. parent_id: the partner a
 *   substabelecido's draft is under — who may resume it.
 * The companies trigger of migration 006 already tells every instance that principals and offers
 * changed when a company does (a suspension hides its offers at once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('corretora', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('susep', 'text')
    .addColumn('endereco', 'jsonb')
    .addColumn('contatos', 'jsonb')
    .addColumn('conta_comissao', 'jsonb')
    .addColumn('activated_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('suspended_at', 'timestamptz')
    .addColumn('suspended_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('motivo_suspensao', 'text')
    .execute();
  await sql`alter table companies add constraint companies_status_check check (status in ('ATIVO', 'SUSPENSO'))`.execute(db);
  await sql`create unique index companies_susep_unique on companies (susep) where susep is not null`.execute(db);
  await db.schema.createIndex('companies_parent').on('companies').column('parent_id').execute();

  await db.schema
    .alterTable('offers')
    .addColumn('parent_offer_id', 'integer', (c) => c.references('offers.id').onDelete('restrict'))
    .execute();
  await db.schema.createIndex('offers_company').on('offers').column('company_id').execute();
  await db.schema.createIndex('offers_parent').on('offers').column('parent_offer_id').execute();

  await db.schema
    .createTable('company_drafts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('PARCEIRO', 'SUBSTABELECIDO')`))
    .addColumn('cnpj', 'text', (c) => c.notNull())
    .addColumn('acao', 'text', (c) => c.notNull().check(sql`acao in ('novo', 'editar')`))
    .addColumn('parent_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('dados', 'jsonb', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // One registration of a CNPJ at a time, whichever kind: a partner and a sub of one CNPJ would
    // race to the same companies row.
    .addUniqueConstraint('company_drafts_cnpj_acao', ['cnpj', 'acao'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('company_drafts').execute();
  await db.schema.dropIndex('offers_parent').execute();
  await db.schema.dropIndex('offers_company').execute();
  await db.schema.alterTable('offers').dropColumn('parent_offer_id').execute();
  await db.schema.dropIndex('companies_parent').execute();
  await db.schema.dropIndex('companies_susep_unique').execute();
  await sql`alter table companies drop constraint companies_status_check`.execute(db);
  for (const column of [
    'motivo_suspensao',
    'suspended_by',
    'suspended_at',
    'created_by',
    'activated_at',
    'conta_comissao',
    'contatos',
    'endereco',
    'susep',
    'corretora',
  ])
    await db.schema.alterTable('companies').dropColumn(column).execute();
}
