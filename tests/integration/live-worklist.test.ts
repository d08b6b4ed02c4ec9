import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/server/api';
import { openStreams, resumeLiveStreams, stopLiveStreams } from '../../src/server/api/live-worklist';
import { changesOf, changesSettled, type DB } from '../../src/server/db';
import { useManualClock } from '../../src/server/clock';
import { cacheOf } from '../../src/server/cache';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { resolveSession, SESSION_IDLE_MS } from '../../src/server/services/identity/sessions';
import { decideProposal } from '../../src/server/services/after-sale/acceptance';
import { worklistNewCount } from '../../src/server/services/reporting/worklist';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { HOUSE, sellResidential, viewerByEmail } from '../fixtures/selling';

/**
 * Issue 31, the live worklist: GET /api/{plataforma,bff}/v1/pendencias/eventos streams `{ novos }`
 * when it opens and when a change of the viewer's records is heard — and nothing for a change of
 * someone else's; 401 without a session, the oldest of a user's streams ended past the per-user cap, ended on sign-out and on
 * shutdown. Through the real router and database (PGlite or PostgreSQL).
 */
process.env.LIVE_MAX_PER_USER = '2';
process.env.LIVE_HEARTBEAT_SECONDS = '1';

const PARTNER = 'parceiro@parceiro.demo';
const LEGACY_SELLER = 'vendedor@legado.demo';
const BFF = '/api/bff/v1/pendencias/eventos';
const PLATAFORMA = '/api/plataforma/v1/pendencias/eventos';

let db: DB;
let close: () => Promise<void>;
let as: ReturnType<typeof demoTokens>;
let adminId: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  as = demoTokens(apiClient(db));
  adminId = (await findUserByEmail(db, 'admin@seguradora.demo'))!.id;
}, 120_000);
afterAll(async () => {
  stopLiveStreams();
  resumeLiveStreams();
  await close();
});

