import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { viewerByEmail } from '../fixtures/selling';
import { announce } from '../../src/server/cache';
import { OFFERS_CHANGED, sellableOffers } from '../../src/server/services/network/offers';
import type { V2SessionUser } from '../../src/lib/session';

/**
 * Issue 42 item 11 (docs/decisions/077-one-connection-held.md): on PGlite a transaction holds the
 * process's only connection, so a statement on the outer handle issued from inside its closure used to
 * wait for the transaction that waited for it — that request and every later one. It now throws at
 * once, naming the caller; statements of other requests still wait their turn.
 */
const pglite = !process.env.DATABASE_URL;

let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()), 120_000);
afterAll(() => close());

/** `work`, or a rejection saying it still waits after `ms` (a hang fails the test instead of stalling it). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ainda esperando depois de ${ms} ms`)), ms);
  });
  return Promise.race([work, stalled]).finally(() => clearTimeout(timer));
}

const count = async (handle: DB) =>
  Number(
    (
      await handle
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.runIf(pglite)('a statement on the outer handle inside a transaction (PGlite)', () => {
  it('throws at once, naming the caller and where the transaction was opened, and the database keeps answering', async () => {
    async function readsTheOuterHandle() {
      return db.transaction().execute(async (trx) => {
        await count(trx);
        return count(db);
      });
    }
    const error = (await within(2_000, readsTheOuterHandle()).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('OuterHandleInTransaction');
    expect(error.message).toMatch(/única conexão do PGlite/);
    expect(error.message).toMatch(/Chamado em .*one-connection\.test\.ts/);
    expect(error.message).toMatch(/transação aberta em readsTheOuterHandle .*one-connection\.test\.ts/);
    // The transaction was rolled back and the connection is free: the next request is answered.
    expect(await within(2_000, count(db))).toBeGreaterThan(0);
  });

  it('refuses a second transaction on the outer handle, and a raw statement, from inside one', async () => {
    const nested = db.transaction().execute(async () => db.transaction().execute(async (inner) => count(inner)));
    await expect(within(2_000, nested)).rejects.toMatchObject({ name: 'OuterHandleInTransaction' });
    const raw = db.transaction().execute(async () => sql`select 1`.execute(db));
    await expect(within(2_000, raw)).rejects.toMatchObject({ name: 'OuterHandleInTransaction' });
  });

  it('reading the offers through the outer handle inside a transaction, the catalog cold or cached: the hang of issue 42 ("Renovar" before d87bcf3), now an error', async () => {
    const now = new Date();
    const user = (await viewerByEmail(db, 'parceiro@parceiro.demo')).user as V2SessionUser;
    async function offerOnTheOuterHandle() {
      return db.transaction().execute(async (trx) => {
        await count(trx);
        return sellableOffers(db, user, now);
      });
    }
    announce(db, OFFERS_CHANGED); // the catalog is cold, as 30 s after the last page that read it
    await expect(within(2_000, offerOnTheOuterHandle())).rejects.toMatchObject({ name: 'OuterHandleInTransaction' });
    // Cached, the same call would answer today and hang the day it misses: refused all the same.
    await sellableOffers(db, user, now);
    await expect(within(2_000, offerOnTheOuterHandle())).rejects.toThrow(/Leitura do cache principal-facts/);
    // Through the transaction's executor, as the renewal does now, it answers.
    const offers = await within(
      5_000,
      db.transaction().execute((trx) => sellableOffers(trx, user, now)),
    );
    expect(offers.length).toBeGreaterThan(0);
  });
});

describe('statements of other requests while a transaction holds the connection', () => {
  it('wait their turn and are answered once it commits (on PGlite they see what it wrote)', async () => {
    const before = await count(db);
    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let began!: () => void;
    const begun = new Promise<void>((resolve) => {
      began = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ nome: 'Turno', email: 'turno@exemplo.com.br', status: 'ATIVO', generation: 'v2' } as never)
        .execute();
      began();
      await held;
    });
    await begun;
    // Five other requests, started outside the transaction's closure, while it holds the connection.
    const others = Promise.all([1, 2, 3, 4, 5].map(() => count(db)));
    let answered = false;
    void others.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (pglite) expect(answered).toBe(false); // still waiting: nothing was refused
    commit();
    await transaction;
    const counts = await within(5_000, others);
    if (pglite) expect(counts).toEqual([before + 1, before + 1, before + 1, before + 1, before + 1]);
    await db.deleteFrom('users').where('email', '=', 'turno@exemplo.com.br').execute();
  });

  it('60 transactions and reads at once, none refused', async () => {
    const results = await within(
      20_000,
      Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? db.transaction().execute((trx) => count(trx)) : count(db)))),
    );
    expect(results.every((n) => n > 0)).toBe(true);
  });
});
