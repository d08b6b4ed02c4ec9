import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';

/**
 * Issue 30, operations: the server script (scripts/serve.mjs) with its operations layer
 * (scripts/ops.mjs) and the bundle's side of it (src/server/ops/hooks.ts, the request record) —
 * in front of a stand-in for Astro's handler that does what the pipeline does with the record: names
 * the route by its pattern, notes the signed-in user, logs an error. The real pipeline and the 500
 * page are driven through the built server in tests/e2e/operations.spec.ts.
 */
const env = await vi.hoisted(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/portal-ops-`);
  process.env.PORTAL_ENV = 'TEST';
  process.env.DATA_DIR = `${dir}/data`;
  // Requests from 127.0.0.2 come "from the proxy"; the tests' others come from 127.0.0.1.
  process.env.TRUST_PROXY = '127.0.0.2';
  delete process.env.METRICS_TOKEN;
  delete process.env.LOG_LEVEL;
  delete process.env.LOG_REQUESTS;
  return { dir };
});
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined, openFailed: false }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  openedDatabase: () => shared.db,
  databaseOpenFailed: () => shared.openFailed,
}));

const { freshDatabase } = await import('../fixtures/db');
const { noteRoute, noteUser, currentRequest } = await import('../../src/server/request-context');
const { logError } = await import('../../src/server/log');
await import('../../src/server/ops/hooks');

const TOKEN = 'um-token-de-metricas-com-mais-de-32-caracteres';
const SECRETS = {
  password: 'SenhaMuitoSecreta#2026',
  cookie: 'valor-do-cookie-de-sessao-9f8e7d',
  setCookie: 'token-novo-da-resposta-1a2b3c',
  bearer: 'token-de-api-no-cabecalho-4d5e6f',
  cpf: '52998224725',
  email: 'corretora.sigilosa@parceiro.demo',
};

// The stand-in for Astro: what it rendered, and what the pipeline would have noted.
let renderings = 0;
async function standIn(req: http.IncomingMessage, res: http.ServerResponse) {
  renderings += 1;
  const path = (req.url ?? '/').split('?')[0]!;
  const page = (status: number, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(`<p>${status}</p>`);
  };
  if (/^\/v2\/apolices\/[^/]+$/.test(path)) {
    noteRoute('/v2/apolices/[id]');
    if (req.headers.cookie?.includes('tokenV2=')) noteUser(7);
    return page(200);
  }
  if (path === '/api/gateway/login') {
    noteRoute('/api/[...path]');
    noteRoute('/api/gateway/login', { refine: true });
    for await (const _ of req); // the body (and its password) is the endpoint's, read and dropped
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `tokenV2=${SECRETS.setCookie}; HttpOnly` });
    return res.end(JSON.stringify({ dado: { email: SECRETS.email } }));
  }
  if (path === '/v2/negado') {
    // A refused page: the pipeline runs again for the /403 it rewrites to.
    noteRoute('/v2/negado');
    noteRoute('/403');
    return page(403);
  }
  if (path === '/termo-de-uso') {
    noteRoute('/termo-de-uso');
    return page(200, { 'x-portal-shared': '1' });
  }
  if (path === '/falha') {
    noteRoute('/falha');
    logError('pagina-falha', { erro: 'algo quebrou' });
    return page(500);
  }
  noteRoute('/404');
  return page(404);
}

// A built tree whose entry hands every request to the stand-in (scripts/serve.mjs imports PORTAL_DIST/server/entry.mjs).
const dist = join(env.dir, 'dist');
mkdirSync(join(dist, 'server'), { recursive: true });
writeFileSync(
  join(dist, 'server/entry.mjs'),
  "export const handler = (req, res) => globalThis[Symbol.for('portal.test.standIn')](req, res);\n",
);
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.test.standIn')] = standIn;
process.env.PORTAL_DIST = join(env.dir, 'dist');
const { startPortal } = await import('../../scripts/serve.mjs');

type Portal = Awaited<ReturnType<typeof startPortal>>;
let withToken: Portal;
let withoutToken: Portal;
const lines: string[] = [];
const logOutput = { write: (line: string) => lines.push(line) };
let close: () => Promise<void>;
let db: DB;

const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const lineOf = (id: string) => logged().filter((line) => line.requisicao === id);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}
function request(
  url: string,
  { method = 'GET', headers = {}, body, from }: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
/** The log line is written when the answer's connection closes: wait for it. */
const lineFor = async (answer: Answer) => {
  const id = answer.headers['x-request-id'] as string;
  await vi.waitFor(() => expect(lineOf(id)).toHaveLength(1));
  return lineOf(id)[0]!;
};

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  const hooks = globalThis as Record<symbol, unknown>;
  // The real hooks would open the database of DATA_DIR: these tests hand theirs to openedDatabase.
  hooks[Symbol.for('portal.open')] = async () => undefined;
  hooks[Symbol.for('portal.shutdown')] = async () => undefined;
  hooks[Symbol.for('portal.requestScheme')] = () => 'http';
  withoutToken = await startPortal({ port: 0, host: '127.0.0.1', announce: false, logDestination: logOutput });
  process.env.METRICS_TOKEN = TOKEN;
  withToken = await startPortal({ port: 0, host: '127.0.0.1', announce: false, logDestination: logOutput });
  delete process.env.METRICS_TOKEN;
});

afterAll(async () => {
  await withoutToken?.stop();
  await withToken?.stop();
  await close?.();
  rmSync(env.dir, { recursive: true, force: true });
});

describe('/healthz', () => {
  it('answers 200 {"status":"ok"} while the process lives, database or not, without Astro', async () => {
    shared.db = undefined;
    const before = renderings;
    const answer = await request(`${withToken.url}/healthz`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const head = await request(`${withToken.url}/healthz`, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await request(`${withToken.url}/healthz`, { method: 'POST' })).status).toBe(405);
    expect(renderings).toBe(before);
  });

  it('is logged at debug only, so the probes do not fill the log at info', async () => {
    const answer = await request(`${withToken.url}/healthz`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lineOf(answer.headers['x-request-id'] as string)).toEqual([]);
  });
});

describe('/readyz', () => {
  it('answers 503 while the database is not open (or not migrated), naming the check', async () => {
    shared.db = undefined;
    const answer = await request(`${withToken.url}/readyz`);
    expect(answer.status).toBe(503);
    expect(answer.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(answer.body);
    expect(body.status).toBe('unavailable');
    expect(body.checks.database).toMatch(/não aberto/);
    expect(body.checks.storage).toBe('ok');
  });

  it('says so when opening the database failed for good (the reason is in the log, not here)', async () => {
    shared.db = undefined;
    shared.openFailed = true;
    try {
      const answer = await request(`${withToken.url}/readyz`);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body).checks.database).toMatch(/^falhou ao abrir/);
    } finally {
      shared.openFailed = false;
    }
  });

  it('answers 200 once the database answers and the files directory is writable', async () => {
    shared.db = db;
    const answer = await request(`${withToken.url}/readyz`);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { status: 'ok', checks: { database: 'ok', storage: 'ok' } }]);
    expect((await request(`${withToken.url}/readyz`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 503 when the storage cannot be written, with a fixed text (the error goes to the log)', async () => {
    const files = join(process.env.DATA_DIR!, 'files');
    rmSync(files, { recursive: true, force: true });
    writeFileSync(files, 'não é uma pasta');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const answer = await request(`${withToken.url}/readyz`);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body).checks).toEqual({ database: 'ok', storage: 'falhou' });
      expect(warn.mock.calls.join('\n')).toContain('prontidao-falha');
      expect(warn.mock.calls.join('\n')).toContain(answer.headers['x-request-id']);
    } finally {
      warn.mockRestore();
      rmSync(files, { force: true });
    }
    expect((await request(`${withToken.url}/readyz`)).status).toBe(200);
  });
});

describe('the request log', () => {
  it('writes one line per request: id, method, route pattern, status, duration, user id, bytes', async () => {
    shared.db = db;
    const answer = await request(`${withToken.url}/v2/apolices/98765?cpf=${SECRETS.cpf}&pagina=2`, {
      headers: { cookie: `tokenV2=${SECRETS.cookie}`, authorization: `Bearer ${SECRETS.bearer}` },
    });
    expect(answer.status).toBe(200);
    const line = await lineFor(answer);
    expect(line).toMatchObject({
      level: 'info',
      evento: 'requisicao',
      requisicao: answer.headers['x-request-id'],
      metodo: 'GET',
      rota: '/v2/apolices/[id]',
      status: 200,
      usuario: 7,
    });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.bytes).toBeGreaterThan(0);
    expect(JSON.stringify(line)).not.toContain('98765');
  });

  it('names a refused page by the route asked for, not the /403 it was rewritten to', async () => {
    const answer = await request(`${withToken.url}/v2/negado`);
    expect(await lineFor(answer)).toMatchObject({ rota: '/v2/negado', status: 403 });
  });

  it('names answers given before Astro with a fixed label, each with its own request id', async () => {
    const first = await request(`${withToken.url}/termo-de-uso`);
    const rendered = renderings;
    const second = await request(`${withToken.url}/termo-de-uso`);
    expect(renderings).toBe(rendered); // the second came from memory
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect((await lineFor(first)).rota).toBe('/termo-de-uso');
    expect((await lineFor(second)).rota).toBe('pagina-compartilhada');
  });

  it('adopts a well-formed X-Request-Id from a trusted proxy only', async () => {
    const fromClient = await request(`${withToken.url}/v2/apolices/1`, { headers: { 'x-request-id': 'escolhido-pelo-cliente-123' } });
    expect(fromClient.headers['x-request-id']).not.toBe('escolhido-pelo-cliente-123');
    expect((await lineFor(fromClient)).requisicao).toBe(fromClient.headers['x-request-id']);
    expect(lineOf('escolhido-pelo-cliente-123')).toEqual([]);

    const fromProxy = await request(`${withToken.url}/v2/apolices/1`, {
      headers: { 'x-request-id': 'nginx-4f2a9c0d1e' },
      from: '127.0.0.2',
    });
    expect(fromProxy.headers['x-request-id']).toBe('nginx-4f2a9c0d1e');
    expect((await lineFor(fromProxy)).rota).toBe('/v2/apolices/[id]');

    const malformed = await request(`${withToken.url}/v2/apolices/1`, { headers: { 'x-request-id': 'a b"}{' }, from: '127.0.0.2' });
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the request id to the events logged inside the request, and none outside', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await request(`${withToken.url}/falha`);
      expect(answer.status).toBe(500);
      const event = JSON.parse(String(error.mock.calls.at(-1)![0]));
      expect(event).toMatchObject({ evento: 'pagina-falha', requisicao: answer.headers['x-request-id'] });
      expect((await lineFor(answer)).level).toBe('error');
      logError('fora-de-requisicao');
      expect(JSON.parse(String(error.mock.calls.at(-1)![0]))).toEqual({ evento: 'fora-de-requisicao' });
      expect(currentRequest()).toBeUndefined();
    } finally {
      error.mockRestore();
    }
  });

  it('holds no password, token, cookie, CPF or e-mail a request or its answer carried', async () => {
    const signIn = await request(`${withToken.url}/api/gateway/login?email=${encodeURIComponent(SECRETS.email)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `tokenV2=${SECRETS.cookie}`, authorization: `Bearer ${SECRETS.bearer}` },
      body: JSON.stringify({ email: SECRETS.email, password: SECRETS.password }),
    });
    expect(signIn.status).toBe(200);
    expect((await lineFor(signIn)).rota).toBe('/api/gateway/login');
    await lineFor(await request(`${withToken.url}/v2/apolices/3?cpf=${SECRETS.cpf}`, { headers: { cookie: `tokenV2=${SECRETS.cookie}` } }));
    const everything = lines.join('');
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/cpf|cookie|authorization|password/i);
  });
});