/** A stream opened through the router, read event by event. */
async function open(path: string, headers: Record<string, string>) {
  await changesSettled(db);
  const abort = new AbortController();
  const response = await api.handle(new Request(`http://portal.test${path}`, { headers, signal: abort.signal }), {
    ip: '10.0.0.1',
    db: async () => db,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const events: unknown[] = [];
  const comments: string[] = [];
  const named: string[] = [];
  const pump = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) {
        done = true;
        return;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)));
          if (line.startsWith(':')) comments.push(line);
          if (line.startsWith('event: ')) named.push(line.slice(7));
        }
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  return {
    response,
    events,
    comments,
    named,
    get done() {
      return done;
    },
    /** Waits for the n-th event (1-based) or fails after `ms`. */
    async event(n: number, ms = 4_000) {
      const until = Date.now() + ms;
      while (events.length < n && Date.now() < until && !done) await new Promise((r) => setTimeout(r, 20));
      if (events.length < n) throw new Error(`no event ${n} within ${ms} ms (got ${JSON.stringify(events)})`);
      return events[n - 1];
    },
    async ended(ms = 4_000) {
      const until = Date.now() + ms;
      while (!done && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return done;
    },
    async close() {
      abort.abort();
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('the live worklist stream', () => {
  it('refuses a request without a session (401, JSON) before anything else', async () => {
    const response = await api.handle(new Request(`http://portal.test${BFF}`), { ip: '10.0.0.1', db: async () => db });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/json');
    // A legacy token is no v2 session, and the other way round.
    const legacy = await api.handle(new Request(`http://portal.test${BFF}`, { headers: await as(LEGACY_SELLER) }), {
      ip: '10.0.0.1',
      db: async () => db,
    });
    expect(legacy.status).toBe(401);
  });

  it('answers an event stream nobody buffers or compresses, with the count at once', async () => {
    const stream = await open(BFF, await as(PARTNER));
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('cache-control')).toContain('no-transform');
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
      const novos = await worklistNewCount(db, await viewerByEmail(db, PARTNER));
      expect(await stream.event(1)).toEqual({ novos });
    } finally {
      await stream.close();
    }
  });

  it('tells the partner when the underwriter asks for documents, and stays quiet for others’ changes', async () => {
    // Referred for analysis (mixed construction), sold before the stream opens.
    const { nrProposta } = await sellResidential(db, { respostas: { ...HOUSE, construcao: 'mista' } });
    const stream = await open(BFF, await as(PARTNER));
    try {
      const first = (await stream.event(1)) as { novos: number };
      await sleep(1_100); // past the coalescing second, so a stray event would show
      // Another user's report and the staff's refunds queue: not the partner's.
      const other = (await findUserByEmail(db, LEGACY_SELLER))!.id;
      await sql`insert into sales_reports (user_id, generation, pedido, filtro) values (${other}, 'v1', '{}'::jsonb, '{}'::jsonb)`.execute(
        db,
      );
      await sql`update refunds set status = case status when 'PAGA' then 'DEVIDA' else 'PAGA' end where id = (select min(id) from refunds)`.execute(
        db,
      );
      await changesSettled(db);
      await sleep(1_500);
      expect(stream.events).toHaveLength(1);
      await decideProposal(
        db,
        adminId,
        nrProposta,
        { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Envie a matrícula do imóvel, por favor.' },
        new Date(),
      );
      expect(await stream.event(2)).toEqual({ novos: first.novos + 1 });
    } finally {
      await stream.close();
    }
  });

  it('counts at most once a second however many notices come', async () => {
    const stream = await open(BFF, await as(PARTNER));
    try {
      await stream.event(1);
      const me = (await findUserByEmail(db, PARTNER))!.id;
      for (let i = 0; i < 20; i++)
        await sql`insert into sales_reports (user_id, generation, pedido, filtro) values (${me}, 'v2', '{}'::jsonb, '{}'::jsonb)`.execute(
          db,
        );
      await sleep(1_500);
      // The first notice counts at once (or after the first count's second); the rest are one more.
      expect(stream.events.length).toBeGreaterThanOrEqual(2);
      expect(stream.events.length).toBeLessThanOrEqual(3);
    } finally {
      await stream.close();
    }
  });

  it('serves the legacy generation on the platform API', async () => {
    const stream = await open(PLATAFORMA, await as(LEGACY_SELLER));
    try {
      expect(stream.response.status).toBe(200);
      expect(await stream.event(1)).toEqual({ novos: expect.any(Number) });
    } finally {
      await stream.close();
    }
  });

  it('caps the streams of one user: past the cap the oldest gives way to the newest page, and a closed one frees its place', async () => {
    const headers = await as(PARTNER);
    const before = openStreams();
    const one = await open(BFF, headers);
    const two = await open(BFF, headers);
    try {
      expect(openStreams()).toBe(before + 2);
      // A third page of the same user (the cap is 2 here): it is served, and the oldest stream ends.
      const three = await open(BFF, headers);
      expect(three.response.status).toBe(200);
      expect(await three.event(1)).toEqual({ novos: expect.any(Number) });
      expect(await one.ended()).toBe(true);
      // Told why, so its page does not take the place back (the client stays closed).
      expect(one.named).toEqual(['substituida']);
      expect(two.done).toBe(false);
      expect(two.named).toEqual([]);
      expect(openStreams()).toBe(before + 2);
      await three.close();
      expect(openStreams()).toBe(before + 1);
    } finally {
      await one.close();
      await two.close();
    }
    expect(openStreams()).toBe(before);
  });

  it('ends when the session is signed out, and every stream at a shutdown', async () => {
    const call = apiClient(db);
    const login = await call('POST', '/api/gateway/login', { body: { userName: PARTNER, password: 'Portal@2026' } });
    const token = login.json.token as string;
    const stream = await open(BFF, { authtoken: token });
    await stream.event(1);
    await call('POST', '/api/auth/v1/logout', { headers: { authtoken: token } });
    expect(await stream.ended()).toBe(true);

    const other = await open(PLATAFORMA, await as(LEGACY_SELLER));
    await other.event(1);
    stopLiveStreams();
    try {
      expect(await other.ended()).toBe(true);
      const refused = await api.handle(new Request(`http://portal.test${PLATAFORMA}`, { headers: await as(LEGACY_SELLER) }), {
        ip: '10.0.0.1',
        db: async () => db,
      });
      expect(refused.status).toBe(503);
    } finally {
      resumeLiveStreams();
    }
  });

  it('sends a heartbeat comment, and ends at the heartbeat once the session went idle — an open tab keeps nobody signed in', async () => {
    const call = apiClient(db);
    const login = await call('POST', '/api/gateway/login', { body: { userName: PARTNER, password: 'Portal@2026' } });
    const stream = await open(BFF, { authtoken: login.json.token as string });
    const clock = useManualClock();
    try {
      await stream.event(1);
      await sleep(1_300);
      expect(stream.comments).toContain(': ping');
      expect(stream.done).toBe(false);
      // Heartbeats while the tab sits there do not count as the user's activity (a touch would renew it)…
      clock.advance(SESSION_IDLE_MS * 0.6);
      await sleep(1_300);
      expect(stream.done).toBe(false);
      // …so past the idle limit since the last page, the next heartbeat ends the stream.
      clock.advance(SESSION_IDLE_MS * 0.6);
      expect(await stream.ended(3_000)).toBe(true);
    } finally {
      clock.restore();
      await stream.close();
    }
  });

  it('counts again when the change feed comes back after a drop (notices may have been lost meanwhile)', async () => {
    const stream = await open(BFF, await as(PARTNER));
    try {
      await stream.event(1);
      await sleep(1_100);
      const feed = changesOf(db) as unknown as { setLive(live: boolean): void };
      feed.setLive(false);
      feed.setLive(true);
      expect(await stream.event(2)).toEqual({ novos: expect.any(Number) });
    } finally {
      await stream.close();
    }
  });

  it('a sale’s notice leaves the session cache alone (an unknown payload would empty it)', async () => {
    const headers = await as(PARTNER);
    await resolveSession(db, headers.authtoken!, ['v2']);
    const sessions = cacheOf(db, { name: 'sessions' } as never)!;
    const held = sessions.size;
    const version = sessions.version();
    expect(held).toBeGreaterThan(0);
    await sellResidential(db); // a whole sale: quote, proposal, policy, installments
    await changesSettled(db);
    expect(sessions.size).toBe(held);
    expect(sessions.version()).toBe(version);
  });
});
