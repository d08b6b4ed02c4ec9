import { openedDatabase } from '../boot/database';
import { jobCounts } from '../boot/jobs';
import { config } from '../config';
import { poolOf } from '../db';
import { queueDepths } from './queues';
import { readiness } from './readiness';

/**
 * What the server script's operations layer (scripts/ops.mjs) asks of the bundle, at
 * `globalThis[Symbol.for('portal.ops')]`, set when the request pipeline loads (middleware/index.ts
 * imports this module). Until then /readyz answers 503 and an incoming request id is not believed.
 */
export interface OpsHooks {
  /** TRUST_PROXY: the socket peer is a proxy whose X-Request-Id is believed. */
  trustsProxy(address: string): boolean;
  ready: typeof readiness;
  /** Read at each scrape: the queues (once the database is open), the pg pool, the jobs' turns. */
  snapshot(): Promise<{
    queues?: Awaited<ReturnType<typeof queueDepths>>;
    pool?: { total: number; idle: number; waiting: number };
    jobs: ReturnType<typeof jobCounts>;
  }>;
}

const hooks: OpsHooks = {
  trustsProxy: (address) => config().TRUST_PROXY.has(address),
  ready: () => readiness(),
  async snapshot() {
    const db = openedDatabase();
    const pool = db && poolOf(db);
    return {
      queues: db ? await queueDepths(db) : undefined,
      pool: pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined,
      jobs: jobCounts(),
    };
  },
};

(globalThis as Record<symbol, unknown>)[Symbol.for('portal.ops')] = hooks;
