import { createHash } from 'node:crypto';
import type { SessionKind } from '../db/schema';
import type { DB } from '../db';
import { cacheOf, type CacheSpec } from '../cache';
import { now } from '../clock';
import { hashToken } from '../auth/tokens';
import { openedDatabase } from './database';
import { userOfFreshSession } from '../services/identity/sessions';
import { requestScheme } from '../shared-page';
import { noteUser } from '../request-context';
import { brasiliaDay } from '../../lib/format';
import { COOKIE_SESSION_HEADER, TOKEN_COOKIES } from '../../lib/session';
import { LIVE_REFRESH_HEADER } from '../../lib/worklist-notices';

/**
 * The viewer memo (docs/decisions/044-viewer-memo.md): a signed-in answer that is a function of who
 * asks and nothing else — the homes, the BFF's user — is rendered once per session and answered
 * from memory after, without entering Astro, until something it is made of changes.
 *
 * An answer says it is such with the `x-portal-memo` header (the server script, which spells it too,
 * never sends it on). "Who asks" is the URL, the scheme, the session cookies, the Brasília day (offers
 * are "in force today") and the request headers of VARYING_HEADERS — an answer that reads anything
 * else (another header, the clock beyond the day, a quote, a policy) must not say it. It is kept
 * only when the pipeline answered 200 without setting a cookie, and answered from memory only while
 * every session it was rendered for is one the pipeline would take as it is, from memory, with no
 * write due (`userOfFreshSession`): expired, idle, revoked, deactivated or due a touch, the request
 * goes the whole way. The memo listens to the same change feed as the session and principal caches:
 * a change to one of its users, to groups and companies, or to the offers drops it, on this instance
 * at once and on the others when the notice arrives; while the feed is down it answers nothing.
 */

/** The only request headers a memo-able answer may read: the BFF's acting company, the client's cookie mode. */
const VARYING_HEADERS = ['empresa', COOKIE_SESSION_HEADER] as const;

const COOKIE_KINDS = Object.entries(TOKEN_COOKIES).map(([kind, name]) => ({ kind: kind as SessionKind, name }));

/** What the server script keeps of an answer: its headers and its body, by encoding (identity first). */
export interface MemoAnswer {
  headers: Record<string, string | number | string[]>;
  bodies: Record<string, Buffer>;
}

interface Memo extends MemoAnswer {
  userIds: number[];
  /** The session kinds the answer was judged on (an API endpoint's own); undefined: every session asked with. */
  judgedOn?: readonly SessionKind[];
}

/** The request's memo key, the sessions it names, and the memo's version when it was asked. */
export interface Ticket {
  key: string;
  sessions: { kind: SessionKind; hash: string }[];
  version: number;
}

const MEMO_CACHE: CacheSpec<string, Memo> = {
  name: 'viewer-memo',
  // At most ~25 KB each (the page and its brotli): a few megabytes whatever is asked.
  maxEntries: 500,
  maxAgeMs: 30_000,
  // Anything but another user's change: the viewer's own, groups and companies, the offers, everything.
  drops: (change, _key, memo) => change.kind !== 'user' || memo.userIds.includes(change.userId),
};

interface NodeRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; encrypted?: boolean };
}

/** Each session cookie's value, once; undefined when one comes twice (pages and the API would not agree on which counts). */
function sessionCookies(header: string | undefined): Map<SessionKind, string> | undefined {
  const found = new Map<SessionKind, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    const name = part.slice(0, index).trim();
    const cookie = COOKIE_KINDS.find((c) => c.name === name);
    if (index < 0 || !cookie) continue;
    if (found.has(cookie.kind)) return undefined;
    found.set(cookie.kind, part.slice(index + 1).trim());
  }
  return found;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join('\n') : (value ?? ''));

/**
 * The ticket of a request the memo may answer or keep: a GET or HEAD of a page or the API (built
 * files are the adapter's) with session cookies and no `authtoken` header, which the API would prefer
 * to them, once the database is open.
 */
export function ticketOf(req: NodeRequest, db: DB | undefined = openedDatabase()): Ticket | undefined {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authtoken !== undefined || !db) return undefined;
  // The live worklist's client asks again for the page it shows because a record changed (issue 31):
  // the memo ignores such notices (one per sale), so that request goes the whole way.
  if (req.headers[LIVE_REFRESH_HEADER] !== undefined) return undefined;
  if (req.url?.startsWith('/_astro/')) return undefined;
  const cache = cacheOf(db, MEMO_CACHE);
  const cookies = sessionCookies(single(req.headers.cookie));
  if (!cache || !cookies || cookies.size === 0) return undefined;
  const sessions = [...cookies].map(([kind, token]) => ({ kind, hash: hashToken(token) }));
  const key = createHash('sha256')
    .update(
      [
        req.url ?? '',
        requestScheme(req),
        brasiliaDay(now()),
        ...sessions.map((s) => `${s.kind}=${s.hash}`),
        ...VARYING_HEADERS.map((name) => `${name}=${single(req.headers[name])}`),
      ].join('\0'),
    )
    .digest('base64');
  return { key, sessions, version: cache.version() };
}

/**
 * The users of the ticket's sessions the answer was judged on — all of them, or those of `judgedOn`'s
 * kinds — when every one is fresh in memory; undefined otherwise, or when none is of those kinds.
 */
function freshUsers(db: DB, ticket: Ticket, judgedOn?: readonly SessionKind[]): number[] | undefined {
  const sessions = judgedOn ? ticket.sessions.filter((s) => judgedOn.includes(s.kind)) : ticket.sessions;
  const users = sessions.map((s) => userOfFreshSession(db, s.hash, s.kind));
  return users.length > 0 && users.every((id) => id !== undefined) ? (users as number[]) : undefined;
}

/**
 * What an answer's memo header says it was judged on: `1` every session it was asked with (a page);
 * a list of session kinds, an API endpoint's (`v2`: the BFF's user call, which a partner's browser
 * makes with its simulator token beside — a token that call never reads, so never holds in memory).
 */
export function judgedOnOf(marker: string): readonly SessionKind[] | undefined {
  if (marker === '1') return undefined;
  return marker.split(',').filter((kind): kind is SessionKind => COOKIE_KINDS.some((c) => c.kind === kind));
}

/** The kept answer to the ticket's request, while its sessions are fresh; undefined otherwise. */
export function lookup(ticket: Ticket, db: DB | undefined = openedDatabase()): MemoAnswer | undefined {
  const memo = db && cacheOf(db, MEMO_CACHE)?.get(ticket.key);
  const users = memo && freshUsers(db, ticket, memo.judgedOn);
  if (!users) return undefined;
  noteUser(users[0]); // its request's log line names who asked, as a rendered answer's does
  return memo;
}

/**
 * Keeps the pipeline's answer to the ticket's request, unless the sessions it was judged on (the
 * answer's memo header, `judgedOnOf`) went stale or anything changed since it was asked.
 */
export function keep(ticket: Ticket, answer: MemoAnswer, db: DB | undefined = openedDatabase(), marker = '1'): void {
  const judgedOn = judgedOnOf(marker);
  const userIds = db && freshUsers(db, ticket, judgedOn);
  if (userIds) cacheOf(db, MEMO_CACHE)?.set(ticket.key, { ...answer, userIds: [...new Set(userIds)], judgedOn }, ticket.version);
}

// The server script lives outside the bundle: it finds the memo through this well-known hook.
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.viewerMemo')] = { ticketOf, lookup, keep };