describe('/metrics', () => {
  it('is a page like any other (404, from Astro) while METRICS_TOKEN is not configured', async () => {
    const before = renderings;
    const answer = await request(`${withoutToken.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(404);
    expect(renderings).toBe(before + 1);
    expect(answer.body).not.toContain('http_requests_total');
  });

  it('refuses a request without the token, or with another, saying nothing more (401)', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const answer = await request(`${withToken.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.body).toBe('Não autorizado.');
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('answers the Prometheus text with the token: requests by route pattern, latency, queues, jobs, process', async () => {
    shared.db = db;
    await request(`${withToken.url}/v2/apolices/4444`);
    await request(`${withToken.url}/v2/apolices/5555`);
    await request(`${withToken.url}/nao/existe/${Date.now()}`);
    const answer = await request(`${withToken.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers['cache-control']).toBe('no-store');
    const text = answer.body;
    const count = Number(/^http_requests_total\{method="GET",route="\/v2\/apolices\/\[id\]",status="200"\} (\d+)$/m.exec(text)?.[1]);
    expect(count).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/404",status="404"\} \d+$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v2\/apolices\/\[id\]"\} \d+$/m);
    expect(text).not.toContain('4444');
    expect(text).not.toContain('/nao/existe');
    for (const queue of ['emails', 'reports', 'imports']) {
      expect(text).toMatch(new RegExp(`^portal_queue_depth\\{queue="${queue}"\\} \\d+$`, 'm'));
      expect(text).toMatch(new RegExp(`^portal_queue_oldest_age_seconds\\{queue="${queue}"\\} [\\d.e+-]+$`, 'm'));
    }
    expect(text).toContain('# TYPE portal_job_runs_total counter');
    expect(text).toContain('# TYPE portal_job_failures_total counter');
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toContain('nodejs_gc_duration_seconds');
    // The pg pool is there only over PostgreSQL (CI runs this file both ways).
    expect(/^portal_db_pool_connections\{state="total"\} \d+$/m.test(text)).toBe(Boolean(process.env.DATABASE_URL));
  });

  it('counts the queued e-mails and reads the oldest one’s age', async () => {
    await db.updateTable('emails').set({ sent_at: new Date() }).where('fila', '=', true).where('sent_at', 'is', null).execute();
    const text0 = (await request(`${withToken.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text0).toMatch(/^portal_queue_depth\{queue="emails"\} 0$/m);
    expect(text0).toMatch(/^portal_queue_oldest_age_seconds\{queue="emails"\} 0$/m);
    await db
      .insertInto('emails')
      .values({
        to_address: 'x@y.demo',
        template: 't',
        subject: 's',
        text_body: 't',
        html_body: 'h',
        fila: true,
        created_at: new Date(Date.now() - 60_000),
      })
      .execute();
    const text = (await request(`${withToken.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text).toMatch(/^portal_queue_depth\{queue="emails"\} 1$/m);
    const age = Number(/^portal_queue_oldest_age_seconds\{queue="emails"\} ([\d.e+]+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(59);
    expect(age).toBeLessThan(120);
  });
});

describe('shutdown', () => {
  it('answers /readyz 503 from the moment the server starts stopping', async () => {
    shared.db = db;
    expect((await request(`${withToken.url}/readyz`)).status).toBe(200);
    // A request whose headers are still coming when the signal arrives: its connection is not idle.
    const socket = net.connect(Number(new URL(withToken.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /readyz HTTP/1.1\r\nHost: portal\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = withToken.stop();
    let raw = '';
    socket.on('data', (chunk) => (raw += chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write('\r\n');
    await ended;
    await stopped;
    expect(raw).toMatch(/^HTTP\/1\.1 503 /);
    expect(raw).toMatch(/connection: close/i);
    expect(raw).toContain('"shutdown":"encerrando"');
  });
});
