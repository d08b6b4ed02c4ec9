import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PGliteAdapter, PostgresDialect, sql, type ConnectionBuilder, type KyselyConfig, type TransactionBuilder } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Database } from './schema';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_quotes';
import * as m003 from './migrations/003_afs_redirect_keys';
import * as m004 from './migrations/004_throttles_and_mail_secrets';
import * as m005 from './migrations/005_sign_in_places';
import * as m006 from './migrations/006_change_notifications';
import * as m007 from './migrations/007_acceptance_and_policies';
import * as m008 from './migrations/008_charges_and_payments';
import * as m009 from './migrations/009_issuance_notices';
import * as m010 from './migrations/010_endorsements';
import * as m011 from './migrations/011_documents';
import * as m012 from './migrations/012_commissions';
import * as m013 from './migrations/013_points_of_sale_on_sales';
import * as m014 from './migrations/014_sales_targets';
import * as m015 from './migrations/015_sales_reports';
import * as m016 from './migrations/016_user_admin';
import * as m017 from './migrations/017_access_groups';
import * as m018 from './migrations/018_user_imports';
import * as m019 from './migrations/019_access_log';
import * as m020 from './migrations/020_company_channels';
import * as m021 from './migrations/021_points_of_sale_admin';
import * as m022 from './migrations/022_partners';
import * as m023 from './migrations/023_scheduled_cancellations';
import * as m024 from './migrations/024_document_quotas';
import * as m025 from './migrations/025_report_turns';
import * as m026 from './migrations/026_payment_receipts';
import * as m027 from './migrations/027_import_updates';
import * as m028 from './migrations/028_sales_rollup';
import * as m029 from './migrations/029_name_search';
import * as m030 from './migrations/030_keyset_lists';
import * as m031 from './migrations/031_keyset_history_payments';
import * as m032 from './migrations/032_keyset_access_log';
import * as m033 from './migrations/033_payments_beneficiary';
import * as m034 from './migrations/034_commissions_rollup';
import * as m035 from './migrations/035_documents_sale_scope';
import * as m036 from './migrations/036_outbox_retries';
import * as m037 from './migrations/037_worklist';
import * as m038 from './migrations/038_worklist_notices';
import * as m039 from './migrations/039_renewals';
import * as m040 from './migrations/040_insured_reminders';
import * as m041 from './migrations/041_refunds_queue';
import * as m042 from './migrations/042_worklist_scope';
import * as m043 from './migrations/043_second_factor';
import * as m044 from './migrations/044_session_devices';
import * as m045 from './migrations/045_user_page';
import * as m046 from './migrations/046_user_bulk_actions';
import * as m047 from './migrations/047_access_reviews';
import * as m049 from './migrations/049_second_factor_guards';
import * as m050 from './migrations/050_receipt_refunds';
import * as m052 from './migrations/052_renewal_again';
import * as m055 from './migrations/055_documents_insured_name';
import { CHANGE_CHANNEL, pgliteFeed, postgresFeed, type ChangeFeed } from './changes';
import { markedConnection, markedTransaction, OneConnectionDialect, refuseInsideTransaction } from './one-connection';

export type DB = Kysely<Database>;

/** The database of a process, with the feed of what changes in it (server/db/changes.ts). */
class PortalDatabase extends Kysely<Database> {
  constructor(
    config: KyselyConfig,
    readonly changes: ChangeFeed,
    /** PostgreSQL's pool; none for PGlite, the process's one connection. */
    readonly pool?: PoolCounts,
    readonly embedded?: { dumpDataDir(compression: 'none'): Promise<Blob> },
  ) {
    super(config);
  }

  override async destroy(): Promise<void> {
    await this.changes.close();
    await super.destroy();
  }

  // A closure that holds the connection is marked, so that on PGlite a statement it issues on this
  // outer handle throws instead of waiting for ever (db/one-connection.ts).
  override transaction(): TransactionBuilder<Database> {
    return markedTransaction(super.transaction());
  }

