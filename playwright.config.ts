import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * Journeys run on WORKERS workers at once, each against a portal server of its own — its own port
 * (E2E_PORT + the worker's parallel index) and its own data dir, copied from the run's one seeded
 * data dir (tests/fixtures/seeded-data-dir.mjs, decision 079) — so two journeys never see each
 * other's writes, and within a worker they run one at a time as they always did. E2E_PORT lets two
 * checkouts (or a developer and CI) run side by side; E2E_WORKERS=1 runs everything on one server.
 */
const PORT = Number(process.env.E2E_PORT ?? 4399);
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
// This file is read again inside each worker, where Playwright has set TEST_PARALLEL_INDEX: the
// journeys' baseURL is their worker's server (tests/e2e/helpers.ts's BASE_URL reads the same).
const workerBase = (index: number) => `http://127.0.0.1:${PORT + index}`;
// Once per run, in the runner; the workers and the servers inherit it.
process.env.E2E_TEMPLATE_DIR ??= mkdtempSync(join(tmpdir(), 'portal-e2e-templates-'));

// Always the system Chromium (scripts/test.mjs exports CHROMIUM_PATH): nothing downloads a browser.
// Its headless shell when installed: ~40 % less time per journey than the full browser (decision 079).
process.env.CHROMIUM_PATH ??= existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH,
  args: [
    '--no-sandbox', // CI runs as root, where the Chromium sandbox refuses to start
    '--disable-gpu',
    '--disable-dev-shm-usage', // containers often have a tiny /dev/shm
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  // A file's journeys run in order on their worker's server; files spread over the workers.
  fullyParallel: false,
  workers: WORKERS,
  // A journey that passes only on its second try is a failing journey, so it is never hidden:
  // scripts/test.mjs names each one ("!! passed only on its retry (flaky)") and CI's summary counts them.
  // CI still gives one retry — one unexplained flake among ~340 journeys must not keep a whole
  // submission from landing (decision 079) — a developer's run gives none.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalTeardown: './tests/e2e/global-teardown.ts',
  use: {
    baseURL: workerBase(Number(process.env.TEST_PARALLEL_INDEX ?? 0)),
    // A trace records every action's snapshots — a sizeable share of a journey's CPU — and CI's
    // machine is thrown away with it, so CI records none; a developer's run keeps a failure's trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'pt-BR',
    launchOptions,
  },
  projects: [
    {
      name: 'chromium',
      // A project's `use` replaces top-level keys, so the launch options are repeated here.
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
  ],
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: 'node scripts/serve-test.mjs',
    env: { E2E_PORT: String(PORT + index) },
    url: `${workerBase(index)}/signin`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe' as const,
    // Without this Playwright SIGKILLs the server and serve-test.mjs can't delete its temp database.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  })),
});
