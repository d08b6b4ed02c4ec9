import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, screenshotsAt } from './helpers';
import { startOwnServer, type OwnServer, ownPort } from './own-server';

/**
 * Access reviews in both generations. On a server of the spec's own whose clock runs 91 days ahead,
 * every demo user is idle but the administrator who just signed in (issue 32, decision 071): the
 * administrator opens the review from the users list, ticks one idle user and deactivates them — the
 * review lists them no more, and the users list shows them inactive; then "todos da revisão" (issue
 * 42, decision 076) goes through the bulk actions' preview and job and leaves the review empty. On
 * the shared server, read only: the demo's own idle users are there to try it with.
 */
const PORT = ownPort('access-reviews');

let server: OwnServer | undefined;
const ownServer = async () => {
  server ??= await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: '91' });
  return server;
};
test.afterAll(() => server?.dispose());

const CASES = [
  {
    account: ACCOUNTS.legacySupport,
    users: '/consulta-usuarios',
    review: '/revisao-acessos',
    idle: 'vendedor@legado.demo',
    // Idle in the demo's own data, and so still there for "todos" after the first journey.
    demoIdle: 'otavio.nunes@legado.demo',
    name: 'v1',
  },
  {
    account: ACCOUNTS.partnerAdmin,
    users: '/v2/usuario/cadastro/consulta',
    review: '/v2/usuario/revisao-acessos',
    idle: 'parceiro@parceiro.demo',
    demoIdle: 'lucas.moreira@parceiro.demo',
    name: 'v2',
  },
] as const;

test('an administrator deactivates users idle for 90 days, in both generations', async ({ browser }) => {
  test.setTimeout(240_000);
  const { base } = await ownServer();
  for (const c of CASES) {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signIn(page, c.account);
    await page.goto(c.users);
    await page.getByTestId('revisao-acessos').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Revisão de acessos' })).toBeVisible();
    const row = page.getByTestId(`inativo-${c.idle}`);
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: /^\d+$/ })).toHaveText(/^(9[1-9]|[1-9]\d{2,})$/);
    // Who just signed in is not idle.
    await expect(page.getByTestId(`inativo-${c.account.email}`)).toHaveCount(0);
    await screenshotsAt(page, 'access-reviews', `${c.name}-list`);
    // Nothing ticked: said so, nothing done.
    await page.getByRole('button', { name: 'Desativar selecionados' }).click();
    await expect(page.getByTestId('erro')).toHaveText('Selecione ao menos um usuário para desativar.');
    await page.getByTestId(`inativo-${c.idle}`).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Desativar selecionados' }).click();
    await expect(page.getByTestId('aviso')).toHaveText('1 usuário desativado.');
    await expect(page.getByTestId(`inativo-${c.idle}`)).toHaveCount(0);
    await page.goto(`${c.users}?email=${c.idle}`);
    await expect(page.getByTestId(`usuario-${c.idle}`).getByTestId('situacao')).toHaveText('Inativo');
    await context.close();
  }
});

/** The number the review's "todos" button gives ("Todos os 12 da revisão…"). */
async function allCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('revisao-todos').textContent()) ?? '';
  const match = /^Todos os ([\d.]+) da revisão…$/.exec(label.trim());
  expect(match, label).not.toBeNull();
  return Number(match![1]!.replace(/\./g, ''));
}

test('"todos da revisão": previewed, confirmed, done as a job, each still idle deactivated — in both generations', async ({ browser }) => {
  test.setTimeout(240_000);
  const { base } = await ownServer();
  for (const c of CASES) {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signIn(page, c.account);
    await page.goto(c.review);
    const count = await allCount(page);
    expect(count).toBeGreaterThan(1);
    await screenshotsAt(page, 'access-reviews', `${c.name}-todos`);
    await expect(page.getByTestId(`inativo-${c.demoIdle}`)).toBeVisible();
    await page.getByTestId('revisao-todos').click();
    // The bulk actions' own preview, saying what it does to how many, with the way back to the review.
    await expect(page.getByRole('heading', { level: 1, name: 'Revisar ação em lote' })).toBeVisible();
    const preview = page.getByTestId('previa');
    await expect(preview.getByRole('heading', { level: 2 })).toHaveText('Desativar quem segue sem entrar há 90 dias (revisão de acessos)');
    await expect(preview).toContainText('Seleção: todos da revisão de acessos (sem entrar há 90 dias ou mais)');
    await expect(page.getByRole('link', { name: '← Revisão de acessos' })).toHaveAttribute('href', c.review);
    const changing = Number(((await page.getByTestId('alterar').locator('strong').textContent()) ?? '').replace(/\D/g, ''));
    expect(changing).toBeGreaterThan(1);
    expect(changing).toBeLessThanOrEqual(count);
    await screenshotsAt(page, 'access-reviews', `${c.name}-todos-previa`);
    await page.getByTestId('confirmar-lote').click();
    await expect(page.getByTestId('lote')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 60_000 });
    await expect(page.getByTestId('resumo').locator('[data-result="alterado"]')).toContainText(String(changing));
    await screenshotsAt(page, 'access-reviews', `${c.name}-todos-resumo`);
    await page.getByRole('link', { name: 'Voltar à revisão de acessos' }).click();
    await expect(page).toHaveURL(new RegExp(`${c.review}$`));
    // Whoever the administrator may change is gone from the review; only those outside it may stay.
    const left = page.getByTestId('inativos').locator('tbody tr');
    await expect(left).toHaveCount(count - changing);
    await page.goto(`${c.users}?email=${c.demoIdle}`);
    await expect(page.getByTestId(`usuario-${c.demoIdle}`).getByTestId('situacao')).toHaveText('Inativo');
    await context.close();
  }
});

test('the demo has users idle for months in both generations, for the review to show', async ({ page }) => {
  for (const [account, review, idle] of [
    [ACCOUNTS.legacySupport, '/revisao-acessos', ['otavio.nunes@legado.demo', 'silvia.prado@legado.demo']],
    [ACCOUNTS.partnerAdmin, '/v2/usuario/revisao-acessos', ['lucas.moreira@parceiro.demo', 'renata.dias@parceiro.demo']],
  ] as const) {
    await signIn(page, account);
    await page.goto(review);
    for (const email of idle) await expect(page.getByTestId(`inativo-${email}`)).toBeVisible();
    await expect(page.getByTestId('revisao-todos')).toBeVisible();
    await page.context().clearCookies();
  }
});
