import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { REFINE_SEARCH } from '../../src/lib/insured-search';
import { ACCOUNTS, screenshotsAt, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * Issue 42, item 13 (decision 078): a name more than 200 insureds share. On a server of its own over
 * a PostgreSQL database of its own — the demo year, grown 9× by `npm run scale`, every policy's
 * insured then given the surname "Quixaba" — a search for it lists the closest names first and says
 * "Refine a busca", in both generations: the policies and the installments (2ª via, payment lookup).
 * Needs the PostgreSQL the integration tests use (PG_URL, default the shared one at 127.0.0.1:55432).
 */
const PORT = Number(process.env.E2E_PORT ?? 4640) + 1;
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
const DATABASE = `portal_e2e_common_name_${process.pid}`;
const databaseUrl = () => {
  const url = new URL(PG_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Until the server's database is open, migrated and seeded (the demo year takes a while on a busy machine). */
const untilReady = (own: OwnServer) =>
  expect(async () => expect((await fetch(`${own.base}/readyz`)).status, own.output()).toBe(200)).toPass({ timeout: 300_000 });

const ONE = 'Ana Quixaba Pimenta';

let server: OwnServer | undefined;
test.afterAll(async () => {
  server?.dispose();
  await onServer(PG_URL, (c) => c.query(`drop database if exists ${DATABASE} with (force)`));
});

test('a name more than 200 insureds share asks to refine the search, in both generations', async ({ browser }) => {
  test.setTimeout(600_000);
  await onServer(PG_URL, (c) => c.query(`create database ${DATABASE}`));
  const env = { DATABASE_URL: databaseUrl(), DEMO_HISTORY: 'true' };
  // The first start seeds the demo year: ready (/readyz) once it has.
  server = await startOwnServer(PORT, env);
  await untilReady(server);
  server.child.kill('SIGTERM');
  await server.exited;
  server.dispose();
  const grown = spawnSync(process.execPath, ['scripts/scale.mjs', '--times', '9'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(grown.status, grown.stderr + grown.stdout).toBe(0);
  await onServer(databaseUrl(), async (c) => {
    await c.query(`update policies set nome_segurado = 'Cliente Quixaba ' || id`);
    // One insured per generation whom a person names in full.
    await c.query(
      `update policies set nome_segurado = $1 where id in (
      select max(a.id) from policies a join installments i on i.policy_id = a.id and i.status = 'ABERTA' group by a.generation)`,
      [ONE],
    );
    const { rows } = await c.query(`select generation, count(*)::int as n from policies group by 1`);
    for (const row of rows) expect(row.n, `${row.generation} policies`).toBeGreaterThan(200);
  });
  server = await startOwnServer(PORT, env);
  await untilReady(server);

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
