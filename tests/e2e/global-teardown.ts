import { rmSync } from 'node:fs';

/** The run's seeded data dirs (tests/fixtures/seeded-data-dir.mjs) go with the run. */
export default function globalTeardown() {
  if (process.env.E2E_TEMPLATE_DIR) rmSync(process.env.E2E_TEMPLATE_DIR, { recursive: true, force: true });
}
