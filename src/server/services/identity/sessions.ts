import type { DB } from '../../db';
import type { SessionKind, User } from '../../db/schema';
import type { SessionEndReason } from '../../../lib/session';
import { hashToken, newToken } from '../../auth/tokens';
import { now, nowMs } from '../../clock';
import { announce, cacheOf, type CacheSpec } from '../../cache';
import { FACTS_CACHE, frozenFacts, principalFactsColumn } from './principals';
import { secondFactorRequired } from '../../../lib/second-factor';

/**
 * Server-side sessions behind opaque tokens (DESIGN §4). A session ends at its absolute expiry, after
 * an idle period, or when revoked (sign-out, password change). Simulator tokens hang off a v2
 * session and end with it.
 */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
// last_seen_at is written at most this often, not on every request.
const TOUCH_EVERY_MS = 60 * 1000;

/** Where a sign-in came from, shown in the user's list of sessions (migration 044). */
export interface SessionOrigin {
  ip: string;
  userAgent: string | null;
}

export interface IssuedSession {
  id: number;
  token: string;
  expiresAt: Date;
}

/**
 * `secondFactor`: the sign-in proved one (decision 068). A simulator token is judged by its v2
 * session's, so it needs none of its own.
 */
export async function createSession(
  db: DB,
  userId: number,
  kind: SessionKind,
  parent?: { id: number; expiresAt: Date },
  { secondFactor = false, origin }: { secondFactor?: boolean; origin?: SessionOrigin } = {},
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
      created_at: at,
      second_factor: secondFactor,
      user_agent: origin?.userAgent?.slice(0, 400) ?? null,
      ip: origin?.ip ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, token, expiresAt };
}

export type ResolvedSession =
  | { ok: true; id: number; kind: SessionKind; expiresAt: Date; user: User }
  | { ok: false; reason: 'invalid' | 'expired'; ended?: SessionEndReason };

/** A session as the database last said it is, with its parent (a simulator token's v2 session) and user. */
interface SessionRecord {
  id: number;
  kind: SessionKind;
  expiresAt: Date;
  lastSeen: Date;
  revoked: boolean;
  /** Why someone else ended it (its parent's, for a simulator token), for the login page to say. */
  endReason: SessionEndReason | null;
  parent: { id: number; expiresAt: Date; lastSeen: Date; revoked: boolean } | null;
  user: Readonly<User>;
  /**
   * The policy requires a second factor of this user (decision 068) and the sign-in behind this session
   * (its parent's, for a simulator token) proved none: a session from before the policy, or of a user
   * made an administrator since. Judged with the principal facts read with the session.
   */
  lacksSecondFactor: boolean;
}

/**
 * Sessions by token hash: every signed-in request resolves one or two, so they are read from the
 * database once and then from memory until a change to the user (a revocation, a deactivation, a
 * password) is heard (server/cache.ts, docs/decisions/031-request-cost.md). Unknown tokens are not
 * kept: a flood of made-up tokens fills nothing.
 */
const SESSIONS_CACHE: CacheSpec<string, SessionRecord> = {
  name: 'sessions',
  maxEntries: 10_000,
  maxAgeMs: 30_000,
  drops: (change, _hash, record) => change.kind === 'user' && change.userId === record.user.id,
};

/** A session past its absolute expiry, or idle too long. */
const lapsed = (expiresAt: Date, lastSeen: Date, at: number) => expiresAt.getTime() <= at || at - lastSeen.getTime() > SESSION_IDLE_MS;

function verdict(record: SessionRecord, kinds: readonly SessionKind[], at: number): 'ok' | 'invalid' | 'expired' {
  const { parent } = record;
  if (record.revoked || parent?.revoked || !kinds.includes(record.kind) || record.lacksSecondFactor) return 'invalid';
  // A child is judged by its parent's idleness, not its own.
  const ownLapsed = record.kind === 'simulador' ? record.expiresAt.getTime() <= at : lapsed(record.expiresAt, record.lastSeen, at);
  return ownLapsed || (parent && lapsed(parent.expiresAt, parent.lastSeen, at)) ? 'expired' : 'ok';
}

