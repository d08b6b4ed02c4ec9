import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { freshDatabase } from '../fixtures/db';
import { DEMO_PASSWORD } from '../fixtures/api';

/**
 * The API router behind a TLS-terminating proxy (issue 11, item 5): the middleware tells it the
 * client's address, that the browser speaks https and which origins may post
 * (src/server/proxy.ts); the router's origin check and its cookies follow that, not the request URL,
 * which says http://internal-host.
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const PUBLIC = 'https://portal.example.com';
const behindProxy = { ip: '203.0.113.9', https: true, allowedOrigins: [PUBLIC, 'http://127.0.0.1:4321'] };

function signIn(origin: string, options: Partial<typeof behindProxy> = behindProxy) {
  return api.handle(
    new Request('http://127.0.0.1:4321/api/gateway/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-portal-session': 'cookie' },
      body: JSON.stringify({ userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD }),
    }),
    { ip: '127.0.0.1', ...options, db: async () => db },
  );
}

describe('api.handle behind a proxy', () => {
  it('accepts a sign-in from the public https origin and sets Secure cookies', async () => {
    const response = await signIn(PUBLIC);
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/; HttpOnly; SameSite=Lax; .*; Secure$/);
  });

  it('records the address it was given, not the socket peer', async () => {
    await signIn(PUBLIC);
    const last = await db.selectFrom('access_events').select('ip').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last.ip).toBe('203.0.113.9');
  });

  it('still refuses any other origin with 403', async () => {
    expect((await signIn('https://evil.example')).status).toBe(403);
    expect((await signIn('http://portal.example.com')).status).toBe(403);
  });

  it('clears cookies with Secure too when it refuses a token', async () => {
    const response = await api.handle(new Request('http://127.0.0.1:4321/api/bff/v1/usuario', { headers: { cookie: 'tokenV2=stale' } }), {
      ...behindProxy,
      db: async () => db,
    });
    expect(response.status).toBe(401);
    for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/Max-Age=0; Secure$/);
  });

  it("without options (direct callers, tests): the request URL's own origin and scheme", async () => {
    const direct = await signIn('http://127.0.0.1:4321', { ip: '127.0.0.1', https: undefined, allowedOrigins: undefined });
    expect(direct.status).toBe(200);
    for (const cookie of direct.headers.getSetCookie()) expect(cookie).not.toContain('Secure');
    expect((await signIn(PUBLIC, { ip: '127.0.0.1', https: undefined, allowedOrigins: undefined })).status).toBe(403);
  });
});
