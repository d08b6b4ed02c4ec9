import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { changesSettled, type DB } from '../../src/server/db';
import { openDatabase } from '../../src/server/boot/database';
import { freshDatabase } from '../fixtures/db';
import { useManualClock } from '../../src/server/clock';
import {
  createSession,
  revokeTokens,
  revokeUserSessions,
  resolveSession,
  SESSION_IDLE_MS,
} from '../../src/server/services/identity/sessions';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { TOKEN_COOKIES } from '../../src/lib/session';

/**
 * Issue 12: a signed-in request resolves its session and principal from memory, and the memory
 * never outlives a revocation, a deactivation, a permission change or an expiry (server/cache.ts,
 * docs/decisions/031-request-cost.md). Statements are counted through the database's query hook.
 */
let db: DB;
let close: () => Promise<void>;
let url: string | undefined;
let statements: string[] = [];

beforeAll(async () => {
  ({ db, close, url } = await freshDatabase({ onQuery: (text) => statements.push(text) }));
});
afterAll(() => close());

/** The statements `work` ran. */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  statements = [];
  const result = await work();
  return { result, statements: [...statements] };
}

/** On PostgreSQL the database's notices come back a moment after the write; PGlite hears them before it returns. */
const settled = () => changesSettled(db);

async function signedInPartner() {
  const user = (await findUserByEmail(db, 'parceiro@parceiro.demo'))!;
  const v2 = await createSession(db, user.id, 'v2');
  const simulator = await createSession(db, user.id, 'simulador', v2);
  const cookies: Record<string, string> = { [TOKEN_COOKIES.v2]: v2.token, [TOKEN_COOKIES.simulador]: simulator.token };
  await settled();
  return { user, v2, simulator, page: () => resolvePortalSession(db, (name) => cookies[name]) };
}

describe('a signed-in request from memory', () => {
  it('resolves the session, principal and home offers once; the next request runs no statement', async () => {
    const { page } = await signedInPartner();
    const first = await counted(async () => {
      const { session } = await page();
      return sellableOffers(db, session.v2!);
    });
    // One statement per token, each with the user and the principal facts (the seed, which sells
    // through the services, may have read the offer catalog already).
    expect(first.statements.filter((text) => !text.includes('"offers" as "o"'))).toEqual([
      expect.stringContaining('from "sessions" as "s"'),
      expect.stringContaining('from "sessions" as "s"'),
    ]);
    const again = await counted(async () => {
      const { session, expired } = await page();
      return { session, expired, offers: await sellableOffers(db, session.v2!) };
    });
    expect(again.statements).toEqual([]);
    expect(again.result.expired).toEqual([]);
    expect(again.result.session.v2).toMatchObject({ email: 'parceiro@parceiro.demo', fullyAuthenticated: true });
    expect(again.result.offers).toEqual(first.result);
  });

  it('forgets a signed-out session at once', async () => {
    const { v2, simulator, page } = await signedInPartner();
    await page();
    await revokeTokens(db, [v2.token, simulator.token]);
    const { session, expired } = await page();
    expect(session.v2).toBeUndefined();
    expect(expired).toEqual([TOKEN_COOKIES.v2, TOKEN_COOKIES.simulador]);
  });

  it('forgets every session of a user whose password changed, but the one kept', async () => {
    const { user, v2, page } = await signedInPartner();
    const other = await createSession(db, user.id, 'v2');
    await page();
    await resolveSession(db, other.token, ['v2']);
    await revokeUserSessions(db, user.id, 'senha-alterada', v2.id);
    expect(await resolveSession(db, other.token, ['v2'])).toEqual({ ok: false, reason: 'invalid', ended: 'senha-alterada' });
    expect((await page()).session.v2?.idUsuario).toBe(user.id);
  });

  it('a deactivation written by anyone — here plain SQL — ends the session as soon as its notice is heard', async () => {
    const { user, page } = await signedInPartner();
    await page();
    await sql`update users set status = 'INATIVO' where id = ${user.id}`.execute(db);
    await settled();
    try {
      const { session, expired } = await page();
      expect(session.v2).toBeUndefined();
      expect(expired).toContain(TOKEN_COOKIES.v2);
    } finally {
      await sql`update users set status = 'ATIVO' where id = ${user.id}`.execute(db);
    }
  });

  it('a permission change shows as soon as its notice is heard (operations, companies)', async () => {
    const { user, page } = await signedInPartner();
    const before = (await page()).session.v2!;
    expect(before.cdOperacoes).not.toContain('OPERACAO_NOVA_DE_TESTE');
    await db.insertInto('user_operations').values({ user_id: user.id, operation: 'OPERACAO_NOVA_DE_TESTE' }).execute();
    await settled();
    try {
      expect((await page()).session.v2!.cdOperacoes).toContain('OPERACAO_NOVA_DE_TESTE');
      // A company renamed changes every principal that names it.
      const [company] = before.empresas;
      await db.updateTable('companies').set({ razao_social: 'Razão Social Renomeada Ltda' }).where('cnpj', '=', company!.cdCnpj).execute();
      await settled();
      expect((await page()).session.v2!.empresas.map((e) => e.nmRazaoSocial)).toContain('Razão Social Renomeada Ltda');
      await db.updateTable('companies').set({ razao_social: company!.nmRazaoSocial }).where('cnpj', '=', company!.cdCnpj).execute();
    } finally {
      await db.deleteFrom('user_operations').where('user_id', '=', user.id).where('operation', '=', 'OPERACAO_NOVA_DE_TESTE').execute();
      await settled();
    }
    expect((await page()).session.v2!.cdOperacoes).not.toContain('OPERACAO_NOVA_DE_TESTE');
  });

  it('an offer ended by the admin leaves the home at the next request', async () => {
    const { page } = await signedInPartner();
    const offers = await sellableOffers(db, (await page()).session.v2!);
    const ended = offers[0]!;
    await db.updateTable('offers').set({ ativo: false }).where('id', '=', ended.nrOferta).execute();
    await settled();
    try {
      const now = await sellableOffers(db, (await page()).session.v2!);
      expect(now.map((o) => o.nrOferta)).not.toContain(ended.nrOferta);
    } finally {
      await db.updateTable('offers').set({ ativo: true }).where('id', '=', ended.nrOferta).execute();
    }
  });
});

