import { test as base } from '@playwright/test';

/**
 * The journeys' `test` (Biome refuses `test` from '@playwright/test' in tests/e2e): every browser
 * context a test opens from the worker's `browser` is closed when the test ends, passed or failed.
 * Playwright closes only the `context` and `page` fixtures' own; one opened by `browser.newContext()`
 * and not closed (forgotten, or skipped by a failure) stayed open for the rest of the run, its last
 * page signed in with its live worklist stream open and reconnecting — dozens of them by the late
 * journeys, taking the per-user places of the pages under test and recounting at every sale.
 */
export const test = base.extend<{ closesItsContexts: undefined }>({
  closesItsContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => {})),
      );
    },
    { auto: true },
  ],
});
