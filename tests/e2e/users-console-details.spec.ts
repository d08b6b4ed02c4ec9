import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, screenshotsAt, signIn } from './helpers';

/**
 * Issue 42's details of the users console, on the shared server (nothing here is saved): the legacy
 * "válido até" days start at Brasília's today and a day beside an unchecked group or permission is
 * told before saving and refused after; the legacy user page names its permissions; /favicon.ico is
 * the portal's icon. Screenshots under test-results/users-console.
 */

/** Brasília's today as the date inputs take it: read before and after, so a run across midnight passes. */
const brasiliaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const shoot = (page: Page, name: string) => screenshotsAt(page, 'users-console', name);

async function expectMinToday(page: Page, label: string) {
  const before = brasiliaToday();
  const min = await page.getByLabel(label).getAttribute('min');
  expect([before, brasiliaToday()]).toContain(min);
}

test('the legacy "válido até": no past day offered, and a day beside an unchecked group or permission is told and refused', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.legacySupport);
  // A user's groups: Sílvia holds CONSULTOR, not VENDEDOR.
  await page.goto('/consulta-usuarios?email=silvia.prado@legado.demo');
  await page.getByRole('link', { name: 'Editar Sílvia Prado' }).click();
  await expectMinToday(page, 'CONSULTOR: válido até');
  await expectMinToday(page, 'VENDEDOR: válido até');
  const stray = page.locator('[data-concessao]', { has: page.getByLabel('VENDEDOR: válido até') });
  await page.getByLabel('VENDEDOR: válido até').fill('2099-12-31');
  // Told before saving…
  await expect(stray.locator('[data-nota-validade]')).toHaveText('Marque o grupo para que esta data valha.');
  await shoot(page, 'legacy-user-unchecked');
  // …and refused, with the day shown again, when saved anyway.
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.locator('#usuario-grupos-erro')).toContainText(
    'VENDEDOR: Há uma data em "válido até", mas o grupo não está marcado: marque o grupo ou apague a data.',
  );
  await expect(page.getByLabel('VENDEDOR: válido até')).toHaveValue('2099-12-31');
  // Checking the group takes the note away.
  await stray.getByRole('checkbox').check();
  await expect(stray.locator('[data-nota-validade]')).toHaveText('');
  await stray.getByRole('checkbox').uncheck();
  await page.getByLabel('VENDEDOR: válido até').fill('');
  // A day past typed by hand is told too (the picker offers none).
  await page.getByLabel('CONSULTOR: válido até').fill('2020-01-01');
  await expect(
    page.locator('[data-concessao]', { has: page.getByLabel('CONSULTOR: válido até') }).locator('[data-nota-validade]'),
  ).toHaveText('A data de fim já passou: escolha hoje ou um dia adiante.');

  // A group's permissions: a day beside one with neither "Visualizar" nor "Alterar".
  await page.goto('/grupo-acesso/CONSULTOR/portal/editar');
  await expectMinToday(page, 'Informe de rendimentos: válido até (opcional)');
  await page.getByLabel('Informe de rendimentos: válido até (opcional)').fill('2099-12-31');
  const row = page.getByRole('row', { name: /Informe de rendimentos/ });
  await expect(row.locator('[data-nota-validade]')).toHaveText('Marque "Visualizar" ou "Alterar" para que esta data valha.');
  await shoot(page, 'legacy-group-unchecked');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('erro-validade')).toContainText(
    'FINANCEIRO_INFORME_RENDIMENTO: Há uma data em "válido até", mas nem "Visualizar" nem "Alterar" estão marcados',
  );
  await expect(page.getByLabel('Informe de rendimentos: válido até (opcional)')).toHaveValue('2099-12-31');
});

test('the legacy user page names each permission, its code beside it', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySupport);
  await page.goto('/consulta-usuarios?email=vendedor@legado.demo');
  await page.getByTestId('usuario-vendedor@legado.demo').getByTestId('pagina-usuario').click();
  const grants = page.getByTestId('operacoes');
  await expect(grants.locator('li[data-codigo="HISTORICO_VENDAS"] strong')).toHaveText('Histórico de vendas');
  await expect(grants.locator('li[data-codigo="HISTORICO_VENDAS"] code')).toHaveText('HISTORICO_VENDAS');
  await expect(grants.locator('li[data-codigo="RELATORIO_GESTAO"] strong')).toHaveText('Relatório de vendas (gestão)');
  // No permission is named by its bare code.
  for (const item of await grants.locator('li').all())
    expect(await item.locator('strong').textContent()).not.toBe(await item.getAttribute('data-codigo'));
  // The menu's reasons name them too.
  await expect(page.getByTestId('permissoes-efetivas')).toContainText('Grupo VENDEDOR: Relatório de vendas (gestão)');
  await shoot(page, 'legacy-user-page');
});

test('/favicon.ico is the portal’s icon, and the pages name it', async ({ page, request }) => {
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  // An ICO file: reserved 0, type 1 (icon), then its images.
  const bytes = await icon.body();
  expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  await page.goto('/signin');
  await expect(page.locator('head link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
  await expect(page.locator('head link[rel="icon"][href="/favicon.svg"]')).toHaveCount(1);
});
