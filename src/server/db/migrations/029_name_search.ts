import { type Kysely, sql } from 'kysely';
import { ACCENTED, UNACCENTED } from '../../../lib/insured-search';

/**
 * Issue 29: the insured-name searches (policies of both generations, boleto, payment lookups,
 * documents) served by an index. `lower(translate(nome_segurado, …)) like '%word%'` read every row
 * of the table; now each searched table keeps the name as the searches read it in a stored column,
 * nome_busca (lower and translate are immutable, so PostgreSQL computes it on every write), with a
 * trigram GIN index (pg_trgm: on PostgreSQL 13+ a trusted extension, in PGlite the contrib the
 * connection loads, src/server/db/index.ts) that serves `like '%word%'` — each word of 3 letters or
 * more. Without fastupdate: a GIN index otherwise queues new rows in a pending list that every search
 * reads in full until a vacuum merges it, and PGlite has no autovacuum (the planner then prefers
 * reading the table); a sale writes one quote and one policy, so merging at once costs little.
 * The documents (CPF/CNPJ) are searched by equality: a btree each. The 2ª via page (/v2/boleto)
 * joins the policies a name finds to their open installments: a partial index of those lets the
 * planner probe them per policy instead of reading every installment (50 → 14 ms at 1000×).
 *
 * On an existing database the two columns rewrite quotes and policies once.
 */
const NORMALIZED = sql`lower(translate(nome_segurado, ${sql.lit(ACCENTED)}, ${sql.lit(UNACCENTED)}))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  for (const table of ['quotes', 'policies']) {
    await sql`alter table ${sql.table(table)} add column nome_busca text generated always as (${NORMALIZED}) stored`.execute(db);
    await sql`create index ${sql.id(`${table}_nome_busca`)} on ${sql.table(table)} using gin (nome_busca gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    );
    await sql`create index ${sql.id(`${table}_documento_segurado`)} on ${sql.table(table)} (documento_segurado)`.execute(db);
  }
  await sql`create index installments_open_policy on installments (policy_id) where status = 'ABERTA'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists installments_open_policy`.execute(db);
  for (const table of ['quotes', 'policies']) {
    await sql`drop index if exists ${sql.id(`${table}_documento_segurado`)}`.execute(db);
    await sql`alter table ${sql.table(table)} drop column if exists nome_busca`.execute(db);
  }
  await sql`drop extension if exists pg_trgm`.execute(db);
}
