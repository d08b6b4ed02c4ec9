import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPages } from '../../scripts/shared-pages.mjs';
import { viewerMemo } from '../../scripts/viewer-memo.mjs';
import { rawRequest } from '../fixtures/raw-http';

/**
 * Issue 12: a page that says it is the same for every visitor without a session is rendered once
 * and then answered from memory (scripts/shared-pages.mjs), and so is a signed-in answer the viewer
 * memo may keep (scripts/viewer-memo.mjs; what it may keep and until when is the bundle's, tested in
 * viewer-memo.test.ts) — here in front of a stand-in for Astro that counts its renderings.
 */
let server: http.Server;
let base: string;
const rendered: string[] = [];

/** What the stand-in renders per path: status, headers (as Astro's adapter hands them to writeHead). */
const PAGES: Record<string, { status: number; headers: Record<string, string> }> = {
  '/termo-de-uso': { status: 200, headers: { 'x-portal-shared': '1', 'content-security-policy': "default-src 'self'" } },
  '/home': { status: 200, headers: {} },
  '/com-cookie': { status: 200, headers: { 'x-portal-shared': '1', 'set-cookie': 'tokenV2=; Max-Age=0' } },
  '/ausente': { status: 404, headers: { 'x-portal-shared': '1' } },
  '/v2/home': {
    status: 200,
    headers: { 'x-portal-memo': '1', 'content-security-policy': "default-src 'self'", 'cache-control': 'no-store' },
  },
  '/v2/sair': { status: 200, headers: { 'x-portal-memo': '1', 'set-cookie': 'tokenV2=; Max-Age=0' } },
  '/v2/negado': { status: 403, headers: { 'x-portal-memo': '1' } },
};

// A stand-in for the bundle's memo (src/server/boot/viewer-memo.ts): a ticket per address and cookie,
// and a switch standing for "the session is no longer fresh".
const memoHook = Symbol.for('portal.viewerMemo');
const kept = new Map<string, unknown>();
let sessionsFresh = true;
const standInMemo = {
  ticketOf: (req: http.IncomingMessage) =>
    req.headers.cookie?.includes('tokenV2=') ? { key: `${req.url}|${req.headers.cookie}` } : undefined,
  lookup: (ticket: { key: string }) => (sessionsFresh ? kept.get(ticket.key) : undefined),
  keep: (ticket: { key: string }, answer: unknown) => kept.set(ticket.key, answer),
};

// The portal's rule for the scheme (src/server/shared-page.ts), here: https when the test says so.
const schemeHook = Symbol.for('portal.requestScheme');
const scheme = (req: http.IncomingMessage) => (req.headers['x-teste-https'] ? 'https' : 'http');

