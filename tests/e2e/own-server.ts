import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { copySeededDataDir } from '../fixtures/seeded-data-dir.mjs';
import { test } from './fixtures';

/**
 * A portal server of a spec's own — started from the built tree (`scripts/start.mjs --no-build`) on
 * its own port and a throwaway data dir — for specs about the server itself (shutdown, limits, a
 * reverse proxy in front), which must not disturb the shared one of playwright.config.ts.
 */
export interface OwnServer {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Kills what is left and deletes the data dir. */
  dispose: () => void;
}

/**
 * The ports of the specs' own servers, as offsets from E2E_PORT — whose first few are the workers'
 * servers (playwright.config.ts) — one table, so two specs running at once in two workers never reach
 * for the same port. A spec's servers take its offset and the next ones (up to 4).
 */
const OWN_PORT_OFFSETS = {
  'access-reviews': 8,
  commissions: 12,
  'acceptance-by-silence': 16,
  'insured-messages': 20,
  'server-lifecycle': 24,
  'behind-proxy': 28,
  'payment-pages': 32,
  history: 36,
  policies: 40,
  'payments-report': 44,
  operations: 48,
  'common-name-search': 52,
} as const;

/** The `n`-th port (0–3) of a spec's own servers. */
export const ownPort = (spec: keyof typeof OWN_PORT_OFFSETS, n = 0): number =>
  Number(process.env.E2E_PORT ?? 4399) + OWN_PORT_OFFSETS[spec] + n;

/**
 * `reuse`: start on the data dir of a server that has stopped (a restart); its dispose deletes it.
 * Otherwise the server starts on a copy of the run's seeded data dir (tests/fixtures/seeded-data-dir.mjs)
 * — the demo, or the demo year with DEMO_HISTORY=true — unless it is given a DATABASE_URL.
 */
export async function startOwnServer(port: number, env: Record<string, string> = {}, reuse?: OwnServer): Promise<OwnServer> {
  const tmp = reuse ? undefined : mkdtempSync(join(tmpdir(), 'portal-own-'));
  const dataDir = reuse?.dataDir ?? join(tmp!, 'data');
  if (!reuse && !env.DATABASE_URL) await copySeededDataDir(env.DEMO_HISTORY === 'true' ? 'demo-year' : 'demo', dataDir);
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PORTAL_ENV: 'TEST',
      DATABASE_URL: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '',
      DEMO_HISTORY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  await expect(async () => {
    expect(child.exitCode, output).toBeNull();
    expect((await fetch(`${base}/signin`)).status).toBe(200);
  }).toPass({ timeout: 150_000 }); // a first start with DEMO_HISTORY makes the year before listening
  return {
    child,
    base,
    dataDir,
    exited,
    output: () => output,
    dispose: () => {
      child.kill('SIGKILL');
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * The state PostgreSQL (PGlite) wrote in the data dir's control file: 1 = shut down cleanly,
 * 6 = in production — still open, or left without closing (the next start must recover).
 * `DBState` is the int32 after the system identifier and the two version numbers (pg_control.h).
 */
export const DB_SHUT_DOWN = 1;
export const pgControlState = (dataDir: string) => readFileSync(join(dataDir, 'global', 'pg_control')).readInt32LE(16);

/**
 * POSTs `size` bytes in 64 KiB chunks with no Content-Length (Transfer-Encoding: chunked), as a
 * client streaming an upload does. The server may answer before the body ends: the answer counts.
 */
export function postChunked(url: string, contentType: string, prefix: string, size: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': contentType, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    let answered = false;
    request.once('response', () => (answered = true));
    request.on('error', (error) => !answered && reject(error));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < size && !request.destroyed) {
        const piece = sent === 0 ? Buffer.concat([Buffer.from(prefix), chunk]) : chunk;
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      request.end();
    };
    // Once the answer is in, the rest of the body no longer matters (the server may close the socket).
    request.once('response', () => (sent = size));
    pump();
  });
}

/**
 * The describe (or file) it is called in runs against a server of its own holding the demo year
 * (DEMO_HISTORY: lists of many pages), on `port`: started before its tests, disposed after them.
 */
export function withDemoYearServer(port: number): void {
  let server: OwnServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startOwnServer(port, { DEMO_HISTORY: 'true' });
  });
  test.afterAll(() => server?.dispose());
  test.use({ baseURL: `http://127.0.0.1:${port}` });
}
