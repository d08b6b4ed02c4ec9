import { type Kysely, sql } from 'kysely';

/**
 * Issue 17 (decision 051): the points of sale become records a partner administers.
 * - An address (CEP, logradouro, número, complemento, bairro, cidade, UF: the simulators' address
 *   schema). Rows made before have none (null) until someone edits them; the demo seed fills its own.
 * - A status: an INATIVO point of sale takes no new sales and no new sellers; its history stays.
 * - The code is unique per company whatever its case: codes are stored upper-cased (the metrics and
 *   reports filters compare them so), and a unique index on upper(codigo) holds it for any writer.
 * - updated_at, and an index to count the sellers of a point of sale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['cep', 'logradouro', 'numero', 'complemento', 'bairro', 'cidade', 'uf'])
    await db.schema.alterTable('points_of_sale').addColumn(column, 'text').execute();
  await db.schema
    .alterTable('points_of_sale')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ATIVO').check(sql`status in ('ATIVO', 'INATIVO')`))
    .execute();
  await db.schema
    .alterTable('points_of_sale')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update points_of_sale set codigo = upper(btrim(codigo))`.execute(db);
  await sql`create unique index points_of_sale_company_code_ci on points_of_sale (company_id, upper(codigo))`.execute(db);
  await db.schema.createIndex('users_point_of_sale').on('users').column('point_of_sale_id').execute();
}
