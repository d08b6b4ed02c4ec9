import { type Kysely, sql } from 'kysely';

/**
 * Issue 14, the documents of a proposal and of the policy it became (DESIGN §10). The file itself
 * lives on disk under DATA_DIR/files/<sha256> (server/files.ts), never in the database (a 1 MB bytea
 * blocks PGlite's one connection for ~180 ms) and never under the name it was sent with; this row is
 * its metadata: the name shown (checked, decision 040), the type its magic bytes gave, its size, what
 * it is (lib/documents.ts DOCUMENT_CATEGORIES) and who sent it. Two rows may share one file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('categoria', 'text', (c) => c.notNull())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull().check(sql`mime in ('application/pdf', 'image/jpeg', 'image/png')`))
    .addColumn('tamanho', 'integer', (c) => c.notNull().check(sql`tamanho > 0`))
    .addColumn('sha256', 'text', (c) => c.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A proposal's documents (the envio page, a policy's section) and the list, newest first.
  await db.schema.createIndex('documents_proposal').on('documents').columns(['proposal_id', 'id']).execute();
  await db.schema.createIndex('documents_created').on('documents').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('documents_sha256').on('documents').column('sha256').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('documents').execute();
}
