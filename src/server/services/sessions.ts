import type { DB } from '../db';
import type { SessionKind, User } from '../db/schema';
import { hashToken, newToken } from '../auth/tokens';
import { now, nowMs } from '../clock';

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
  db: DB,
  userId: number,
  kind: SessionKind,
  parent?: { id: number; expiresAt: Date },
): Promise<IssuedSession> {
  const token = newToken();
  const at = now();
  const expiresAt = parent?.expiresAt ?? new Date(at.getTime() + SESSION_ABSOLUTE_MS);
  const { id } = await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      kind,
      parent_id: parent?.id ?? null,
      last_seen_at: at,
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, token, expiresAt };
}

export type ResolvedSession =
  | { ok: true; id: number; kind: SessionKind; expiresAt: Date; user: User }
  | { ok: false; reason: 'invalid' | 'expired' };

/** A session past its absolute expiry, or idle too long. */
const lapsed = (expiresAt: Date, lastSeen: Date, at: number) => expiresAt.getTime() <= at || at - lastSeen.getTime() > SESSION_IDLE_MS;

/**
 * The session behind a token, with its user in the same query (every signed-in request asks). A
 * simulator token lives only while its v2 session does: revoked, expired or idle, the parent takes
 * the child with it; and using the child keeps the parent awake.
 */
export async function resolveSession(db: DB, token: string, kinds: readonly SessionKind[]): Promise<ResolvedSession> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('sessions as p', 'p.id', 's.parent_id')
    .selectAll('u')
    .select([
      's.id as session_id',
      's.kind as session_kind',
      's.expires_at as session_expires_at',
      's.last_seen_at as session_last_seen_at',
      's.revoked_at as session_revoked_at',
      'p.id as parent_id',
      'p.revoked_at as parent_revoked_at',
      'p.expires_at as parent_expires_at',
      'p.last_seen_at as parent_last_seen_at',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'invalid' };
  const {
    session_id: id,
    session_kind: kind,
    session_expires_at: expiresAt,
    session_last_seen_at: lastSeen,
    session_revoked_at: revoked,
    parent_id: parentId,
    parent_revoked_at: parentRevoked,
    parent_expires_at: parentExpiresAt,
    parent_last_seen_at: parentLastSeen,
    ...user
  } = row;
  if (revoked || parentRevoked || !kinds.includes(kind)) return { ok: false, reason: 'invalid' };
  const at = nowMs();
  const parentLapsed = parentExpiresAt !== null && parentLastSeen !== null && lapsed(parentExpiresAt, parentLastSeen, at);
  // A child is judged by its parent's idleness, not its own.
  const ownLapsed = kind === 'simulador' ? expiresAt.getTime() <= at : lapsed(expiresAt, lastSeen, at);
  if (ownLapsed || parentLapsed) return { ok: false, reason: 'expired' };
  const stale: number[] = [];
  if (at - lastSeen.getTime() > TOUCH_EVERY_MS) stale.push(id);
  if (parentId !== null && parentLastSeen && at - parentLastSeen.getTime() > TOUCH_EVERY_MS) stale.push(parentId);
  if (stale.length > 0)
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(at) })
      .where('id', 'in', stale)
      .execute();
  return { ok: true, id, kind, expiresAt, user };
}

/** Revokes the sessions behind the given tokens (sign-out); absent and unknown tokens are ignored. */
export async function revokeTokens(db: DB, tokens: readonly (string | null | undefined)[]): Promise<void> {
  const present = tokens.filter((t): t is string => Boolean(t));
  if (present.length === 0) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: now() })
    .where('token_hash', 'in', present.map(hashToken))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every session of a user, but the one kept (password change from a signed-in page). */
export async function revokeUserSessions(db: DB, userId: number, keepSessionId?: number): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId !== undefined)
    query = query
      .where('id', '!=', keepSessionId)
      .where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '!=', keepSessionId)]));
  await query.execute();
}
