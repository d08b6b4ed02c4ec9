import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/boot/database';
import { emptyServerDatabase } from '../fixtures/db';

/**
 * Issue 30: instances started together over one empty PostgreSQL database — each its own pool, as
 * separate processes — all come up; the migrations run once (kysely's advisory lock) and the demo is
 * seeded once (the seed's own advisory lock, boot/database.ts). PGlite is one process per data dir.
 */
describe.skipIf(!process.env.DATABASE_URL)('several instances starting on one empty database', () => {
  it('all open it; each migration is recorded once and the demo seeded once', async () => {
    const database = await emptyServerDatabase(process.env.DATABASE_URL!);
    const opened = await Promise.allSettled(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: database.url, afterSaleDemo: false })),
    );
    const dbs = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(opened.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      const db = dbs[0]!;
      const { rows: migrations } = await sql<{ name: string; times: number }>`
        select name, count(*)::int as times from kysely_migration group by name order by name`.execute(db);
      expect(migrations.length).toBeGreaterThanOrEqual(36);
      expect(migrations.filter((row) => row.times !== 1)).toEqual([]);
      // The demo's two companies and its accounts, once.
      const companies = await db.selectFrom('companies').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      expect(companies.n).toBe(2);
      const admins = await db
        .selectFrom('users')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('email', '=', 'admin@seguradora.demo')
        .executeTakeFirstOrThrow();
      expect(admins.n).toBe(1);
      const simulators = await db
        .selectFrom('simulators')
        .select(['code', sql<number>`count(*)::int`.as('n')])
        .groupBy('code')
        .having(sql`count(*)`, '>', 1)
        .execute();
      expect(simulators).toEqual([]);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await database.drop();
    }
  }, 120_000);
});
