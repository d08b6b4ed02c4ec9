import { spawnSync } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { expect } from '@playwright/test';
import { REFINE_SEARCH } from '../../src/lib/insured-search';
import { test } from './fixtures';
import { ACCOUNTS, screenshotsAt, signIn } from './helpers';
import { ownPort, startOwnServer, type OwnServer } from './own-server';

/**
 * Issue 42, item 13 (decision 078): a name more than 200 insureds share. On a server of its own — the
 * demo year (embedded, as `npm start` runs), grown 9× by `npm run scale` with the server stopped,
 * every policy's insured then given the surname "Quixaba" — a search for it lists the closest names
 * first and says "Refine a busca", in both generations: the policies and the installments (2ª via,
 * payment lookup).
 */
const PORT = ownPort('common-name-search');
const ONE = 'Ana Quixaba Pimenta';

let server: OwnServer | undefined;
test.afterAll(() => server?.dispose());

test('a name more than 200 insureds share asks to refine the search, in both generations', async ({ browser }) => {
  test.setTimeout(600_000);
  const env = { DEMO_HISTORY: 'true' };
  // A copy of the run's demo year; stopped, so the growth and the renaming have its data dir alone.
  const seeded = await startOwnServer(PORT, env);
  seeded.child.kill('SIGTERM');
  await seeded.exited;
  const grown = spawnSync(process.execPath, ['scripts/scale.mjs', '--times', '9'], {
    env: { ...process.env, DATA_DIR: seeded.dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(grown.status, grown.stderr + grown.stdout).toBe(0);
  const pglite = new PGlite(seeded.dataDir, { extensions: { pg_trgm } });
  try {
    await pglite.query(`update policies set nome_segurado = 'Cliente Quixaba ' || id`);
    // One insured per generation whom a person names in full.
    await pglite.query(
      `update policies set nome_segurado = $1 where id in (
      select max(a.id) from policies a join installments i on i.policy_id = a.id and i.status = 'ABERTA' group by a.generation)`,
      [ONE],
    );
    const { rows } = await pglite.query<{ generation: string; n: number }>(
      `select generation, count(*)::int as n from policies group by 1`,
    );
    for (const row of rows) expect(row.n, `${row.generation} policies`).toBeGreaterThan(200);
  } finally {
    await pglite.close();
  }
  server = await startOwnServer(PORT, env, seeded);

  const cases = [
    { account: ACCOUNTS.insurerAdmin, lists: ['/v2/apolices', '/v2/boleto'], name: 'v2' },
    { account: ACCOUNTS.legacyAdmin, lists: ['/apolices', '/consulta-pagamento'], name: 'v1' },
  ] as const;
  for (const c of cases) {
    const context = await browser.newContext({ baseURL: server.base });
    const page = await context.newPage();
    await signIn(page, c.account);
    for (const list of c.lists) {
      await page.goto(`${list}?segurado=quixaba`);
      await expect(page.getByTestId('refine-a-busca'), list).toHaveText(REFINE_SEARCH);
      await expect(page.getByText(/mais de 200 .*, o nome mais parecido primeiro/), list).toBeVisible();
      await expect(page.getByRole('cell', { name: /Cliente Quixaba/ }).first(), list).toBeVisible();
      // One insured's whole name: nothing to refine.
      await page.goto(`${list}?segurado=${encodeURIComponent(ONE)}`);
      await expect(page.getByRole('cell', { name: ONE }).first(), list).toBeVisible();
      await expect(page.getByTestId('refine-a-busca'), list).toHaveCount(0);
      await page.goto(`${list}?segurado=quixaba`);
      await screenshotsAt(page, 'common-name-search', `${c.name}${list.replaceAll('/', '-')}`);
    }
    await context.close();
  }
});
