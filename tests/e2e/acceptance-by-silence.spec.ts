import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn } from './helpers';
import { startOwnServer, type OwnServer, ownPort } from './own-server';
import { sellResidential } from './selling';
import { brasiliaDay, formatIsoDate } from '../../src/lib/format';

/**
 * Issue 13: a proposal the insurer leaves undecided for 25 days is accepted by silence (Lei
 * 15.040/2024). The partner sells on a server of its own; the same server is then started again on
 * the same database with its clock 26 days ahead (CLOCK_OFFSET_DAYS), and its deadline job — running
 * inside the server, as in production — accepts the proposal and issues the policy.
 */
const PORT = ownPort('acceptance-by-silence');

let first: OwnServer | undefined;
let later: OwnServer | undefined;
test.afterAll(() => {
  later?.dispose();
  first?.dispose();
});

test('a proposal left 25 days in analysis is accepted by silence, with its policy', async ({ browser }) => {
  test.setTimeout(240_000);
  first = await startOwnServer(PORT);
  const today = await browser.newContext({ baseURL: first.base });
  const partner = await today.newPage();
  await signIn(partner, ACCOUNTS.partner);
  const nrProposta = await sellResidential(partner, { mixed: true });
  await expect(partner.getByTestId('situacao-proposta')).toHaveText('Em análise');
  await expect(partner.getByTestId('prazo-aceite')).toContainText('Aceite em até 25 dias');
  const proposalPage = new URL(partner.url()).pathname;
  await today.close();

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  later = await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: '26' }, first);

  // 26 days later the partner signs in again (the old session has long expired) and opens the proposal.
  const monthLater = await browser.newContext({ baseURL: later.base });
  const back = await monthLater.newPage();
  await signIn(back, ACCOUNTS.partner);
  await back.goto(proposalPage);
  await expect(back.getByTestId('nr-proposta')).toHaveText(nrProposta);
  // The job's first turn comes a few seconds after the start.
  await expect(async () => {
    await back.reload();
    await expect(back.getByTestId('situacao-proposta')).toHaveText('Aceita', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(back.getByTestId('andamento')).toContainText('Aceita por decurso do prazo de 25 dias (Lei 15.040/2024)');
  await expect(back.getByTestId('prazo-aceite')).toHaveCount(0);
  const nrApolice = (await back.getByTestId('nr-apolice').textContent())!.trim();
  expect(nrApolice).toMatch(/^0114\d{11}$/);

  await back.goto('/v2/apolices');
  await expect(back.getByRole('link', { name: nrApolice })).toBeVisible();
  await monthLater.close();

  // Issue 27 item 15, one clock: a sales report asked for on this server is "Pedido em" the server's
  // day, 26 days ahead — not the machine's (the database's own now() wrote it before).
  const admin = await (await browser.newContext({ baseURL: later.base })).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/relatorios/vendas/cadastro');
  await admin.getByRole('button', { name: 'Gerar relatório' }).click();
  await expect(admin).toHaveURL(/\/v2\/relatorios\/vendas\/consulta\?novo=\d+/);
  const serverDay = formatIsoDate(brasiliaDay(new Date(Date.now() + 26 * 86_400_000)));
  await expect(admin.getByRole('definition').filter({ hasText: `por ${ACCOUNTS.insurerAdmin.name}` })).toContainText(serverDay);
});