beforeAll(async () => {
  (globalThis as Record<symbol, unknown>)[schemeHook] = scheme;
  (globalThis as Record<symbol, unknown>)[memoHook] = standInMemo;
  const shared = sharedPages();
  const memo = viewerMemo();
  server = http.createServer((req, res) => {
    const key = shared.keyOf(req);
    if (shared.answer(key, req, res)) return;
    const ticket = memo.ticketOf(req);
    if (memo.answer(ticket, req, res)) return;
    shared.watch(key, req, res);
    memo.watch(ticket, req, res);
    const path = (req.url ?? '').split('?')[0]!;
    rendered.push(req.url ?? '');
    const page = PAGES[path] ?? { status: 404, headers: {} };
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8', ...page.headers });
    res.write(`<p>${path}: `);
    res.end(`${'conteúdo '.repeat(200)}</p>`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  (globalThis as Record<symbol, unknown>)[schemeHook] = undefined;
  (globalThis as Record<symbol, unknown>)[memoHook] = undefined;
  await new Promise((done) => server.close(done));
});

/** A GET with its body decoded by hand (fetch would hide the encoding). */
async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const { status, headers: answered, raw } = await rawRequest(`${base}${path}`, headers, method);
  const decode = { br: brotliDecompressSync, gzip: gunzipSync }[answered['content-encoding'] ?? ''];
  return { status, headers: answered, text: (decode ? decode(raw) : raw).toString() };
}

const renderings = (path: string) => rendered.filter((url) => url === path).length;

describe('pages shared by every visitor without a session', () => {
  it('renders a shared page once, then answers it from memory with the same headers, never the marker', async () => {
    const first = await get('/termo-de-uso');
    const again = await get('/termo-de-uso', { 'accept-encoding': 'gzip, deflate, br' });
    expect(renderings('/termo-de-uso')).toBe(1);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-security-policy']).toBe("default-src 'self'");
    expect(again.headers['content-encoding']).toBe('br');
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(first.headers['x-portal-shared']).toBeUndefined();
    expect(again.headers['x-portal-shared']).toBeUndefined();
    expect((await get('/termo-de-uso', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get('/termo-de-uso', { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    const head = await get('/termo-de-uso', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(renderings('/termo-de-uso')).toBe(1);
  });

  it('renders every time with a query, a session cookie, another method or without the marker', async () => {
    await get('/termo-de-uso');
    await get('/termo-de-uso?sessao=expirada');
    await get('/termo-de-uso?sessao=expirada');
    expect(renderings('/termo-de-uso?sessao=expirada')).toBe(2);
    const before = renderings('/termo-de-uso');
    await get('/termo-de-uso', { cookie: 'outro=1; tokenV1=abc' });
    expect(renderings('/termo-de-uso')).toBe(before + 1);
    await get('/home');
    await get('/home');
    expect(renderings('/home')).toBe(2);
  });

  it('keeps one copy per scheme, as the portal decides it, and shares nothing before the portal says how', async () => {
    const before = renderings('/');
    PAGES['/'] = PAGES['/termo-de-uso']!;
    await get('/');
    await get('/', { 'x-teste-https': '1' });
    await get('/', { 'x-teste-https': '1' });
    await get('/');
    expect(renderings('/') - before).toBe(2);
    (globalThis as Record<symbol, unknown>)[schemeHook] = undefined;
    try {
      await get('/');
      expect(renderings('/') - before).toBe(3);
    } finally {
      (globalThis as Record<symbol, unknown>)[schemeHook] = scheme;
    }
  });

  it('keeps neither an answer that sets a cookie nor one that is not a 200', async () => {
    for (const path of ['/com-cookie', '/com-cookie', '/ausente', '/ausente']) await get(path);
    expect(renderings('/com-cookie')).toBe(2);
    expect(renderings('/ausente')).toBe(2);
  });
});

describe('signed-in answers the viewer memo keeps', () => {
  const session = { cookie: 'tokenV2=abc' };

  it('renders once per session, then answers from memory with the same headers, never the marker', async () => {
    const first = await get('/v2/home', session);
    const again = await get('/v2/home', { ...session, 'accept-encoding': 'br' });
    expect(renderings('/v2/home')).toBe(1);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-security-policy']).toBe("default-src 'self'");
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.headers['content-encoding']).toBe('br');
    expect([first.headers['x-portal-memo'], again.headers['x-portal-memo']]).toEqual([undefined, undefined]);
    expect((await get('/v2/home', { ...session }, 'HEAD')).text).toBe('');
    // Another session renders its own.
    await get('/v2/home', { cookie: 'tokenV2=outro' });
    expect(renderings('/v2/home')).toBe(2);
  });

  it('renders again when the memo says the session is no longer fresh', async () => {
    await get('/v2/home', session);
    const before = renderings('/v2/home');
    sessionsFresh = false;
    try {
      await get('/v2/home', session);
      expect(renderings('/v2/home')).toBe(before + 1);
    } finally {
      sessionsFresh = true;
    }
  });

  it('keeps neither an answer that sets a cookie nor one that is not a 200', async () => {
    for (const path of ['/v2/sair', '/v2/sair', '/v2/negado', '/v2/negado']) await get(path, session);
    expect(renderings('/v2/sair')).toBe(2);
    expect(renderings('/v2/negado')).toBe(2);
  });
});
