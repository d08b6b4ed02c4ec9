import { type Kysely, sql } from 'kysely';

/**
 * Issue 29 (decision 065): the policies lists read keyset pages, newest first, one branch of the
 * viewer's scope per index (db/keyset-page.ts): a company's, a seller's own, or everyone's — each
 * index in the page's exact order (emitida_em, id) within one generation, so a page reads its ten
 * rows and stops, however deep it is and however many policies the scope holds. The situation
 * filters have theirs: a cancelled policy is one in thirty (read in order by status), an expired one
 * rarer still (found by its end of term, then sorted).
 */
const INDEXES = {
  policies_company_generation_issued: '(company_id, generation, emitida_em, id)',
  policies_user_generation_issued: '(user_id, generation, emitida_em, id)',
  policies_generation_issued: '(generation, emitida_em, id)',
  policies_generation_status_issued: '(generation, status, emitida_em, id)',
  policies_in_force_ending: "(generation, fim_vigencia) where status = 'VIGENTE'",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES))
    await sql`create index ${sql.id(name)} on policies ${sql.raw(columns)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
