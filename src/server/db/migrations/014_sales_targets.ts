import { type Kysely, sql } from 'kysely';

/**
 * Issue 15, sales targets (decision 043): what a company, a point of sale or a seller should sell in a
 * month, set by the insurer's admins and the partner admins. One target per subject and month —
 * setting it again replaces it (who and when are kept with it). What was sold is never stored: the
 * metrics read it from the policies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sales_targets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('nivel', 'text', (c) => c.notNull().check(sql`nivel in ('empresa', 'ponto_venda', 'vendedor')`))
    /** The company, point of sale or user the target is for. */
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    /** The company the subject belongs to: the scope of who may read and set it. */
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('mes', 'text', (c) => c.notNull().check(sql`mes ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`))
    .addColumn('valor', 'bigint', (c) => c.notNull().check(sql`valor > 0`))
    .addColumn('definida_por', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sales_targets_um_por_mes', ['nivel', 'ref_id', 'mes'])
    .execute();
  await db.schema.createIndex('sales_targets_company_mes').on('sales_targets').columns(['company_id', 'mes']).execute();
  // The metrics read a year of policies by issue date, and of quotes by creation.
  await db.schema.createIndex('policies_emitida_em').on('policies').columns(['emitida_em']).execute();
  await db.schema.createIndex('quotes_created_at').on('quotes').columns(['created_at']).execute();
}
