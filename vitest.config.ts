import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // Opening an embedded PostgreSQL and hashing passwords at full cost take seconds, not millis.
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each worker holds its own PGlite (~0.5 GB); two workers fit the 2-core machine.
    maxWorkers: 2,
  },
});