  override connection(): ConnectionBuilder<Database> {
    return markedConnection(super.connection());
  }
}

/** pg's Pool as the metrics read it (scripts/ops.mjs): connections open, idle, and requests waiting for one. */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** The connection pool of a PostgreSQL server opened by `connect`; none for PGlite (one connection in the process). */
export const poolOf = (db: DB): PoolCounts | undefined => (db instanceof PortalDatabase ? db.pool : undefined);

/**
 * On PGlite, throws when called from inside a transaction's closure with the outer handle: what would
 * read through it there (a cache that may miss) would wait for ever (db/one-connection.ts).
 */
export function refuseOuterHandle(db: DB, what: string): void {
  if (db instanceof PortalDatabase && !db.pool) refuseInsideTransaction(what);
}

/** The change feed of a database opened by `connect`; none for a transaction or another handle. */
export const changesOf = (db: DB): ChangeFeed | undefined => (db instanceof PortalDatabase ? db.changes : undefined);

/** Resolves once the caches have heard every change committed so far (ChangeFeed.settle). */
export async function changesSettled(db: DB): Promise<void> {
  await changesOf(db)?.settle((payload) => sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`.execute(db));
}

/** Migrations are imported, not read from disk, so the built server carries them. Append only. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_quotes': m002,
  '003_afs_redirect_keys': m003,
  '004_throttles_and_mail_secrets': m004,
  '005_sign_in_places': m005,
  '006_change_notifications': m006,
  '007_acceptance_and_policies': m007,
  '008_charges_and_payments': m008,
  '009_issuance_notices': m009,
  '010_endorsements': m010,
  '011_documents': m011,
  '012_commissions': m012,
  '013_points_of_sale_on_sales': m013,
  '014_sales_targets': m014,
  '015_sales_reports': m015,
  '016_user_admin': m016,
  '017_access_groups': m017,
  '018_user_imports': m018,
  '019_access_log': m019,
  '020_company_channels': m020,
  '021_points_of_sale_admin': m021,
  '022_partners': m022,
  '023_scheduled_cancellations': m023,
  '024_document_quotas': m024,
  '025_report_turns': m025,
  '026_payment_receipts': m026,
  '027_import_updates': m027,
  '028_sales_rollup': m028,
  '029_name_search': m029,
  '030_keyset_lists': m030,
  '031_keyset_history_payments': m031,
  '032_keyset_access_log': m032,
  '033_payments_beneficiary': m033,
  '034_commissions_rollup': m034,
  '035_documents_sale_scope': m035,
  '036_outbox_retries': m036,
  '037_worklist': m037,
  '038_worklist_notices': m038,
  '039_renewals': m039,
  '040_insured_reminders': m040,
  '041_refunds_queue': m041,
  '042_worklist_scope': m042,
  '043_second_factor': m043,
  '044_session_devices': m044,
  '045_user_page': m045,
  '046_user_bulk_actions': m046,
  '047_access_reviews': m047,
  '049_second_factor_guards': m049,
  '050_receipt_refunds': m050,
  '052_renewal_again': m052,
  '055_documents_insured_name': m055,
};

// PostgreSQL's `date` (OID 1082) stays the 'YYYY-MM-DD' string it is: a Date would shift with the
// server's time zone. Both drivers get the same parser so the code sees the same values.
const DATE_OID = 1082;
const keepDate = (value: string) => value;

export interface ConnectOptions {
  /** postgres:// URL of a PostgreSQL server; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory://' for a throwaway database. */
  dataDir?: string;
  /** Told the SQL of every statement run and its parameters (tests count round trips and explain plans with it). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /** PGlite only: start from this copy of a data dir (`dumpEmbedded`) — the tests' migrated, seeded template. */
  image?: Blob;
}

/**
 * What a page read out of order costs the planner against one read in order (PostgreSQL's default
 * is 4, for spinning disks). The portal's pages read a bounded range of a partial index in its order
 * (DESIGN §11); with 4, on a table of a few thousand rows whose index order is not the heap's, the
 * planner rather reads every open installment and sorts them, a plan that grows with the book. The
 * database is in memory (PGlite) or on SSD (every PostgreSQL we deploy on): 1.1 is the usual value
 * there (docs/decisions/081-planner-costs.md).
 */
const RANDOM_PAGE_COST = 1.1;

export async function connect({ databaseUrl, dataDir, onQuery, image }: ConnectOptions): Promise<DB> {
  const log: KyselyConfig['log'] = onQuery && ((event) => onQuery(event.query.sql, event.query.parameters));
  if (databaseUrl) {
    const pg = await import('pg');
    pg.default.types.setTypeParser(DATE_OID, keepDate);
    // The planner's cost of a page read out of order, as on SSD (RANDOM_PAGE_COST); a DATABASE_URL
    // that carries its own `options` keeps them.
    const options = new URL(databaseUrl).searchParams.has('options') ? {} : { options: `-c random_page_cost=${RANDOM_PAGE_COST}` };
    const pool = new pg.default.Pool({ connectionString: databaseUrl, max: 10, ...options });
    // Keep-alive lets a listener on a dead network path notice it (and the caches stand down).
    const changes = postgresFeed(() => new pg.default.Client({ connectionString: databaseUrl, keepAlive: true }));
    return new PortalDatabase({ dialect: new PostgresDialect({ pool }), log }, changes, pool);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // The trigram indexes of the name searches (migration 029) need pg_trgm loaded in every connection.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const location = dataDir ?? 'memory://';
  if (!location.startsWith('memory://')) mkdirSync(resolve(location), { recursive: true });
  const pglite = await PGlite.create(location.startsWith('memory://') ? undefined : resolve(location), {
    parsers: { [DATE_OID]: keepDate },
    // PostgreSQL's 128 MB of shared buffers would double what the operating system already caches of
    // the data dir's files; 16 MB holds the portal's hot pages (docs/decisions/031-request-cost.md).
    postgresqlconf: `shared_buffers = 16MB\nrandom_page_cost = ${RANDOM_PAGE_COST}`,
    extensions: { pg_trgm },
    loadDataDir: image,
  });
  return new PortalDatabase({ dialect: new OneConnectionDialect({ pglite }), log }, await pgliteFeed(pglite), undefined, pglite);
}

/** A copy of an embedded (PGlite) database's data dir, to open others from (`connect({ image })`). */
export async function dumpEmbedded(db: DB): Promise<Blob> {
  const embedded = db instanceof PortalDatabase ? db.embedded : undefined;
  if (!embedded) throw new Error('dumpEmbedded: not an embedded (PGlite) database');
  return embedded.dumpDataDir('none');
}

/**
 * Brings the schema to the latest migration, once however many instances start together. Kysely's
 * Migrator does the locking (node_modules/kysely/dist/migration/migrator.js, 0.29): on PostgreSQL its
 * adapter takes the session advisory lock 3853314791062309107 (`pg_advisory_lock`, lock_timeout 1 h)
 * on one connection and runs the pending migrations in one transaction on it, so a second instance
 * waits, then reads the migrations table again and finds nothing to do; the creation of its own
 * tables tolerates a race (`if not exists`, and a re-check on error). PGlite's adapter takes no lock:
 * it is one connection in one process, and its data dir is opened by one process only.
 * tests/integration/startup-once.test.ts starts four over one empty PostgreSQL database.
 */
export async function migrate(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Falha na migração ${failed?.migrationName ?? ''}`.trim(), { cause: error });
}

/**
 * Runs `work` while this process holds the PostgreSQL session advisory lock named `name` (on a
 * connection of its own, held until `work` ends — or the process dies, which closes it), so of
 * several instances one at a time runs it: `work` re-reads what it decides on. The lock waits as
 * long as the holder works. PGlite is one process with one connection: `work` simply runs.
 */
export async function whileLocked<T>(db: DB, name: string, work: () => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PGliteAdapter) return work();
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${name}))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}
