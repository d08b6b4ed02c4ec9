import { type Kysely, sql } from 'kysely';

/**
 * Issue 42 (decision 073):
 * - `sessions.confirmed_at`: when the person at this session last proved it is them again (the
 *   password or a code of the app) — a change to the second factor, its recovery codes or the
 *   remembered browsers asks for a proof of the last few minutes. On the session row, so every
 *   instance reads the same.
 * - `sessions.end_reason`: why a session was ended by someone else (an administrator's reset of the
 *   second factor, a forced new password, a session ended from elsewhere), so the login page can say it.
 * - `sign_in_places.second_factor_at`: the last time the account proved its second factor from this
 *   address — the owner's own places, where other people's wrong answers never slow the owner down.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column confirmed_at timestamptz, add column end_reason text`.execute(db);
  await sql`alter table sign_in_places add column second_factor_at timestamptz`.execute(db);
}
