import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCache, type CacheSpec } from './cache';
import { createFeed, parseChange, postgresFeed } from './db/changes';
import { useManualClock } from './clock';

const BY_USER: CacheSpec<number, string> = {
  name: 'test',
  maxEntries: 3,
  maxAgeMs: 30_000,
  drops: (change, key) => change.kind === 'user' && change.userId === key,
};

function liveCache(spec = BY_USER) {
  const feed = createFeed();
  feed.setLive(true);
  return { feed, cache: createCache(feed, spec) };
}

describe('parseChange', () => {
  it.each([
    ['user:42', { kind: 'user', userId: 42 }],
    ['principals', { kind: 'principals' }],
    ['offers', { kind: 'offers' }],
    // Issue 31: what a worklist shows, for the live worklist alone (a malformed one: everyone recounts).
    ['worklist:venda:3:42', { kind: 'worklist', notice: { whose: 'sale', companyId: 3, sellerId: 42 } }],
    ['worklist:equipe', { kind: 'worklist', notice: { whose: 'staff' } }],
    ['worklist:venda:x', { kind: 'worklist', notice: undefined }],
    // Anything not understood drops everything: a cache errs on the side of asking again.
    ['user:', { kind: 'everything' }],
    ['novidade', { kind: 'everything' }],
    [undefined, { kind: 'everything' }],
  ])('%s', (payload, change) => expect(parseChange(payload)).toEqual(change));
});

describe('a cache kept by a change feed', () => {
  let clock: ReturnType<typeof useManualClock> | undefined;
  afterEach(() => clock?.restore());

  it('keeps what it loaded and drops what a change names', async () => {
    const { feed, cache } = liveCache();
    const load = vi.fn(async () => 'Ana');
    expect(await cache.through(1, load)).toBe('Ana');
    expect(await cache.through(1, load)).toBe('Ana');
    expect(load).toHaveBeenCalledTimes(1);
    feed.publish({ kind: 'user', userId: 2 });
    expect(cache.get(1)).toBe('Ana');
    feed.publish({ kind: 'user', userId: 1 });
    expect(cache.get(1)).toBeUndefined();
    await cache.through(1, load);
    feed.publish({ kind: 'everything' });
    expect(cache.size).toBe(0);
  });

  it('ignores a worklist notice: one comes with every sale, and none names what a cache holds', async () => {
    const { feed, cache } = liveCache({ ...BY_USER, drops: () => true });
    await cache.through(1, async () => 'Ana');
    const version = cache.version();
    feed.hear('worklist:venda:3:1');
    feed.hear('worklist:venda:malformado');
    expect(cache.get(1)).toBe('Ana');
    expect(cache.version()).toBe(version);
    // A load overlapping a sale's notice is still kept.
    let finish!: (value: string) => void;
    const loading = cache.through(2, () => new Promise<string>((done) => (finish = done)));
    feed.hear('worklist:equipe');
    finish('Bia');
    await loading;
    expect(cache.get(2)).toBe('Bia');
  });

  it('does not keep a value whose load overlapped a change (it may predate it)', async () => {
    const { feed, cache } = liveCache();
    let finish!: (value: string) => void;
    const loading = cache.through(1, () => new Promise<string>((done) => (finish = done)));
    feed.publish({ kind: 'user', userId: 7 });
    finish('antes da mudança');
    expect(await loading).toBe('antes da mudança');
    expect(cache.get(1)).toBeUndefined();
  });

  it('answers nothing while the feed is not live, and forgets all when it goes down or comes back', async () => {
    const { feed, cache } = liveCache();
    await cache.through(1, async () => 'Ana');
    feed.setLive(false);
    expect(cache.get(1)).toBeUndefined();
    await cache.through(2, async () => 'Bia');
    feed.setLive(true);
    expect(cache.size).toBe(0);
  });

  it('forgets an entry past its age, and the oldest entry beyond its size', async () => {
    clock = useManualClock();
    const { cache } = liveCache();
    for (const id of [1, 2, 3]) await cache.through(id, async () => `user ${id}`);
    clock.advance(10_000);
    await cache.through(4, async () => 'user 4');
    expect([1, 2, 3, 4].map((id) => cache.get(id))).toEqual([undefined, 'user 2', 'user 3', 'user 4']);
    clock.advance(20_001);
    expect([2, 3, 4].map((id) => cache.get(id))).toEqual([undefined, undefined, 'user 4']);
  });
});

