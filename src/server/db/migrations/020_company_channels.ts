import { type Kysely, sql } from 'kysely';

/**
 * Issue 17 (decision 050): the hierarchy hangs partners under the sales channels of migration 017.
 * - companies.channel_id: the channel a company sells through. Every company that exists goes to the
 *   portal's own channel ('portal'), and so does any company inserted without one — the column's
 *   default is a function that finds that channel (a DEFAULT may not hold a subquery), so nothing
 *   that inserts companies today, nor partner onboarding tomorrow, has to know about channels until
 *   it chooses one. A substabelecido carries a channel too; the tree hangs it under its partner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function portal_channel_id() returns integer language sql stable as $$ select id from channels where codigo = 'portal' $$`.execute(
    db,
  );
  await db.schema
    .alterTable('companies')
    .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('restrict'))
    .execute();
  await sql`update companies set channel_id = portal_channel_id()`.execute(db);
  await sql`alter table companies alter column channel_id set default portal_channel_id()`.execute(db);
  await sql`alter table companies alter column channel_id set not null`.execute(db);
  await db.schema.createIndex('companies_channel').on('companies').column('channel_id').execute();
}
