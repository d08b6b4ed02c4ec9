import { type Kysely, sql } from 'kysely';

/**
 * Issue 15 (DESIGN §10): every quote records the point of sale it was sold at, so that reports,
 * metrics and rankings filter by it from the first step of a sale, not only once a policy exists.
 * A seller works at a point of sale (users.point_of_sale_id, managed by issue 17's screens); a sale
 * is made there, or at its company's first point of sale when the seller has none. Quotes made
 * before take their policy's point of sale, or their company's first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('point_of_sale_id', 'integer', (c) => c.references('points_of_sale.id'))
    .execute();
  await db.schema
    .alterTable('quotes')
    .addColumn('point_of_sale_id', 'integer', (c) => c.references('points_of_sale.id'))
    .execute();
  await sql`update quotes q set point_of_sale_id = coalesce(
      (select a.point_of_sale_id from policies a where a.quote_id = q.id),
      (select min(pv.id) from points_of_sale pv where pv.company_id = q.company_id))`.execute(db);
  await db.schema.createIndex('quotes_point_of_sale').on('quotes').columns(['point_of_sale_id', 'created_at']).execute();
}