/** A pg Client stand-in: connect succeeds or fails as told; `drop` ends it as a lost connection would. */
function fakeClients(outcomes: ('ok' | 'fail')[]) {
  const made: { handlers: Record<string, (arg?: any) => void>; queries: string[]; drop(): void }[] = [];
  const newClient = () => {
    const outcome = outcomes[made.length] ?? 'ok';
    const handlers: Record<string, (arg?: any) => void> = {};
    const client = {
      handlers,
      queries: [] as string[],
      drop: () => handlers.end?.(),
      connect: async () => {
        if (outcome === 'fail') throw new Error('ECONNREFUSED');
      },
      query: async (text: string) => void client.queries.push(text),
      end: async () => {},
      on: (event: string, handler: (arg?: any) => void) => {
        handlers[event] = handler;
      },
    };
    made.push(client);
    return client;
  };
  return { made, newClient };
}

describe('settling a feed', () => {
  it('waits for its own marker, which no listener hears, while changes before it are published', async () => {
    const feed = createFeed();
    feed.setLive(true);
    const heard: unknown[] = [];
    feed.subscribe((change) => heard.push(change));
    const sent: string[] = [];
    let settled = false;
    const settling = feed
      .settle(async (payload) => {
        sent.push(payload);
      })
      .then(() => (settled = true));
    await Promise.resolve();
    feed.hear('user:7');
    feed.hear('settle:of-another-instance');
    await new Promise((done) => setTimeout(done, 10));
    expect(settled).toBe(false);
    feed.hear(sent[0]);
    await settling;
    expect(sent).toEqual([expect.stringMatching(/^settle:/)]);
    expect(heard).toEqual([{ kind: 'user', userId: 7 }]);
  });

  it('sends nothing where all is heard already (PGlite) or where the caches stand down (not live)', async () => {
    const notify = vi.fn(async () => {});
    const synchronous = createFeed({ synchronous: true });
    synchronous.setLive(true);
    await synchronous.settle(notify);
    await createFeed().settle(notify);
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('the PostgreSQL listener', () => {
  afterEach(() => vi.useRealTimers());

  it('listens, passes notices on, and on a drop stands the caches down until it is back', async () => {
    vi.useFakeTimers();
    const { made, newClient } = fakeClients(['ok', 'fail', 'ok']);
    const feed = postgresFeed(newClient);
    const heard: unknown[] = [];
    feed.subscribe((change) => heard.push(change));
    await vi.advanceTimersByTimeAsync(0);
    expect(feed.live).toBe(true);
    expect(made[0]!.queries).toEqual(['LISTEN portal_changes']);
    made[0]!.handlers.notification!({ channel: 'portal_changes', payload: 'user:5' });
    made[0]!.handlers.notification!({ channel: 'outro', payload: 'user:6' });
    // Going live tells the caches to start afresh; then the notices of this channel only.
    expect(heard).toEqual([{ kind: 'everything' }, { kind: 'user', userId: 5 }]);

    made[0]!.drop();
    expect(feed.live).toBe(false);
    expect(heard.at(-1)).toEqual({ kind: 'everything' });
    await vi.advanceTimersByTimeAsync(500); // the first retry fails…
    expect(made).toHaveLength(2);
    expect(feed.live).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(made).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1); // …the next one, a pause twice as long later, succeeds
    expect(made).toHaveLength(3);
    expect(feed.live).toBe(true);
    expect(heard.at(-1)).toEqual({ kind: 'everything' });
    await feed.close();
    expect(feed.live).toBe(false);
  });
});
