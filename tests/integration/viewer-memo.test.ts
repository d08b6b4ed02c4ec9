import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { changesSettled, type DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { useManualClock } from '../../src/server/clock';
import {
  createSession,
  resolveSession,
  revokeTokens,
  revokeUserSessions,
  SESSION_IDLE_MS,
} from '../../src/server/services/identity/sessions';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { keep, lookup, ticketOf, type MemoAnswer } from '../../src/server/boot/viewer-memo';
import { LIVE_REFRESH_HEADER } from '../../src/lib/worklist-notices';
import { TOKEN_COOKIES } from '../../src/lib/session';

/**
 * Issue 12: a signed-in answer that depends only on who asks is kept per session and answered from
 * memory (src/server/boot/viewer-memo.ts, docs/decisions/044-viewer-memo.md) — and never after a sign-out,
 * a deactivation, a permission or offer change, an idle or absolute expiry, or when the session is
 * due to be touched. Here the memo is driven as the server script drives it: a ticket when the
 * request comes, the pipeline's work (the session resolved), the answer kept, the next one looked up.
 */
let db: DB;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
});
afterAll(() => close());

const settled = () => changesSettled(db);

interface Browser {
  cookies: Record<string, string>;
}

/** A Node-like request of the partner's browser. */
function request(browser: Browser, { url = '/v2/home', method = 'GET', headers = {} as Record<string, string> } = {}) {
  const cookie = Object.entries(browser.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  return { method, url, headers: { host: 'portal.test', cookie, ...headers }, socket: { remoteAddress: '127.0.0.1' } };
}

/** What the pipeline does before the page renders: the session resolved (read, judged, touched). */
const resolve = (browser: Browser) => resolvePortalSession(db, (name) => browser.cookies[name]);

async function signedIn(email = 'parceiro@parceiro.demo') {
  const user = (await findUserByEmail(db, email))!;
  const v2 = await createSession(db, user.id, 'v2');
  const simulator = await createSession(db, user.id, 'simulador', v2);
  await settled();
  const browser: Browser = { cookies: { [TOKEN_COOKIES.v2]: v2.token, [TOKEN_COOKIES.simulador]: simulator.token } };
  return { user, v2, simulator, browser };
}

const answer = (text: string): MemoAnswer => ({ headers: { 'content-type': 'text/html' }, bodies: { identity: Buffer.from(text) } });

/** The pipeline renders the request of `browser` and the memo keeps it; returns the ticket. */
async function rendered(browser: Browser, text: string, options?: Parameters<typeof request>[1]) {
  const ticket = ticketOf(request(browser, options), db)!;
  expect(ticket).toBeDefined();
  await resolve(browser);
  keep(ticket, answer(text), db);
  return ticket;
}

/** What the memo answers the next such request, as text (undefined: it goes the whole way). */
const fromMemory = (browser: Browser, options?: Parameters<typeof request>[1]) => {
  const ticket = ticketOf(request(browser, options), db);
  const kept = ticket && lookup(ticket, db);
  return kept ? kept.bodies.identity!.toString() : undefined;
};

describe('the viewer memo keeps what depends on who asks', () => {
  it('answers the same request of the same session from memory, and nobody else', async () => {
    const { browser } = await signedIn();
    await rendered(browser, 'início da Eduarda');
    expect(fromMemory(browser)).toBe('início da Eduarda');
    // Another address, another acting company, another session: each renders for itself.
    expect(fromMemory(browser, { url: '/v2/home?x=1' })).toBeUndefined();
    expect(fromMemory(browser, { headers: { empresa: '11222333000181' } })).toBeUndefined();
    const other = await signedIn();
    expect(fromMemory(other.browser)).toBeUndefined();
    // The same session without its simulator token is another viewer (not fully authenticated).
    expect(fromMemory({ cookies: { [TOKEN_COOKIES.v2]: browser.cookies[TOKEN_COOKIES.v2]! } })).toBeUndefined();
    // A made-up token next to a real one never reaches the kept answer.
    expect(fromMemory({ cookies: { ...browser.cookies, [TOKEN_COOKIES.v1]: 'inventado' } })).toBeUndefined();
  });

  it('takes no part in requests it cannot key safely', async () => {
    const { browser } = await signedIn();
    const twice = { ...request(browser), headers: { cookie: `${request(browser).headers.cookie}; ${TOKEN_COOKIES.v2}=outro` } };
    expect(ticketOf(twice, db)).toBeUndefined();
    expect(ticketOf(request(browser, { method: 'POST' }), db)).toBeUndefined();
    expect(ticketOf(request(browser, { headers: { authtoken: browser.cookies[TOKEN_COOKIES.v2]! } }), db)).toBeUndefined();
    expect(ticketOf(request({ cookies: {} }), db)).toBeUndefined();
    expect(ticketOf(request(browser), undefined)).toBeUndefined(); // the database not open yet
    expect(ticketOf(request(browser, { url: '/_astro/PortalShell.js' }), db)).toBeUndefined();
    expect(ticketOf(request(browser, { method: 'HEAD' }), db)).toBeDefined();
    // The live worklist's client asks for the page again after a notice the memo ignores (issue 31).
    expect(ticketOf(request(browser, { headers: { [LIVE_REFRESH_HEADER]: '1' } }), db)).toBeUndefined();
  });

  it('keeps the BFF user call, judged on the v2 session alone, beside the simulator token it never reads (issue 42, item 14)', async () => {
    const { browser, v2 } = await signedIn();
    const url = '/api/bff/v1/usuario';
    // As the router does for `auth: ['v2']`: only the v2 session is read, judged and held in memory.
    const ticket = ticketOf(request(browser, { url }), db)!;
    await resolveSession(db, v2.token, ['v2']);
    // Judged on every session asked with, it waited for a simulator session nobody reads: never kept.
    keep(ticket, answer('{"atributos":"todas"}'), db, '1');
    expect(fromMemory(browser, { url })).toBeUndefined();
    keep(ticket, answer('{"atributos":"v2"}'), db, 'v2');
    expect(fromMemory(browser, { url })).toBe('{"atributos":"v2"}');
    // A kind no session of the request has is nothing to judge on: not kept.
    const other = await signedIn();
    const otherTicket = ticketOf(request(other.browser, { url }), db)!;
    await resolveSession(db, other.v2.token, ['v2']);
    keep(otherTicket, answer('{"atributos":"v1"}'), db, 'v1');
    expect(fromMemory(other.browser, { url })).toBeUndefined();
    // The v2 session ended: the answer goes the whole way again.
    await revokeTokens(db, [v2.token]);
    expect(fromMemory(browser, { url })).toBeUndefined();
  });

  it('forgets a session at its sign-out', async () => {
    const { browser, v2 } = await signedIn();
    await rendered(browser, 'antes de sair');
    await revokeTokens(db, [v2.token]);
    expect(fromMemory(browser)).toBeUndefined();
  });

  it('forgets a user deactivated by anyone — here plain SQL — as soon as the notice is heard', async () => {
    const { browser, user } = await signedIn();
    await rendered(browser, 'antes de desativar');
    await sql`update users set status = 'INATIVO' where id = ${user.id}`.execute(db);
    await settled();
    try {
      expect(fromMemory(browser)).toBeUndefined();
    } finally {
      await sql`update users set status = 'ATIVO' where id = ${user.id}`.execute(db);
      await settled();
    }
  });

  it('forgets what a permission, company or offer change may alter, and keeps what another user’s change cannot', async () => {
    const { browser, user } = await signedIn();
    await rendered(browser, 'antes');
    // Another user's sessions ended: nothing of this viewer changed.
    const seller = (await findUserByEmail(db, 'vendedor@legado.demo'))!;
    await revokeUserSessions(db, seller.id, 'encerrada-admin');
    await settled();
    expect(fromMemory(browser)).toBe('antes');

    await db.insertInto('user_operations').values({ user_id: user.id, operation: 'OPERACAO_DE_TESTE_MEMO' }).execute();
    await settled();
    expect(fromMemory(browser)).toBeUndefined();
    await db.deleteFrom('user_operations').where('operation', '=', 'OPERACAO_DE_TESTE_MEMO').execute();
    await settled();

    await rendered(browser, 'depois da operação');
    await sql`update group_permissions set permite_alteracao = permite_alteracao`.execute(db);
    await settled();
    expect(fromMemory(browser)).toBeUndefined();

    await rendered(browser, 'depois do grupo');
    await sql`update offers set ativo = ativo where id = (select min(id) from offers)`.execute(db);
    await settled();
    expect(fromMemory(browser)).toBeUndefined();
  });

  it('keeps nothing rendered while a change was heard: the page may predate it', async () => {
    const { browser, user } = await signedIn();
    const ticket = ticketOf(request(browser), db)!;
    await resolve(browser);
    await db.insertInto('user_operations').values({ user_id: user.id, operation: 'OPERACAO_DURANTE' }).execute();
    await settled();
    keep(ticket, answer('renderizado antes da mudança'), db);
    await db.deleteFrom('user_operations').where('operation', '=', 'OPERACAO_DURANTE').execute();
    await settled();
    expect(fromMemory(browser)).toBeUndefined();
  });
});

describe('the viewer memo and the session’s clock', () => {
  let clock: ReturnType<typeof useManualClock> | undefined;
  afterEach(() => clock?.restore());

  it('sends the request the whole way once the session is due to be touched, then keeps the new answer', async () => {
    clock = useManualClock();
    const { browser } = await signedIn(); // last seen now
    clock.advance(45_000);
    await rendered(browser, 'primeiro minuto');
    clock.advance(10_000);
    expect(fromMemory(browser)).toBe('primeiro minuto');
    clock.advance(10_000); // last_seen_at is written at most once a minute: 65 s after, it is due
    expect(fromMemory(browser)).toBeUndefined();
    await rendered(browser, 'segundo minuto'); // the pipeline touched it
    expect(fromMemory(browser)).toBe('segundo minuto');
  });

  it('never answers for a session gone idle or past its expiry', async () => {
    clock = useManualClock();
    const { browser } = await signedIn();
    await rendered(browser, 'acordado');
    clock.advance(SESSION_IDLE_MS + 1_000);
    expect(fromMemory(browser)).toBeUndefined();
    expect((await resolve(browser)).session.v2).toBeUndefined();
  });

  it('keys the answer by the Brasília day (offers are those in force today)', async () => {
    clock = useManualClock(Date.parse('2026-11-24T23:59:50-03:00'));
    const { browser } = await signedIn();
    await rendered(browser, 'terça');
    clock.advance(5_000);
    expect(fromMemory(browser)).toBe('terça');
    clock.advance(10_000); // 00:00:05 of Wednesday: nothing else is due yet
    expect(fromMemory(browser)).toBeUndefined();
    await rendered(browser, 'quarta');
    expect(fromMemory(browser)).toBe('quarta');
  });
});
