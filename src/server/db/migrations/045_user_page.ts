import { type Kysely, sql } from 'kysely';

/**
 * Issue 32, a page per user and the pending invitations (decision 069). Two reads that must not grow
 * with the data:
 *
 *   users_pending_created     the invitations still waiting for a first access, oldest first: a
 *                             partial index holds only the pending users, in the list's keyset order.
 *   access_events_sign_ins    a user's sign-in history (entries, refusals, SSO, exits) newest first:
 *                             the user's index (migration 032) also holds every insured's record they
 *                             opened, thousands a year for a busy seller; this one holds the sign-ins alone.
 *   one_time_codes_user       a user's newest code of a purpose (the invitation's state) — and every
 *                             retirement of a user's codes, which until now read the whole table.
 */
const SIGN_IN_EVENTS = sql.raw("'LOGIN', 'LOGIN_FALHOU', 'SEGUNDO_FATOR_FALHOU', 'SSO', 'LOGOUT'");

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_pending_created on users (created_at, id) where status = 'PENDENTE'`.execute(db);
  await sql`create index one_time_codes_user on one_time_codes (user_id, purpose, created_at, id)`.execute(db);
  await sql`create index access_events_sign_ins on access_events (user_id, created_at, id) where event in (${SIGN_IN_EVENTS})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists access_events_sign_ins`.execute(db);
  await sql`drop index if exists users_pending_created`.execute(db);
  await sql`drop index if exists one_time_codes_user`.execute(db);
}
