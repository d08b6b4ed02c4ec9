import type { DB } from '../db';
import { changesOf } from '../db';
import type { Change, ChangeFeed } from '../db/changes';
import type { SessionKind, User } from '../db/schema';
import { config } from '../config';
import { errorMessage, logError } from '../log';
import { tooManyAttempts } from '../errors';
import { ApiError } from './errors';
import { readCookies } from './cookies';
import { touchesViewer, type WorklistAudience } from '../../lib/worklist-notices';
import { isInsurerStaff, TOKEN_COOKIES, type SessionViewer } from '../../lib/session';
import { commissionScopeFor, scopeFor } from '../services/identity/scope';
import { userOfValidSession } from '../services/identity/sessions';
import { worklistNewCount } from '../services/reporting/worklist';

/**
 * The live worklist (issue 31): one server-sent events stream per signed-in browser, which tells the
 * viewer `{ novos }` — how many worklist items they have not read (services/reporting/worklist.ts) —
 * when it opens and again whenever the change feed (server/db/changes.ts, migration 038) says a
 * record of theirs changed, on this instance or any other over the same database.
 *
 * Whether a notice concerns the viewer is decided from its payload and what their scope was when
 * last looked at (lib/worklist-notices.ts): nothing is read for a notice about someone else's sale.
 * A notice that does concern them is counted at most once a second (COALESCE_MS), whatever the rate;
 * a notice not understood, or the feed going down and coming back (notices may have been lost), has
 * everyone count again. A comment every LIVE_HEARTBEAT_SECONDS keeps proxies from closing a quiet
 * stream and checks the session again (without touching it: an open tab does not keep an idle session
 * alive); a change to the user (sign-out, revocation, deactivation, groups) checks it at once.
 * Streams are capped per user and per instance, counted before anything is read; a shutdown ends
 * them all at once (scripts/serve.mjs), so the browser reconnects to another instance.
 */
export const COALESCE_MS = 1_000;

interface Stream {
  userId: number;
  heard(change: Change): void;
  end(): void;
}

const byFeed = new Map<ChangeFeed | undefined, Set<Stream>>();
const listening = new WeakSet<ChangeFeed>();
/** Why a stream ends early: the user's newer page took its place (the client then stays closed). */
type EndReason = 'substituida';

/** Each user's streams on this instance, the oldest first. */
const perUser = new Map<number, Set<{ end(reason?: EndReason): void }>>();
let open = 0;
let stopping = false;

/** How many streams this instance holds (tests, metrics). */
export const openStreams = () => open;

/** Ends every stream and refuses new ones: the server is going away (scripts/serve.mjs calls it on SIGTERM). */
export function stopLiveStreams(): void {
  stopping = true;
  for (const streams of byFeed.values()) for (const stream of [...streams]) stream.end();
}

/** For tests that stop and start again in one process. */
export function resumeLiveStreams(): void {
  stopping = false;
}

(globalThis as Record<symbol, unknown>)[Symbol.for('portal.liveStop')] = stopLiveStreams;

function streamsOf(feed: ChangeFeed | undefined): Set<Stream> {
  let streams = byFeed.get(feed);
  if (!streams) {
    streams = new Set();
    byFeed.set(feed, streams);
  }
  if (feed && !listening.has(feed)) {
    listening.add(feed);
    feed.subscribe((change) => {
      for (const stream of byFeed.get(feed) ?? []) stream.heard(change);
    });
  }
  return streams;
}

/**
 * Takes a place for `userId`'s new stream, or refuses (503 stopping, 429 instance full) before anything
 * is read. Past the per-user cap the user's oldest stream gives way, told so: the page in front of the user wins
 * over one the server cannot yet tell is gone (a browser may leave a connection open after its tab
 * went, and a refused page would learn nothing until reloaded) — the cap still bounds each user.
 */
function admit(userId: number, stream: { end(reason?: EndReason): void }): () => void {
  if (stopping) throw new ApiError(503, 'O servidor está reiniciando. Tente novamente em instantes.', undefined, { 'retry-after': '2' });
  const { LIVE_MAX_PER_USER, LIVE_MAX_PER_INSTANCE } = config();
  const mine = perUser.get(userId) ?? new Set();
  // Told why (`event: substituida`): it does not reconnect — else two pages past the cap would take
  // each other's place every few seconds, each reconnection a count read again. None while under the
  // cap: a negative end would have `slice` count from the other end (issue 42: the cap was 3, not 5).
  const excess = mine.size + 1 - LIVE_MAX_PER_USER;
  if (excess > 0) for (const oldest of [...mine].slice(0, excess)) oldest.end('substituida');
  if (open >= LIVE_MAX_PER_INSTANCE)
    throw tooManyAttempts(30, 'Muitas conexões de atualização ao vivo neste momento. Tente novamente em instantes.');
  mine.add(stream);
  perUser.set(userId, mine);
  open += 1;
  return () => {
    if (!mine.delete(stream)) return;
    open -= 1;
    if (mine.size === 0) perUser.delete(userId);
  };
}

