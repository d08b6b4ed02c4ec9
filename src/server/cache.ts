import { changesOf, refuseOuterHandle, type DB } from './db';
import type { Change, ChangeFeed } from './db/changes';
import { nowMs } from './clock';

/**
 * In-memory caches that the database keeps honest (docs/decisions/031-request-cost.md): each
 * belongs to one database's change feed, drops what a change names as soon as it is heard, and
 * answers nothing while the feed is not live — so a cache never outlives a revocation on this
 * instance, and on another one only for the time the notice takes. `maxAgeMs` bounds the rest
 * (a listener that died without noticing) and `maxEntries` the memory.
 */
export interface CacheSpec<K, V> {
  name: string;
  maxEntries: number;
  maxAgeMs: number;
  /** Whether a change makes an entry stale ('everything' always does). */
  drops(change: Change, key: K, value: V): boolean;
  /**
   * The instant (ms) an entry stops being true by itself — a grant's end date (decision 071) — so it
   * is not served past it whatever `maxAgeMs` says; undefined or null: no such instant.
   */
  expiresAt?(value: V): number | null | undefined;
}

export interface Cache<K, V> {
  get(key: K): V | undefined;
  /**
   * Reads through the cache: a miss loads, and keeps the value unless something changed while it
   * loaded (the load may have read the state before the change).
   */
  through(key: K, load: () => Promise<V>): Promise<V>;
  /** Replaces or adds an entry loaded at `since` (a `version()`); a change since then wins. */
  set(key: K, value: V, since: number): void;
  /** Drops what a change names, on this instance, at once (before its notice comes back). */
  apply(change: Change): void;
  /** Grows with every change heard: a value loaded before a change is not kept. */
  version(): number;
  readonly size: number;
}

interface Entry<V> {
  value: V;
  at: number;
}

export function createCache<K, V>(feed: ChangeFeed, spec: CacheSpec<K, V>): Cache<K, V> {
  const entries = new Map<K, Entry<V>>();
  let version = 0;
  const apply = (change: Change) => {
    // What worklists show (migration 038) is in no cache: such a notice, one per sale, changes nothing
    // here — not even the version, or every load overlapping a sale would go unkept.
    if (change.kind === 'worklist') return;
    version += 1;
    if (change.kind === 'everything') return entries.clear();
    for (const [key, entry] of entries) if (spec.drops(change, key, entry.value)) entries.delete(key);
  };
  feed.subscribe(apply);

  const cache: Cache<K, V> = {
    get(key) {
      if (!feed.live) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      const ends = spec.expiresAt?.(entry.value);
      if (nowMs() - entry.at > spec.maxAgeMs || (ends != null && nowMs() >= ends)) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    async through(key, load) {
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const since = version;
      const value = await load();
      cache.set(key, value, since);
      return value;
    },
    set(key, value, since) {
      if (!feed.live || since !== version) return;
      entries.delete(key); // re-inserted last: the oldest entries are the first to go
      entries.set(key, { value, at: nowMs() });
      if (entries.size > spec.maxEntries) entries.delete(entries.keys().next().value as K);
    },
    apply,
    version: () => version,
    get size() {
      return entries.size;
    },
  };
  return cache;
}

const cachesByFeed = new WeakMap<ChangeFeed, Map<string, Cache<unknown, unknown>>>();

/**
 * The cache `spec` names, of the database `db` was opened as; undefined for a handle without a
 * feed (a transaction), which then reads the database itself.
 */
export function cacheOf<K, V>(db: DB, spec: CacheSpec<K, V>): Cache<K, V> | undefined {
  const feed = changesOf(db);
  if (!feed) return undefined;
  let caches = cachesByFeed.get(feed);
  if (!caches) {
    caches = new Map();
    cachesByFeed.set(feed, caches);
  }
  let cache = caches.get(spec.name);
  if (!cache) {
    cache = createCache(feed, spec) as Cache<unknown, unknown>;
    caches.set(spec.name, cache);
  }
  return cache as Cache<K, V>;
}

/**
 * Tells this instance's caches of `db` what the caller just changed, so they forget it at once; the
 * database's notice tells the other instances (and this one again, harmlessly).
 */
export function announce(db: DB, change: Change): void {
  const feed = changesOf(db);
  for (const cache of (feed && cachesByFeed.get(feed)?.values()) ?? []) cache.apply(change);
}

/**
 * Reads through `db`'s cache when it has one, straight from the database otherwise. The outer handle
 * inside a PGlite transaction is refused even when the value is cached: the same call would hang the
 * day it misses.
 */
export function readThrough<K, V>(db: DB, spec: CacheSpec<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  const cache = cacheOf(db, spec);
  if (!cache) return load();
  refuseOuterHandle(db, `Leitura do cache ${spec.name}`);
  return cache.through(key, load);
}
