import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Database } from './schema';
import * as m001 from './migrations/001_initial';
import * as m002 from './migrations/002_quotes';
import * as m003 from './migrations/003_afs_redirect_keys';
import * as m004 from './migrations/004_throttles_and_mail_secrets';
import * as m005 from './migrations/005_sign_in_places';

export type DB = Kysely<Database>;

/** Migrations are imported, not read from disk, so the built server carries them. Append only. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_quotes': m002,
  '003_afs_redirect_keys': m003,
  '004_throttles_and_mail_secrets': m004,
  '005_sign_in_places': m005,
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
}

export async function connect({ databaseUrl, dataDir }: ConnectOptions): Promise<DB> {
  if (databaseUrl) {
    const pg = await import('pg');
    pg.default.types.setTypeParser(DATE_OID, keepDate);
    const pool = new pg.default.Pool({ connectionString: databaseUrl, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const location = dataDir ?? 'memory://';
  if (!location.startsWith('memory://')) mkdirSync(resolve(location), { recursive: true });
  const pglite = await PGlite.create(location.startsWith('memory://') ? undefined : resolve(location), {
    parsers: { [DATE_OID]: keepDate },
  });
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}

export async function migrate(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Falha na migração ${failed?.migrationName ?? ''}`.trim(), { cause: error });
}
