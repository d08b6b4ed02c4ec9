import { sql } from 'kysely';
import type { DB } from '../db';

/**
 * Where a sale for a company is made (DESIGN §10, migration 013): the seller's own point of sale when
 * it belongs to that company, else the company's first one; none for a sale without a company, or a
 * company without points of sale.
 */
export async function pointOfSaleOfSale(
  db: DB,
  companyId: number | null,
  sellersPointOfSaleId: number | null,
): Promise<{ id: number; codigo: string } | undefined> {
  if (companyId === null) return undefined;
  return db
    .selectFrom('points_of_sale')
    .select(['id', 'codigo'])
    .where('company_id', '=', companyId)
    .orderBy(sql`id = ${sellersPointOfSaleId ?? 0}`, 'desc')
    .orderBy('id')
    .executeTakeFirst();
}
