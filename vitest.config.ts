import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The suite's calendar (decision 079, tests/fixtures/suite-clock.mjs): `TEST_CLOCK=<ISO instant>`
 * starts the run there — every worker and every process a test starts shifts `Date` by the same
 * amount — to find the tests that read the wall clock instead of holding their own
 * (tests/fixtures/clock.ts). By default the run is on the machine's clock: a shifted `Date` disagrees
 * with what the operating system dates — file times, an S3 request's signature — and those tests are
 * right to compare them.
 */
const clock = process.env.TEST_CLOCK ?? 'wall';
if (process.env.TEST_CLOCK_SHIFT_MS === undefined && clock !== 'wall') {
  const epoch = Date.parse(clock);
  if (Number.isNaN(epoch)) throw new Error(`TEST_CLOCK=${clock}: an ISO instant or "wall"`);
  process.env.TEST_CLOCK_SHIFT_MS = String(epoch - Date.now());
  const shim = `--import=${new URL('./tests/fixtures/suite-clock.mjs', import.meta.url).href}`;
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, shim].filter(Boolean).join(' ');
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // Also here, for a pool whose workers do not start from NODE_OPTIONS (it installs once either way).
    // Then a cheap password hash for every file (tests/fixtures/fast-hashing.ts).
    setupFiles: [
      fileURLToPath(new URL('./tests/fixtures/suite-clock.mjs', import.meta.url)),
      fileURLToPath(new URL('./tests/fixtures/fast-hashing.ts', import.meta.url)),
    ],
    // Migrate and seed once per run and kind of seed; each file copies the template (decision 079).
    globalSetup: ['tests/fixtures/templates-setup.ts'],
    // Opening an embedded PostgreSQL and hashing passwords at full cost take seconds, not millis.
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each worker holds its own PGlite (~0.5 GB) and keeps a core busy: two fit the 2-core machine.
    // On a PostgreSQL server the work is the server's and a worker mostly waits for it: four.
    maxWorkers: process.env.DATABASE_URL ? 4 : 2,
  },
});
