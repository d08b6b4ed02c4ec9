import { type Kysely, sql } from 'kysely';

/**
 * Issue 29: the access log and the underwriter's queue read keyset pages (db/keyset-page.ts). Each
 * filter of the log reads an index ending in the page's exact order (created_at, id) — an event, a
 * company, an actor, a user, and the rows of no user (a refused sign-in, the insured's link), whose
 * typed e-mail the user filter reads — so a page reads its twenty rows and stops however many the
 * month holds. Migration 019's (column, created_at) indexes are replaced by these (the same prefix,
 * one column more: no read needs the shorter ones). The queue reads its pending proposals by deadline
 * then id, soonest first.
 */
const INDEXES: Record<string, string> = {
  access_events_event_created: 'access_events (event, created_at, id)',
  access_events_company_created: 'access_events (company_id, created_at, id)',
  access_events_actor_created: 'access_events (actor_id, created_at, id)',
  access_events_user_created: 'access_events (user_id, created_at, id)',
  access_events_nobody_created: 'access_events (created_at, id) where user_id is null',
  proposals_pending_deadline_id: "proposals (aceite_ate, id) where status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS')",
};

const REPLACED: Record<string, string> = {
  access_events_event: 'access_events (event, created_at)',
  access_events_company: 'access_events (company_id, created_at)',
  access_events_actor: 'access_events (actor_id, created_at)',
  proposals_pending_deadline: "proposals (aceite_ate) where status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS')",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of Object.entries(INDEXES)) await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
  for (const name of Object.keys(REPLACED)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of Object.entries(REPLACED)) await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
  for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