/** The token the request was authenticated with (as router.authenticate found it). */
export function tokenOf(request: Request, kinds: readonly SessionKind[]): string | undefined {
  const cookies = readCookies(request.headers.get('cookie'));
  return request.headers.get('authtoken') ?? kinds.map((kind) => cookies[TOKEN_COOKIES[kind]]).find(Boolean);
}

async function audienceOf(db: DB, viewer: SessionViewer): Promise<WorklistAudience> {
  const [sales, notas] = await Promise.all([scopeFor(db, viewer, 'BOLETOS'), commissionScopeFor(db, viewer)]);
  return { userId: viewer.user.idUsuario, sales, notas, staff: isInsurerStaff(viewer) };
}

export interface StreamRequest {
  db: DB;
  request: Request;
  user: Readonly<User>;
  kinds: readonly SessionKind[];
  /** The viewer as a signed-in page sees them, from the session's current user. */
  viewerOf(user: Readonly<User>): Promise<SessionViewer>;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-transform: the server script's compression leaves the stream alone (so does any proxy).
  'cache-control': 'no-cache, no-store, no-transform',
  // nginx and other proxies pass each event on at once (deploy/nginx.conf also says so for the path).
  'x-accel-buffering': 'no',
};

/** Opens the stream of `user` (already authenticated); throws 429/503 when no place is left. */
export function openWorklistStream({ db, request, user, kinds, viewerOf }: StreamRequest): Response {
  const release = admit(user.id, { end: (reason) => end(reason) });
  const token = tokenOf(request, kinds) ?? '';
  const feed = changesOf(db);
  const streams = streamsOf(feed);
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  let viewer: SessionViewer | undefined;
  let audience: WorklistAudience | undefined;
  let recheckSession = false;
  let lastCount = 0;
  let scheduled: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const send = (text: string) => {
    if (ended || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      end();
    }
  };

  /** Checks the session and works out the viewer and their audience again; false when the session is over. */
  async function refresh(): Promise<boolean> {
    const current = await userOfValidSession(db, token, kinds);
    if (!current || current.id !== user.id) return false;
    viewer = await viewerOf(current);
    audience = await audienceOf(db, viewer);
    return true;
  }

  async function recount() {
    if (ended) return;
    lastCount = Date.now();
    try {
      if (recheckSession || !viewer) {
        recheckSession = false;
        if (!(await refresh())) return end();
      }
      const novos = await worklistNewCount(db, viewer!);
      send(`data: ${JSON.stringify({ novos })}\n\n`);
    } catch (error) {
      // The database may be away for a moment: the next notice or heartbeat tries again.
      logError('pendencias-ao-vivo-falha', { erro: errorMessage(error) });
    }
  }

  /** At most one count per COALESCE_MS; a notice heard while counting counts once more after. */
  function schedule() {
    if (ended) return;
    if (running) {
      again = true;
      return;
    }
    if (scheduled) return;
    scheduled = setTimeout(
      () => {
        scheduled = undefined;
        running = recount().finally(() => {
          running = undefined;
          if (again) {
            again = false;
            schedule();
          }
        });
      },
      Math.max(0, lastCount + COALESCE_MS - Date.now()),
    );
  }

  const heartbeat = setInterval(() => {
    send(': ping\n\n');
    void refresh()
      .then((valid) => valid || end())
      .catch(() => {});
  }, config().LIVE_HEARTBEAT_SECONDS * 1000);
  heartbeat.unref?.();

  const stream: Stream = {
    userId: user.id,
    heard(change) {
      if (change.kind === 'offers') return;
      if (change.kind === 'user' && change.userId !== user.id) return;
      if (change.kind === 'worklist' && change.notice && audience && !touchesViewer(change.notice, audience)) return;
      // The user's own row, sessions or groups, or what principals are made of: who they are may differ now.
      if (change.kind === 'user' || change.kind === 'principals' || change.kind === 'everything') recheckSession = true;
      schedule();
    },
    end,
  };

  function end(reason?: EndReason) {
    if (ended) return;
    if (reason) send(`event: ${reason}\ndata: {}\n\n`);
    ended = true;
    clearInterval(heartbeat);
    if (scheduled) clearTimeout(scheduled);
    streams.delete(stream);
    release();
    try {
      controller?.close();
    } catch {
      // already closed by the client going away
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // Reconnect after 3 s when the stream ends (a restart); the first count at once.
      send('retry: 3000\n\n');
      streams.add(stream);
      running = recount().finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
    },
    cancel() {
      end();
    },
  });
  request.signal?.addEventListener('abort', () => end(), { once: true });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
