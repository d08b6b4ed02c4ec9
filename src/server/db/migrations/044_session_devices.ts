import { type Kysely, sql } from 'kysely';

/**
 * Issue 32: a person recognises their sessions by the device and the place they signed in from —
 * the browser's User-Agent (shown as "Chrome no Windows", lib/devices.ts) and the address the request
 * pipeline resolved (there is no GeoIP here: the address is the place). Listing a user's open sessions
 * reads their rows by user, newest use first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column user_agent text, add column ip text`.execute(db);
  await sql`create index sessions_user_open on sessions (user_id, last_seen_at desc) where revoked_at is null and parent_id is null`.execute(
    db,
  );
}
