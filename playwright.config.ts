import { defineConfig, devices } from '@playwright/test';

// E2E_PORT lets two checkouts (or a developer and CI) run the journeys side by side.
const PORT = Number(process.env.E2E_PORT ?? 4399);
const baseURL = `http://127.0.0.1:${PORT}`;

// Always the system Chromium (scripts/test.mjs exports CHROMIUM_PATH): nothing downloads a browser.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  // One server with one database: tests run one at a time so they don't see each other's data.
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
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
  webServer: {
    command: 'node scripts/serve-test.mjs',
    url: `${baseURL}/signin`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    // Without this Playwright SIGKILLs the server and serve-test.mjs can't delete its temp database.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
