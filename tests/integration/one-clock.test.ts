import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD } from '../fixtures/api';
import { HOUSE, sellResidential } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { createQuote } from '../../src/server/services/selling/quotes';
import { sellableOffers } from '../../src/server/services/network/offers';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { now, realNow } from '../../src/server/clock';
import { currentCharge } from '../../src/server/services/after-sale/charges';
import { requestReport, listReports, generateReports } from '../../src/server/services/reporting/sales-reports';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { scopeFor } from '../../src/server/services/identity/scope';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localStore } from '../../src/server/files';

/**
 * Issue 27 item 15: one clock everywhere. With CLOCK_OFFSET_DAYS the server lives 30 days ahead: the
 * instants it writes (a report's "Pedido em", sessions, codes, e-mails, charges, payments, links…)
 * come from server/clock.ts, never from the database's own now() or the machine's Date; and the
 * bank's confirmation, signed with the bank's real clock, is compared with the real clock (decision 059).
 */
const SECRET = vi.hoisted(() => {
  process.env.CLOCK_OFFSET_DAYS = '30';
  process.env.PORTAL_ENV = 'TEST';
  const secret = 'segredo-do-relogio-com-mais-de-trinta-e-dois-caracteres';
  process.env.PAYMENTS_WEBHOOK_SECRET = secret;
  return secret;
});
const DAY = 86_400_000;

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
/** Each table's last id before the test wrote anything: what the test wrote is above it. */
let before: Map<string, number>;
let tables: string[];

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  const { rows } = await sql<{ table_name: string }>`
    select c.table_name from information_schema.columns c
    join information_schema.columns i on i.table_name = c.table_name and i.table_schema = c.table_schema and i.column_name = 'id'
    where c.table_schema = current_schema() and c.column_name = 'created_at'
    order by 1`.execute(db);
  tables = rows.map((r) => r.table_name);
  before = new Map();
  for (const table of tables) {
    const { rows: max } = await sql<{ max: number | null }>`select max(id)::int as max from ${sql.table(table)}`.execute(db);
    before.set(table, max[0]?.max ?? 0);
  }
});
afterAll(async () => {
  await close();
  vi.unstubAllEnvs();
});

function confirm(body: unknown, at: number) {
  const raw = JSON.stringify(body);
  const signature = createHmac('sha256', SECRET).update(`${at}.${raw}`).digest('hex');
  return call('POST', '/api/pagamentos/v1/confirmacoes', {
    rawBody: raw,
    headers: { 'x-pagamento-timestamp': String(at), 'x-pagamento-assinatura': `sha256=${signature}` },
  });
}

describe('the clock set 30 days ahead', () => {
  it('is the server’s now(); realNow() is the machine’s', () => {
    expect(now().getTime() - realNow().getTime()).toBeGreaterThanOrEqual(30 * DAY - 1000);
    expect(Math.abs(realNow().getTime() - Date.now())).toBeLessThan(1000);
  });

  it('a sales report is "Pedido em" the server’s day, and made at it', async () => {
    const user = await findUserByEmail(db, 'admin@seguradora.demo');
    const requester = { userId: user!.id, generation: 'v2' as const, seesAll: true };
    const today = now().toISOString().slice(0, 10);
    const stored = await requestReport(
      db,
      requester,
      { kind: 'all' },
      { companies: [], pointsOfSale: [], sellers: [] },
      { de: today, ate: today, tipo: 'apolices', produtos: [], formato: 'csv' },
    );
    expect(stored.ok).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'relogio-'));
    try {
      await generateReports(db, localStore(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const [report] = (await listReports(db, requester, 1)).content;
    expect(Math.abs(new Date(report!.requestedAt).getTime() - now().getTime())).toBeLessThan(60_000);
    expect(Math.abs(new Date(report!.finishedAt!).getTime() - now().getTime())).toBeLessThan(60_000);
  });

  it('the bank’s confirmation signed with the real time is taken; one signed with the server’s offset time is stale', async () => {
    const { nrApolice } = await sellResidential(db, { at: now() });
    const user = await loadV2User(db, (await findUserByEmail(db, 'admin@seguradora.demo'))!, { fullyAuthenticated: true });
    const charge = await currentCharge(db, await scopeFor(db, { generation: 'v2', user }, 'BOLETOS'), 'v2', nrApolice!, 1);
    const body = { id: 'relogio-1', codigo: charge.linhaDigitavel, valor: charge.total };
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    expect((await confirm(body, seconds(now()))).status).toBe(401);
    const taken = await confirm(body, seconds(realNow()));
    expect(taken, JSON.stringify(taken.json)).toMatchObject({ status: 200, json: { dado: { paid: true } } });
    const payment = await db
      .selectFrom('payments')
      .select(['pago_em', 'created_at'])
      .where('external_id', '=', 'banco:relogio-1')
      .executeTakeFirstOrThrow();
    expect(Math.abs(new Date(payment.pago_em).getTime() - now().getTime())).toBeLessThan(60_000);
  });

  it('a session cookie lives as long as its session, whatever the offset', async () => {
    const signedIn = await call('POST', '/api/gateway/login', {
      body: { userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD },
      headers: { 'x-portal-session': 'cookie' },
    });
    expect(signedIn.status).toBe(200);
    const session = await db.selectFrom('sessions').select(['expires_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const maxAge = Number(/max-age=(\d+)/i.exec(signedIn.headers.get('set-cookie') ?? '')?.[1]);
    expect(Math.abs(maxAge * 1000 - (new Date(session.expires_at).getTime() - now().getTime()))).toBeLessThan(60_000);
  });

  it('a quote’s insured is of age on the server’s day: 18 in 15 days of real time is 18 already', async () => {
    const user = await loadV2User(db, (await findUserByEmail(db, 'parceiro@parceiro.demo'))!, { fullyAuthenticated: true });
    const offer = (await sellableOffers(db, user, now())).find((o) => o.code === 'RES')!;
    const born = new Date(realNow().getTime() + 15 * DAY);
    born.setUTCFullYear(born.getUTCFullYear() - 18);
    const segurado = { ...DEMO_INSURED.residencial, dataNascimento: born.toISOString().slice(0, 10) };
    const quote = await createQuote(db, await sellerFromV2(db, user), offer, { segurado, respostas: HOUSE });
    expect(quote.nrCotacao).toMatch(/^\d+$/);
  });

  it('a reset code and its e-mail are written at the server’s time', async () => {
    expect((await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'vendedor@legado.demo' } })).status).toBe(200);
  });

  it('nothing the server wrote in this file carries the database’s or the machine’s own clock', async () => {
    const written: string[] = [];
    const stale: string[] = [];
    for (const table of tables) {
      const { rows } = await sql<{ id: number; created_at: Date }>`
        select id, created_at from ${sql.table(table)} where id > ${before.get(table)!}`.execute(db);
      if (rows.length > 0) written.push(table);
      for (const row of rows)
        if (new Date(row.created_at).getTime() < realNow().getTime() + 29 * DAY)
          stale.push(`${table} #${row.id}: ${new Date(row.created_at).toISOString()}`);
    }
    // The test did write where the issue saw the real clock: sessions, codes, e-mails, reports, charges, payments.
    expect(written).toEqual(
      expect.arrayContaining(['sessions', 'one_time_codes', 'emails', 'sales_reports', 'charges', 'payments', 'policy_links']),
    );
    expect(stale).toEqual([]);
  });
});
