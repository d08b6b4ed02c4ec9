import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 (decision 057): the limits an upload is counted against, and removing a document sent by
 * mistake.
 * - document_uploads: an upload under way, written before its body is read (its declared size, or the
 *   most a file may be) and deleted when it ends, whatever the end. The limits count these rows with
 *   the documents already sent, so they hold across instances over one PostgreSQL; one whose process
 *   died stops counting at `expires_at` and the sweeper job deletes it.
 * - documents.removido_em / removido_por: a removed document leaves the lists, the downloads and the
 *   proposal's count at once; its row stays (the sender's day still counts it, the timeline names it)
 *   and its file goes with the sweeper once no other row points at it.
 * - documents (user_id, created_at): what a user sent today, counted before each upload.
 * - proposal_events.document_id: the document an event is about — which upload resumed the clock, so
 *   removing it can stop the clock again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_uploads')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('bytes', 'integer', (c) => c.notNull().check(sql`bytes > 0`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_uploads_user').on('document_uploads').columns(['user_id', 'expires_at']).execute();
  await db.schema.createIndex('document_uploads_proposal').on('document_uploads').columns(['proposal_id', 'expires_at']).execute();
  await db.schema.createIndex('document_uploads_expires').on('document_uploads').column('expires_at').execute();

  await db.schema
    .alterTable('documents')
    .addColumn('removido_em', 'timestamptz')
    .addColumn('removido_por', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('documents_user_day').on('documents').columns(['user_id', 'created_at']).execute();

  await db.schema
    .alterTable('proposal_events')
    .addColumn('document_id', 'integer', (c) => c.references('documents.id'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('proposal_events').dropColumn('document_id').execute();
  await db.schema.dropIndex('documents_user_day').execute();
  await db.schema.alterTable('documents').dropColumn('removido_por').dropColumn('removido_em').execute();
  await db.schema.dropTable('document_uploads').execute();
}
