import { expect } from '@playwright/test';
import { test } from './fixtures';
import { DEMO_PASSWORD } from './helpers';
import { startOwnServer, type OwnServer, ownPort } from './own-server';

/**
 * Issue 30, operations, on the built server as an operator runs it: /healthz and /readyz, the request
 * log on stdout (the real pipeline naming routes by pattern and the signed-in user by id), /metrics
 * behind its token, and the 500 page quoting the request id. The layer's rules one by one are in
 * tests/integration/operations.test.ts.
 */
const PORT = ownPort('operations');
const METRICS_TOKEN = 'token-de-metricas-do-teste-e2e-0123456789';
const CPF = '52998224725';
const EMAIL = 'parceiro@parceiro.demo';

/** The request lines the server printed (other lines — start-up, events — are not JSON requests). */
const requestLines = (server: OwnServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('"evento":"requisicao"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test.describe('a healthy server', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startOwnServer(PORT, { METRICS_TOKEN });
  });
  test.afterAll(() => server?.dispose());

  test('is alive and ready; logs each request by route pattern and user id, without what was sent; counts them behind the token', async () => {
    test.setTimeout(90_000);
    const { base } = server;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await expect(async () => expect((await fetch(`${base}/readyz`)).status).toBe(200)).toPass({ timeout: 60_000 });

    const signIn = await fetch(`${base}/api/gateway/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-portal-session': 'cookie', origin: base },
      body: JSON.stringify({ userName: EMAIL, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookies = signIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    const tokens = cookies.map((cookie) => cookie.split('=')[1]!).filter((value) => value.length > 8);
    expect(tokens.length).toBeGreaterThan(0);
    const page = await fetch(`${base}/v2/apolices/777000111?cpf=${CPF}`, { headers: { cookie: cookies.join('; ') } });
    const pageId = page.headers.get('x-request-id')!;
    // The home's second answer comes from the viewer memo: a fixed route label, still the user's id.
    const homes: (string | null)[] = [];
    for (const _ of [1, 2])
      homes.push((await fetch(`${base}/v2/home`, { headers: { cookie: cookies.join('; ') } })).headers.get('x-request-id'));

    await expect(async () => {
      const lines = requestLines(server);
      const signInLine = lines.find((line) => line.requisicao === signIn.headers.get('x-request-id'));
      expect(signInLine).toMatchObject({ metodo: 'POST', rota: '/api/gateway/login', status: 200 });
      const pageLine = lines.find((line) => line.requisicao === pageId);
      expect(pageLine).toMatchObject({ metodo: 'GET', rota: '/v2/apolices/[nrApolice]', status: page.status, usuario: expect.any(Number) });
      expect(pageLine!.ms).toEqual(expect.any(Number));
      const [rendered, remembered] = homes.map((id) => lines.find((line) => line.requisicao === id));
      expect(rendered).toMatchObject({ rota: '/v2/home', status: 200, usuario: pageLine!.usuario });
      expect(remembered).toMatchObject({ rota: 'memo-do-usuario', status: 200, usuario: pageLine!.usuario });
    }).toPass({ timeout: 5_000 });

    const everything = server.output();
    for (const secret of [DEMO_PASSWORD, CPF, EMAIL, '777000111', ...tokens]) expect(everything).not.toContain(secret);

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer outro-token-qualquer-com-32-caracteres' } })).status).toBe(
      401,
    );
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^http_requests_total\{method="POST",route="\/api\/gateway\/login",status="200"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/v2\/apolices\/\[nrApolice\]"\} 1$/m);
    expect(text).toMatch(/^portal_queue_depth\{queue="emails"\} \d+$/m);
    expect(text).not.toContain('777000111');
  });
});

test.describe('a server whose database does not answer', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // Nothing listens on the port after the server's: the database never opens.
    server = await startOwnServer(PORT + 1, { DATABASE_URL: `postgres://portal@127.0.0.1:${PORT + 2}/portal` });
  });
  test.afterAll(() => server?.dispose());

  test('is alive but not ready, and its 500 page quotes the request id', async ({ page }) => {
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    // 503 while it tries, then 503 saying it failed (the reason is on stderr, not in the answer).
    await expect(async () => {
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(503);
      expect((await ready.json()).checks.database).toMatch(/^falhou ao abrir/);
    }).toPass({ timeout: 10_000 });
    expect(server.output()).toContain('Banco de dados indisponível');

    // A session cookie makes the pipeline ask the database for the session.
    await page.context().addCookies([{ name: 'tokenV2', value: 'qualquer', url: server.base }]);
    const answer = await page.goto(`${server.base}/v2/home`);
    expect(answer!.status()).toBe(500);
    const id = answer!.headers()['x-request-id']!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByText(`Código para o suporte: ${id}`)).toBeVisible();
    // Log lines are written a few kilobytes or a second at a time (scripts/ops.mjs).
    await expect.poll(() => server.output()).toContain(`"requisicao":"${id}"`);
  });
});
