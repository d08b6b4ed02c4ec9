import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, screenshotsAt } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * Issue 32 (decision 071), access reviews in both generations: on a server whose clock runs 91 days
 * ahead, every demo user is idle but the administrator who just signed in; the administrator opens the
 * review from the users list, ticks one idle user and deactivates them — the review lists them no
 * more, and the users list shows them inactive.
 */
// Inside this slice's port range: E2E_PORT (the shared server) + 5.
const PORT = Number(process.env.E2E_PORT ?? 4540) + 5;

let server: OwnServer | undefined;
test.afterAll(() => server?.dispose());

test('an administrator deactivates users idle for 90 days, in both generations', async ({ browser }) => {
  test.setTimeout(240_000);
  server = await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: '91' });
  const cases = [
    { account: ACCOUNTS.legacySupport, users: '/consulta-usuarios', idle: 'vendedor@legado.demo', name: 'v1' },
    { account: ACCOUNTS.partnerAdmin, users: '/v2/usuario/cadastro/consulta', idle: 'parceiro@parceiro.demo', name: 'v2' },
  ] as const;
  for (const c of cases) {
    const context = await browser.newContext({ baseURL: server.base });
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
