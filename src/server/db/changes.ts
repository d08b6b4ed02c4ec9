import { randomUUID } from 'node:crypto';
import { parseWorklistNotice, WORKLIST_PREFIX, type WorklistNotice } from '../../lib/worklist-notices';

/**
 * What the database says changed (migration 006's triggers NOTIFY `portal_changes`), for the caches
 * of a signed-in request (server/cache.ts: sessions, principals, the offer catalog). The triggers fire
 * whoever writes — this instance, another one over the same PostgreSQL, an operator's SQL — so a
 * cache that listens never serves what was revoked, deactivated or changed, beyond the time the
 * notice takes to arrive (docs/decisions/031-request-cost.md).
 *
 * A cache may trust itself only while the feed is `live`: PGlite is one process and hears its own
 * notices as each statement completes; a PostgreSQL listener connection may drop, and notices sent
 * meanwhile are lost — so on a drop every listener hears 'everything' and the caches stand down
 * until the connection is back (and hear 'everything' again then).
 */
export const CHANGE_CHANNEL = 'portal_changes';

/**
 * 'worklist' (migration 038, issue 31): a record a worklist shows changed — for the live worklist
 * (server/api/live-worklist.ts) alone; no cache holds such records, so every cache ignores it
 * (server/cache.ts), where an unknown payload would empty them all on every sale.
 */
export type Change =
  | { kind: 'user'; userId: number }
  | { kind: 'principals' }
  | { kind: 'offers' }
  /** notice: whose records changed; absent when the payload could not be read (every viewer recounts). */
  | { kind: 'worklist'; notice?: WorklistNotice }
  | { kind: 'everything' };

export function parseChange(payload: string | undefined): Change {
  if (payload === 'principals' || payload === 'offers') return { kind: payload };
  // A malformed one still says nothing the caches hold; the live worklist recounts everyone's.
  if (payload?.startsWith(WORKLIST_PREFIX)) return { kind: 'worklist', notice: parseWorklistNotice(payload) };
  const user = /^user:(\d+)$/.exec(payload ?? '');
  return user ? { kind: 'user', userId: Number(user[1]) } : { kind: 'everything' };
}

export interface ChangeFeed {
  /** True while every change is heard; caches bypass themselves otherwise. */
  readonly live: boolean;
  subscribe(listener: (change: Change) => void): () => void;
  /**
   * Resolves once every change committed before the call has been heard: `notify` sends a marker
   * down the channel, and PostgreSQL delivers notices in commit order. For whoever writes with plain
   * SQL and then reads through a cache at once (tests); services announce their own writes.
   */
  settle(notify: (payload: string) => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

const MARKER = 'settle:';
const SETTLE_TIMEOUT_MS = 5_000;

/** The fan-out every feed shares: listeners, liveness, and 'everything' on each change of liveness. */
export function createFeed({ synchronous = false } = {}): ChangeFeed & {
  publish(change: Change): void;
  /** A notice's payload as it arrives: a settle marker, or a change for the listeners. */
  hear(payload: string | undefined): void;
  setLive(live: boolean): void;
  onClose(close: () => Promise<void>): void;
} {
  const listeners = new Set<(change: Change) => void>();
  const markers = new Map<string, () => void>();
  let live = false;
  let closing: (() => Promise<void>) | undefined;
  const publish = (change: Change) => {
    for (const listener of listeners) listener(change);
  };
  return {
    get live() {
      return live;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish,
    hear(payload) {
      // Another instance's markers are nobody's here.
      if (!payload?.startsWith(MARKER)) return publish(parseChange(payload));
      markers.get(payload)?.();
    },
    async settle(notify) {
      // Not live, the caches stand down and nothing stale can be read; synchronous, all is heard.
      if (synchronous || !live) return;
      const marker = `${MARKER}${randomUUID()}`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const heard = new Promise<void>((resolve) => {
        markers.set(marker, resolve);
        // A feed that drops meanwhile hears 'everything' anyway: never wait longer than this.
        timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
      });
      try {
        await notify(marker);
        await heard;
      } finally {
        clearTimeout(timer);
        markers.delete(marker);
      }
    },
    setLive(next) {
      if (next === live) return;
      live = next;
      publish({ kind: 'everything' });
    },
    onClose(close) {
      closing = close;
    },
    async close() {
      this.setLive(false);
      listeners.clear();
      await closing?.();
    },
  };
}

/** PGlite's feed: one process, one connection; notices arrive before the writing statement returns. */
export async function pgliteFeed(pglite: { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> }) {
  const feed = createFeed({ synchronous: true });
  const unlisten = await pglite.listen(CHANGE_CHANNEL, (payload) => feed.hear(payload));
  feed.onClose(() => unlisten().catch(() => {}));
  feed.setLive(true);
  return feed;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

interface ListenerClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/**
 * PostgreSQL's feed: a connection of its own that LISTENs; dropped, it is replaced with a growing
 * pause (½ s … 30 s) and the feed is not live in between.
 */
export function postgresFeed(newClient: () => ListenerClient) {
  const feed = createFeed();
  let closed = false;
  let client: ListenerClient | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pause = RECONNECT_MIN_MS;

  const reconnectLater = () => {
    feed.setLive(false);
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, pause);
    retry.unref?.();
    pause = Math.min(pause * 2, RECONNECT_MAX_MS);
  };

  async function open() {
    const next = newClient();
    client = next;
    let dropped = false;
    const drop = () => {
      if (dropped || client !== next) return;
      dropped = true;
      client = undefined;
      next.end().catch(() => {});
      reconnectLater();
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) feed.hear(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (closed) return void next.end().catch(() => {});
      pause = RECONNECT_MIN_MS;
      feed.setLive(true);
    } catch {
      drop();
    }
  }

  feed.onClose(async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  });
  void open();
  return feed;
}
