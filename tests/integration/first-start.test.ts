import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort } from '../fixtures/instances';

/**
 * Issue 42 item 12 (decision 077): on a new install the database is made before the server listens,
 * so the first page a newcomer reaches already has a database behind it — the sign-in waits for
 * nothing. Before, `/signin` answered at once and the database (migrations, seed, the demo's year)
 * was made afterwards, behind the first sign-in.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'portal-first-start-'));
let stop: (() => Promise<unknown>) | undefined;
afterAll(async () => {
  await stop?.();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

const status = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    () => 0,
  );

describe('a first start on an empty data dir', () => {
  it('listens only once its database is ready, having said how far it got', async () => {
    ensureBuilt();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The first start is an embedded database's (a server's database is made by its operator), so
    // the PostgreSQL rerun's DATABASE_URL is left out.
    const { DATABASE_URL: _server, ...inherited } = process.env;
    const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PORTAL_ENV: 'TEST',
        PUBLIC_URL: '',
        DEMO_HISTORY: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((done) => child.once('exit', done));
    stop = () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    };
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));

    const until = Date.now() + 280_000; // a loaded machine; a quiet one takes ~10 s
    while ((await status(`${base}/signin`)) !== 200) {
      expect(child.exitCode, output).toBeNull();
      expect(Date.now(), output).toBeLessThan(until);
      await new Promise((done) => setTimeout(done, 100));
    }
    // The very first moment the sign-in page answers, the database behind it is open.
    expect(await status(`${base}/readyz`)).toBe(200);
    expect(output.indexOf('Demonstração pronta em')).toBeGreaterThan(-1);
    expect(output.indexOf('Demonstração pronta em')).toBeLessThan(output.indexOf('Portal de Parceiros em'));
  }, 300_000);
});
