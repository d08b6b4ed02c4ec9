import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './helpers';

/**
 * The server as an operator sees it: started from the built tree on its own port and database, it
 * refuses oversized and cross-site requests, and on SIGTERM finishes the requests in flight and exits
 * within 10 s.
 */
const PORT = Number(process.env.E2E_PORT ?? 4399) + 50;
const base = `http://127.0.0.1:${PORT}`;

let server: ChildProcess;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-lifecycle-'));
  server = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'data'), PORTAL_ENV: 'TEST', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  await expect(async () => expect((await fetch(`${base}/signin`)).status).toBe(200)).toPass({ timeout: 60_000 });
});

test.afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

test('a body over 1 MB is refused with 413, on the API and on pages', async () => {
  const big = 'x'.repeat(1024 * 1024 + 1);
  const api = await fetch(`${base}/api/plataforma/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
  expect(api.status).toBe(413);
  expect(await api.json()).toMatchObject({ status: 413 });
  const page = await fetch(`${base}/sair`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `geracao=${big}` });
  expect(page.status).toBe(413);
});

test('a state-changing request from another origin is refused with 403, JSON included', async () => {
  const json = await fetch(`${base}/api/gateway/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    body: JSON.stringify({ userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD }),
  });
  expect(json.status).toBe(403);
  const form = await fetch(`${base}/sair`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'geracao=v1', redirect: 'manual' });
  expect(form.status).toBe(403);
});

test('pages and API answers carry the security headers', async () => {
  const page = await fetch(`${base}/signin`);
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
  expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
  expect(csp).not.toContain('unsafe-inline');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  const api = await fetch(`${base}/api/bff/v1/usuario`);
  expect(api.headers.get('cache-control')).toBe('no-store');
});

test('SIGTERM lets the requests in flight finish and exits within 10 s', async () => {
  // A sign-in takes a few hundred ms (scrypt): it is in flight when the signal arrives.
  const inFlight = fetch(`${base}/api/gateway/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD }),
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const started = Date.now();
  server.kill('SIGTERM');
  expect((await inFlight).status).toBe(200);
  expect(await exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(10_000);
  await expect(fetch(`${base}/signin`)).rejects.toThrow();
});
