import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { brasiliaDay } from '../../src/lib/format';
import { seedDemoHistory } from '../../src/server/demo/seed-history';

/**
 * The demo's year of sales (issue 15, server/demo/seed-history.ts): made through the real services, it
 * must give the metrics, rankings and statements real shapes — every month, several lines, sellers
 * and points of sale, payments, some cancellations with their refunds, no referral left waiting.
 */
let db: DB;
let close: () => Promise<void>;
let seconds: number;

beforeAll(async () => {
  const started = performance.now();
  ({ db, close } = await freshDatabase({ demoHistory: true }));
  seconds = (performance.now() - started) / 1000;
}, 180_000);
afterAll(() => close());

const month = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'America/Sao_Paulo', 'YYYY-MM')`;

describe('the demo history', () => {
  it('sells in each of the last 12 months, more in the second half', async () => {
    const rows = await db
      .selectFrom('policies')
      .select([month('emitida_em').as('mes'), sql<number>`count(*)::int`.as('n')])
      .groupBy('mes')
      .orderBy('mes')
      .execute();
    const today = brasiliaDay(new Date());
    const months = Array.from({ length: 12 }, (_, i) => {
      const d = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 12 + i, 15));
      return d.toISOString().slice(0, 7);
    });
    const byMonth = new Map(rows.map((r) => [r.mes, r.n]));
    for (const m of months.slice(0, 11)) expect(byMonth.get(m) ?? 0, m).toBeGreaterThan(2);
    const firstHalf = months.slice(0, 6).reduce((sum, m) => sum + (byMonth.get(m) ?? 0), 0);
    const secondHalf = months.slice(6, 11).reduce((sum, m) => sum + (byMonth.get(m) ?? 0), 0);
    expect(secondHalf).toBeGreaterThan(firstHalf * (5 / 6));
  });

  it('spreads over lines, sellers, every point of sale (Horizonte’s two and Vale Verde’s agency) and both generations', async () => {
    const spread = await db
      .selectFrom('quotes')
      .select([
        sql<number>`count(distinct simulator_code)::int`.as('lines'),
        sql<number>`count(distinct user_id)::int`.as('sellers'),
        sql<number>`count(distinct point_of_sale_id)::int`.as('points'),
        sql<number>`count(distinct generation)::int`.as('generations'),
        sql<number>`count(*)::int`.as('quotes'),
      ])
      .executeTakeFirstOrThrow();
    expect(spread).toMatchObject({ points: 3, generations: 2 });
    expect(spread.lines).toBeGreaterThanOrEqual(4);
    expect(spread.sellers).toBeGreaterThanOrEqual(5);
    expect(spread.quotes).toBeGreaterThan(120);
    // Quotes that never became proposals exist too: the funnel narrows.
    const proposals = await db.selectFrom('proposals').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(proposals.n).toBeLessThan(spread.quotes);
  });

  it('pays most installments that fell due, leaves a few overdue, and cancels some policies with refunds', async () => {
    const installments = await db
      .selectFrom('installments')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute();
    const count = (status: string) => installments.find((r) => r.status === status)?.n ?? 0;
    expect(count('PAGA')).toBeGreaterThan(100);
    const cancelled = await db
      .selectFrom('policies')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('status', '=', 'CANCELADA')
      .executeTakeFirstOrThrow();
    expect(cancelled.n).toBeGreaterThanOrEqual(3);
    const refunds = await db.selectFrom('refunds').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(refunds.n).toBeGreaterThanOrEqual(cancelled.n);
  });

  it('leaves no referral of the past waiting for the insurer', async () => {
    const waiting = await db
      .selectFrom('proposals')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('status', 'in', ['EM_ANALISE', 'AGUARDANDO_DOCUMENTOS'])
      .where('created_at', '<', new Date(Date.now() - 10 * 86_400_000))
      .executeTakeFirstOrThrow();
    // The demo's own life proposal waiting for documents (seed-policies.ts) is the only one.
    expect(waiting.n).toBeLessThanOrEqual(1);
  });

  it('takes seconds, not minutes', () => {
    expect(seconds).toBeLessThan(90);
  });
});

describe('the demo history, generated at any hour', () => {
  // The premiums move with the instant the year is generated (ages, due days, how many installments
  // fell due), so a fixed choice of installments was refused at some hours of some days: at 19h05 in
  // Brasília on 07/12/2026, four installments of a small premium fell below the minimum installment.
  it.each(['2026-12-07T22:05:00Z', '2026-12-08T03:00:00Z', '2027-06-20T15:30:00Z'])(
    'generates the year when run at %s',
    async (at) => {
      const fresh = await freshDatabase();
      try {
        await seedDemoHistory(fresh.db, new Date(at));
        const sold = await fresh.db.selectFrom('policies').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
        expect(sold.n).toBeGreaterThan(100);
      } finally {
        await fresh.close();
      }
    },
    120_000,
  );
});
