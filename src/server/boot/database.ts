import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { config } from '../config';
import { connect, migrate, whileLocked, type ConnectOptions, type DB } from '../db';
import { seedDemoData } from '../demo/seed';
import { startJobs } from './jobs';

/**
 * The database a process works with: opened, migrated and (when empty) seeded with the demo data.
 * It lives apart from `db/` on purpose: the seed sells through the services, and every service
 * imports `db/` for its types — with the seed inside `db/` the module graph would be a circle.
 */

/** Opens, migrates and (when empty) seeds a database: the one path every process and test takes. */
export async function openDatabase(
  options: ConnectOptions & { seed?: boolean; afterSaleDemo?: boolean; demoHistory?: boolean },
): Promise<DB> {
  const db = await connect(options);
  await migrate(db); // once across instances: kysely's advisory lock (db/index.ts)
  // The seed looks for users and writes them if there are none: under a lock of its own, so of
  // several instances starting on an empty database one seeds and the others then find its users.
  if (options.seed !== false)
    await whileLocked(db, 'portal:demo-seed', () =>
      seedDemoData(db, { afterSale: options.afterSaleDemo !== false, history: options.demoHistory === true }),
    );
  return db;
}

// One database per server process: PGlite is a single in-process connection and its data dir may be
// opened by one process only.
let shared: Promise<DB> | undefined;
let opened: DB | undefined;
let stopJobs: (() => Promise<void>) | undefined;

let openFailed = false;

export function database(): Promise<DB> {
  const { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, DEMO_HISTORY: demoHistory } = config();
  shared ??= openDatabase({ databaseUrl, dataDir, demoHistory }).then(
    (db) => {
      stopJobs = startJobs(db);
      opened = db;
      return db;
    },
    (error: unknown) => {
      openFailed = true;
      throw error;
    },
  );
  return shared;
}

/**
 * A first start on PGlite (a data dir with no database in it yet): creates, migrates and seeds the
 * database — with the demo's year of sales when DEMO_HISTORY, printing how far it got — and closes it.
 * Run by scripts/first-start.mjs, a process of its own that the server waits for before it opens the
 * database and listens (decision 077): a newcomer's first page finds the demo ready, and the memory
 * the year's work grew leaves with that process. On PostgreSQL, or when the data dir holds a database,
 * it does nothing.
 */
export async function prepareFirstStart(): Promise<void> {
  const { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, DEMO_HISTORY: demoHistory } = config();
  if (databaseUrl || dataDir.startsWith('memory://') || existsSync(join(resolve(dataDir), 'PG_VERSION'))) return;
  const started = performance.now();
  const db = await openDatabase({ dataDir, demoHistory });
  await db.destroy();
  console.log(`Demonstração pronta em ${((performance.now() - started) / 1000).toFixed(1).replace('.', ',')} s.`);
}

/** The shared database once it is open, for what must answer at once or not at all (server/boot/viewer-memo.ts). */
export const openedDatabase = (): DB | undefined => opened;

/** Opening (connecting, migrating, seeding) failed: this process will not open it (GET /readyz says so). */
export const databaseOpenFailed = (): boolean => openFailed;

// The server scripts (scripts/serve.mjs, first-start.mjs) live outside the bundle; through these
// well-known hooks they make a first start's database, open the database once the first page is
// served, and close it on shutdown, so PGlite flushes its data dir before the process exits.
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.firstStart')] = () => prepareFirstStart();
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.open')] = () => database();
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.shutdown')] = () => closeDatabase();

/** Closes the shared database (graceful shutdown); a no-op when it was never opened. */
export async function closeDatabase(): Promise<void> {
  if (!shared) return;
  const db = await shared;
  await stopJobs?.(); // a turn under way (mail being sent) records its outcome before the database goes
  stopJobs = undefined;
  shared = undefined;
  opened = undefined;
  await db.destroy();
}
