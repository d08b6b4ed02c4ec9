import { type Kysely, sql } from 'kysely';

/**
 * Issue 29 (decision 065, as 030 for the policies): the quote and proposal history reads keyset pages,
 * newest first by (created_at, id) within one generation, one branch of the seller's scope per index
 * (db/keyset-page.ts): a company's, the seller's own, or everyone's — so a page reads its ten rows and
 * stops, however deep and however many quotes the scope holds. The payment lookups read the policies'
 * indexes of migration 030 and installments_policy_number; the documents consult reads
 * documents_created (migration 011), both already in their page's order.
 */
const INDEXES = {
  quotes_company_generation_created: '(company_id, generation, created_at, id)',
  quotes_user_generation_created: '(user_id, generation, created_at, id)',
  quotes_generation_created: '(generation, created_at, id)',
  // The history's status filters (an expired quote is one still EM_ELABORACAO past its validity), in order.
  quotes_generation_status_created: '(generation, status, created_at, id)',
};
// The history's search by the insured's CPF or CNPJ reads quotes_documento_segurado (migration 029).

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES)) await sql`create index ${sql.id(name)} on quotes ${sql.raw(columns)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