/** The session behind a token hash, with its parent, its user and the user's principal facts: one statement. */
async function loadRecord(db: DB, tokenHash: string): Promise<SessionRecord | undefined> {
  const sessions = cacheOf(db, SESSIONS_CACHE);
  const facts = cacheOf(db, FACTS_CACHE);
  const since = { sessions: sessions?.version() ?? 0, facts: facts?.version() ?? 0 };
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
      's.end_reason as session_end_reason',
      'p.end_reason as parent_end_reason',
      's.second_factor as session_second_factor',
      'p.second_factor as parent_second_factor',
      'p.id as parent_id',
      'p.revoked_at as parent_revoked_at',
      'p.expires_at as parent_expires_at',
      'p.last_seen_at as parent_last_seen_at',
      principalFactsColumn().as('principal_facts'),
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    session_id: id,
    session_kind: kind,
    session_expires_at: expiresAt,
    session_last_seen_at: lastSeen,
    session_revoked_at: revoked,
    session_end_reason: ownEndReason,
    parent_end_reason: parentEndReason,
    session_second_factor: ownSecondFactor,
    parent_second_factor: parentSecondFactor,
    parent_id: parentId,
    parent_revoked_at: parentRevoked,
    parent_expires_at: parentExpiresAt,
    parent_last_seen_at: parentLastSeen,
    principal_facts: principal,
    ...user
  } = row;
  const record: SessionRecord = {
    id,
    kind,
    expiresAt,
    lastSeen,
    revoked: revoked !== null,
    endReason: ownEndReason ?? parentEndReason,
    parent:
      parentId !== null && parentExpiresAt && parentLastSeen
        ? { id: parentId, expiresAt: parentExpiresAt, lastSeen: parentLastSeen, revoked: parentRevoked !== null }
        : null,
    user: Object.freeze(user),
    lacksSecondFactor:
      !(kind === 'simulador' ? parentSecondFactor : ownSecondFactor) &&
      secondFactorRequired({ generation: user.generation, profile: user.profile, groups: principal.groups }),
  };
  sessions?.set(tokenHash, record, since.sessions);
  facts?.set(user.id, frozenFacts(principal), since.facts);
  return record;
}

/** The session and its parent whose last_seen_at is due to be written at `at`. */
const dueForTouch = (record: SessionRecord, at: number) =>
  [record, record.parent].filter((s): s is NonNullable<typeof s> => s !== null && at - s.lastSeen.getTime() > TOUCH_EVERY_MS);

/** last_seen_at is written at most once a minute per session; using a child keeps its parent awake. */
async function touch(db: DB, record: SessionRecord, at: number): Promise<void> {
  const stale = dueForTouch(record, at);
  if (stale.length === 0) return;
  const seen = new Date(at);
  await db
    .updateTable('sessions')
    .set({ last_seen_at: seen })
    .where(
      'id',
      'in',
      stale.map((s) => s.id),
    )
    .execute();
  for (const s of stale) s.lastSeen = seen;
}

/**
 * The session behind a token, with its user (every signed-in request asks): from memory when this
 * instance has it, else one statement that also brings the user's principal facts. A simulator
 * token lives only while its v2 session does: revoked, expired or idle, the parent takes the child
 * with it; and using the child keeps the parent awake.
 */
export async function resolveSession(db: DB, token: string, kinds: readonly SessionKind[]): Promise<ResolvedSession> {
  const tokenHash = hashToken(token);
  const at = nowMs();
  const cached = cacheOf(db, SESSIONS_CACHE)?.get(tokenHash);
  let record = cached ?? (await loadRecord(db, tokenHash));
  let judged = record && verdict(record, kinds, at);
  // Memory may be behind on idleness: another instance may have seen the session since.
  if (cached && judged === 'expired') {
    record = await loadRecord(db, tokenHash);
    judged = record && verdict(record, kinds, at);
  }
  if (!record || !judged) return { ok: false, reason: 'invalid' };
  if (judged !== 'ok') return { ok: false, reason: judged, ...(record.endReason ? { ended: record.endReason } : {}) };
  await touch(db, record, at);
  return { ok: true, id: record.id, kind: record.kind, expiresAt: record.expiresAt, user: record.user };
}

/**
 * The user of the session behind `tokenHash` when memory alone says the request pipeline would take
 * it as it is: held by this instance's cache (so no change to it was heard since it was read), of
 * `kind`, valid now, its user active and of the token's generation, and no last_seen_at due to be
 * written. Otherwise undefined — and the request goes the whole way, which reads, judges and touches
 * (the viewer memo, server/boot/viewer-memo.ts, answers only what this allows).
 */