describe('expiry with the session in memory', () => {
  let clock: ReturnType<typeof useManualClock> | undefined;
  afterEach(() => clock?.restore());

  it('an idle session expires although it is in memory, and its absolute end is kept', async () => {
    clock = useManualClock();
    const { v2, page } = await signedInPartner();
    await page();
    clock.advance(SESSION_IDLE_MS + 1_000);
    expect(await resolveSession(db, v2.token, ['v2'])).toEqual({ ok: false, reason: 'expired' });
  });

  it('memory that thinks a session idle asks the database, which another instance kept awake', async () => {
    clock = useManualClock();
    const { v2 } = await signedInPartner();
    await resolveSession(db, v2.token, ['v2']);
    clock.advance(SESSION_IDLE_MS + 1_000);
    // Another instance saw the session a moment ago: only the database knows.
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() + SESSION_IDLE_MS) })
      .where('id', '=', v2.id)
      .execute();
    await settled(); // (a touch sends no notice: this only makes sure none is on its way)
    expect(await resolveSession(db, v2.token, ['v2'])).toMatchObject({ ok: true, id: v2.id });
  });

  it('writes last_seen_at at most once a minute, from memory too', async () => {
    clock = useManualClock();
    const { v2 } = await signedInPartner();
    await resolveSession(db, v2.token, ['v2']);
    const quiet = await counted(() => resolveSession(db, v2.token, ['v2']));
    expect(quiet.statements).toEqual([]);
    clock.advance(20_000);
    expect((await counted(() => resolveSession(db, v2.token, ['v2']))).statements).toEqual([]);
    // Past its 30 s in memory the session is read again, and past a minute it is touched.
    clock.advance(41_000);
    const touched = await counted(() => resolveSession(db, v2.token, ['v2']));
    expect(touched.statements).toEqual([expect.stringMatching(/^select/), expect.stringMatching(/^update "sessions" set "last_seen_at"/)]);
  });
});

// Two instances over one PostgreSQL: what one revokes, the other stops serving within the time the
// notice takes — and while its listener is down, it asks the database every time.
describe.skipIf(!process.env.DATABASE_URL)('another instance over the same PostgreSQL', () => {
  let other: DB;
  beforeAll(async () => {
    other = await openDatabase({ databaseUrl: url!, seed: false });
  });
  afterAll(() => other.destroy());

  const untilInvalid = async (token: string) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const resolved = await resolveSession(other, token, ['v2']);
      if (!resolved.ok || Date.now() > deadline) return { resolved, late: Date.now() > deadline };
      await new Promise((done) => setTimeout(done, 20));
    }
  };

  it('stops serving a session revoked elsewhere within a second', async () => {
    const { v2 } = await signedInPartner();
    expect(await resolveSession(other, v2.token, ['v2'])).toMatchObject({ ok: true });
    const started = Date.now();
    await revokeTokens(db, [v2.token]);
    const { resolved, late } = await untilInvalid(v2.token);
    expect(late).toBe(false);
    expect(resolved).toEqual({ ok: false, reason: 'invalid' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('while its listener connection is down, reads the database at every request', async () => {
    const { v2 } = await signedInPartner();
    expect(await resolveSession(other, v2.token, ['v2'])).toMatchObject({ ok: true });
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where query ilike 'listen%' and datname = current_database()`.execute(db);
    await revokeTokens(db, [v2.token]);
    // However the race between the drop and the revocation goes, the revoked session is not served.
    const { resolved, late } = await untilInvalid(v2.token);
    expect(late).toBe(false);
    expect(resolved).toEqual({ ok: false, reason: 'invalid' });
  });
});
