// Playwright's webServer (one per worker): starts the already-built app on port E2E_PORT (4399) on a
// throwaway copy of the run's seeded data dir, and deletes that copy when the server exits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copySeededDataDir } from '../tests/fixtures/seeded-data-dir.mjs';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.E2E_PORT ?? '4399';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
// The journeys count what they sell: the demo's year of history stays out unless a spec asks for it.
const kind = process.env.DEMO_HISTORY === 'true' ? 'demo-year' : 'demo';
await copySeededDataDir(kind, path.join(tmp, 'data'));

const env = {
  ...process.env,
  PORT: port,
  HOST: '127.0.0.1',
  DATA_DIR: path.join(tmp, 'data'),
  PORTAL_ENV: 'TEST',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DEMO_HISTORY: String(kind === 'demo-year'),
  // Playwright pipes this server's stdout into the CI log: a line per request of every journey would
  // bury what matters. The metrics still count them; a spec about the log starts a server of its own.
  LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'false',
};
// e2e must start empty: never point it at a shared database from the caller's environment.
delete env.DATABASE_URL;

const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--no-build'], {
  cwd: root,
  env,
  stdio: 'inherit',
});

const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });

for (const signal of ['SIGTERM', 'SIGINT']) {
  // Keep running until the server has stopped, so the temp dir is removed after it lets go.
  process.on(signal, () => child.kill(signal));
}

child.on('error', (err) => {
  console.error(`serve-test: could not start scripts/start.mjs: ${err.message}`);
  cleanup();
  process.exit(1);
});

child.on('exit', (code, signal) => {
  cleanup();
  // Stopped by our own forwarded signal counts as a clean shutdown.
  process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
});
