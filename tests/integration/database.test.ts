import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { openDatabase } from '../../src/server/boot/database';
import { freshDatabase } from '../fixtures/db';
import { DEMO_COMPANIES, DEMO_USERS, seedDemoData } from '../../src/server/demo/seed';
import { SIMULATOR_CODES } from '../../src/lib/simulators';
import { isValidCnpj } from '../../src/lib/validators';
import { hashCostForTests, hashPassword, PASSWORD_COST, verifyPassword } from '../../src/server/auth/passwords';

let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

describe('seed', () => {
  it('creates the demo companies (valid CNPJs), three points of sale with addresses, every simulator with an offer, and the accounts', async () => {
    for (const company of Object.values(DEMO_COMPANIES)) expect(isValidCnpj(company.cnpj)).toBe(true);
    const sub = await db.selectFrom('companies').selectAll().where('tipo', '=', 'SUBSTABELECIDO').executeTakeFirstOrThrow();
    expect(sub.parent_id).not.toBeNull();
    const points = await db.selectFrom('points_of_sale').select(['codigo', 'cep', 'cidade', 'status']).orderBy('id').execute();
    expect(points.map((p) => p.codigo)).toEqual(['PV-0001', 'PV-0002', 'VV-0001']);
    for (const p of points) expect(p).toMatchObject({ cep: expect.stringMatching(/^\d{8}$/), cidade: expect.any(String), status: 'ATIVO' });
    const offers = await db
      .selectFrom('offers')
      .innerJoin('simulators', 'simulators.id', 'offers.simulator_id')
      .select('simulators.code')
      .execute();
    expect(offers.map((o) => o.code).sort()).toEqual(SIMULATOR_CODES.map((s) => s.code).sort());
    const users = await db.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
  });

  it('runs once: a second seed changes nothing', async () => {
    expect(await seedDemoData(db)).toBe(false);
  });
});

describe('passwords', () => {
  beforeAll(() => hashCostForTests(PASSWORD_COST.N)); // the suite hashes cheaply; this is about the cost

  it('verify only the password they were made from, with a fresh salt each time', async () => {
    const hash = await hashPassword('Portal@2026');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('Portal@2026', hash)).toBe(true);
    expect(await verifyPassword('portal@2026', hash)).toBe(false);
    expect(await hashPassword('Portal@2026')).not.toBe(hash);
    expect(await verifyPassword('x', null)).toBe(false);
  });
});

describe('concurrency', () => {
  it('keeps 60 concurrent transactions consistent, half of them rolled back', async () => {
    await sql`create table concurrency_check (n integer not null)`.execute(db);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('concurrency_check' as never)
            .values({ n: i } as never)
            .execute();
          if (i % 2 === 1) throw new Error('rollback');
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(30);
    const { total } = await sql<{ total: number }>`select count(*)::int as total from concurrency_check`
      .execute(db)
      .then((r) => r.rows[0]!);
    expect(total).toBe(30);
    await sql`drop table concurrency_check`.execute(db);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('embedded database on disk', () => {
  it('keeps a changed password across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first
        .updateTable('users')
        .set({ password_hash: await hashPassword('Trocada@2026') })
        .where('email', '=', 'vendedor@legado.demo')
        .execute();
      await first.destroy();
      const second = await openDatabase({ dataDir: dir });
      const user = await second
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'vendedor@legado.demo')
        .executeTakeFirstOrThrow();
      expect(await verifyPassword('Trocada@2026', user.password_hash)).toBe(true);
      await second.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two cold opens of an on-disk database and two full-cost hashes: slow on a busy machine
});
