import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The suite's calendar (decision 079, tests/fixtures/suite-clock.mjs): every run starts on the same
 * day — a Wednesday, 10:00 in Brasília — whatever the machine's date, so a test that forgot to hold
 * its own clock cannot pass in November and fail in December. TEST_CLOCK=wall runs on the machine's
 * clock (to look for such tests); TEST_CLOCK=<ISO instant> starts the run there. Set in this
 * process's environment before the workers start, so they and every server a test spawns inherit it.
 */
const SUITE_EPOCH = '2026-11-25T13:00:00Z';
if (process.env.TEST_CLOCK_SHIFT_MS === undefined) {
  const clock = process.env.TEST_CLOCK ?? SUITE_EPOCH;
  const epoch = clock === 'wall' ? Date.now() : Date.parse(clock);
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