export function userOfFreshSession(db: DB, tokenHash: string, kind: SessionKind): number | undefined {
  const record = cacheOf(db, SESSIONS_CACHE)?.get(tokenHash);
  const at = nowMs();
  if (!record || verdict(record, [kind], at) !== 'ok' || dueForTouch(record, at).length > 0) return undefined;
  const { user } = record;
  if (user.status !== 'ATIVO' || user.generation !== (kind === 'v1' ? 'v1' : 'v2')) return undefined;
  return user.id;
}

/**
 * The user of the session behind a token while it would still be taken for `kinds` — for a request that stays
 * open (the live worklist's stream, server/api/live-worklist.ts), asked again while it lasts. Unlike
 * resolveSession it never touches last_seen_at: an open tab does not keep an idle session alive.
 */
export async function userOfValidSession(db: DB, token: string, kinds: readonly SessionKind[]): Promise<Readonly<User> | undefined> {
  const tokenHash = hashToken(token);
  const at = nowMs();
  const cached = cacheOf(db, SESSIONS_CACHE)?.get(tokenHash);
  // Memory may be behind on idleness (another instance saw the session since): expired, read again.
  const fresh = cached && verdict(cached, kinds, at) === 'ok' ? cached : await loadRecord(db, tokenHash);
  return fresh && verdict(fresh, kinds, at) === 'ok' && fresh.user.status === 'ATIVO' ? fresh.user : undefined;
}

/**
 * Revokes the sessions behind the given tokens (sign-out); absent and unknown tokens are ignored.
 * Answers the sessions it ended (not those already ended), for the access log.
 */
export async function revokeTokens(
  db: DB,
  tokens: readonly (string | null | undefined)[],
): Promise<{ userId: number; kind: SessionKind }[]> {
  const present = tokens.filter((t): t is string => Boolean(t));
  if (present.length === 0) return [];
  const revoked = await db
    .updateTable('sessions')
    .set({ revoked_at: now() })
    .where('token_hash', 'in', present.map(hashToken))
    .where('revoked_at', 'is', null)
    .returning(['user_id', 'kind'])
    .execute();
  // The database tells every instance; this one forgets at once, before the notice comes back.
  for (const userId of new Set(revoked.map((r) => r.user_id))) announce(db, { kind: 'user', userId });
  return revoked.map((r) => ({ userId: r.user_id, kind: r.kind }));
}

/**
 * Revokes every session of a user, but the one kept (password change from a signed-in page); `reason`
 * is what the login page tells whoever held one of them.
 */
export async function revokeUserSessions(db: DB, userId: number, reason: SessionEndReason, keepSessionId?: number): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepSessionId !== undefined)
    query = query
      .where('id', '!=', keepSessionId)
      .where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '!=', keepSessionId)]));
  await query.execute();
  announce(db, { kind: 'user', userId });
}

/** A session as its person sees it in their list (issue 32): where it came from and when it was last used. */
export interface OpenSession {
  id: number;
  /** Which browser holds it (its token's hash): the page marks its own without asking the database again. */
  tokenHash: string;
  kind: SessionKind;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * The user's open sessions of both generations (a simulator token goes with its v2 session and is not
 * one more), most recently used first: not revoked, not past their absolute expiry nor idle too long.
 * At most fifty — the index range of the user's open sessions, newest use first.
 */
export async function openSessionsOf(db: DB, userId: number): Promise<OpenSession[]> {
  const at = nowMs();
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'token_hash', 'kind', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('parent_id', 'is', null)
    .where('last_seen_at', '>', new Date(at - SESSION_IDLE_MS))
    .where('expires_at', '>', new Date(at))
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    tokenHash: r.token_hash,
    kind: r.kind,
    userAgent: r.user_agent,
    ip: r.ip,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
  }));
}

/**
 * Ends one of the user's sessions (and its simulator token): a conditional UPDATE, so a session
 * already ended, or another user's, ends nothing and answers false. Every instance hears it through
 * the change feed and refuses the session at its next request.
 */
export async function endSessionOf(db: DB, userId: number, sessionId: number, reason: SessionEndReason): Promise<boolean> {
  const ended = await db
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('id', '=', sessionId), eb('parent_id', '=', sessionId)]))
    .returning('id')
    .execute();
  if (ended.length > 0) announce(db, { kind: 'user', userId });
  return ended.some((s) => s.id === sessionId);
}

/** The id of the session behind a token (the page that lists sessions marks "Esta sessão"). */
export async function sessionIdOf(db: DB, token: string | undefined): Promise<number | undefined> {
  if (!token) return undefined;
  return (await db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirst())?.id;
}
