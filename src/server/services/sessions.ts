import type { DB } from '../db';
import type { SessionKind, User } from '../db/schema';
import { hashToken, newToken } from '../auth/tokens';

/**
 * Server-side sessions behind opaque tokens (DESIGN §4). A session ends at its absolute expiry, after
 * an idle period, or when revoked (sign-out, password change). Simulator tokens hang off a v2
 * session and end with it.
 */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
// last_seen_at is written at most this often, not on every request.
const TOUCH_EVERY_MS = 60 * 1000;

export interface IssuedSession {
  id: number;
  token: string;
  expiresAt: Date;
}

export async function createSession(
  db: DB, userId: number, kind: SessionKind, parent?: { id: number; expiresAt: Date },
): Promise<IssuedSession> {
  const token = newToken();
  const now = new Date();
  const expiresAt = parent?.expiresAt ?? new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const { id } = await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token), user_id: userId, kind, parent_id: parent?.id ?? null,
      last_seen_at: now, expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, token, expiresAt };
}

export type ResolvedSession =
  | { ok: true; id: number; kind: SessionKind; expiresAt: Date; user: User }
  | { ok: false; reason: 'invalid' | 'expired' };

/** The session behind a token, with its user in the same query (every signed-in request asks). */
export async function resolveSession(db: DB, token: string, kinds: readonly SessionKind[]): Promise<ResolvedSession> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('sessions as p', 'p.id', 's.parent_id')
    .selectAll('u')
    .select([
      's.id as session_id', 's.kind as session_kind', 's.expires_at as session_expires_at',
      's.last_seen_at as session_last_seen_at', 's.revoked_at as session_revoked_at', 'p.revoked_at as parent_revoked_at',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'invalid' };
  const { session_id: id, session_kind: kind, session_expires_at: expiresAt, session_last_seen_at: lastSeen,
    session_revoked_at: revoked, parent_revoked_at: parentRevoked, ...user } = row;
  if (revoked || parentRevoked || !kinds.includes(kind)) return { ok: false, reason: 'invalid' };
  const now = Date.now();
  const idle = kind !== 'simulador' && now - lastSeen.getTime() > SESSION_IDLE_MS;
  if (expiresAt.getTime() <= now || idle) return { ok: false, reason: 'expired' };
  if (now - lastSeen.getTime() > TOUCH_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: new Date(now) }).where('id', '=', id).execute();
  }
  return { ok: true, id, kind, expiresAt, user };
}

/** Revokes the sessions behind the given tokens (sign-out); absent and unknown tokens are ignored. */
export async function revokeTokens(db: DB, tokens: readonly (string | null | undefined)[]): Promise<void> {
  const present = tokens.filter((t): t is string => Boolean(t));
  if (present.length === 0) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('token_hash', 'in', present.map(hashToken))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every session of a user, but the one kept (password change from a signed-in page). */
export async function revokeUserSessions(db: DB, userId: number, keepSessionId?: number): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId).where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '!=', keepSessionId)]));
  await query.execute();
}
