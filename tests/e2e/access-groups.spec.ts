import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, completeFirstAccess, openDrawer, path, screenshotsAt, signIn } from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 16, the groups that hold permissions (decision 047): the legacy admin group creates an
 * access group in a channel, gives it to a new user, adds a permission — and that user's menu and
 * pages change on their next page, without signing out, and the permission gets an end date; a v2
 * partner administrator creates a permission group, one operation with an end date, and previews the
 * menu its users will see. Screenshots under test-results/groups-screens.
 */
const stamp = () => `${Date.now() % 1_000_000_000}${Math.floor(Math.random() * 100)}`;

const shoot = (page: Page, name: string) => screenshotsAt(page, 'groups-screens', name);

test('legacy: a new access group in a channel, given to a user; a permission added reaches them on their next page', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  const group = `LOJA_${id}`;
  const email = `loja.${id}@legado.demo`;
  await signIn(page, ACCOUNTS.legacySupport);
  await page.goto('/grupo-acesso');
  await expect(page.getByRole('heading', { level: 1, name: 'Grupos de acesso' })).toBeVisible();
  await expect(page.getByTestId('canal-portal').getByTestId('grupo-VENDEDOR')).toBeVisible();
  await expect(page.getByTestId('canal-varejo').getByTestId('grupo-LOJISTA')).toBeVisible();
  await shoot(page, 'legacy-groups');

  // A new group in the retail channel: bad input first, then the permissions.
  await page.getByTestId('canal-varejo').getByRole('link', { name: 'Novo grupo' }).click();
  await expect(page).toHaveURL(path('/grupo-acesso/novo/varejo/novo'));
  await page.getByLabel('Nome do grupo').fill('lo ja');
  await page.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(page.getByLabel('Nome do grupo')).toHaveAccessibleDescription(/^Use de 3 a 40 letras maiúsculas/);
  await expect(page.getByLabel('Descrição')).toHaveAccessibleDescription('Descreva o grupo em até 200 caracteres.');
  await page.getByLabel('Nome do grupo').fill('LOJISTA');
  await page.getByLabel('Descrição').fill('Lojas da rede: Residencial e histórico');
  await page.getByRole('checkbox', { name: 'Vender Residencial: visualizar' }).check();
  await page.getByRole('checkbox', { name: 'Histórico de vendas: visualizar' }).check();
  await page.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(page.getByLabel('Nome do grupo')).toHaveAccessibleDescription('Já existe um grupo com este nome.');
  await expect(page.getByRole('checkbox', { name: 'Vender Residencial: visualizar' })).toBeChecked();
  await page.getByLabel('Nome do grupo').fill(group);
  await shoot(page, 'legacy-group-form');
  await page.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(page).toHaveURL(path('/grupo-acesso', `salvo=${group}`));
  await expect(page.getByTestId(`grupo-${group}`)).toContainText('2');

  // A user of the group, who completes the first access.
  await page.goto('/cadastrar-usuario');
  await page.getByLabel('Nome completo').fill('Otávio Reis');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('CPF').fill(cpfFor(Number(id) + 11));
  await page.getByLabel('Empresa').selectOption('11222333000181');
  await page.getByRole('checkbox', { name: group, exact: true }).check();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByTestId('aviso')).toContainText('Usuário cadastrado');
  const user = await completeFirstAccess(browser, email, 'v1', 'Loja#Acesso2026');
  expect((await user.page.goto('/informe-rendimentos'))?.status()).toBe(403);
  let drawer = await openDrawer(user.page);
  await expect(drawer.getByRole('button', { name: 'Financeiro' })).toHaveCount(0);

  // The admin adds the income statement to the group; the user, still signed in, sees it next page.
  await page.goto(`/grupo-acesso/${group}/varejo/visualizar`);
  await expect(page.getByRole('checkbox', { name: 'Histórico de vendas: visualizar' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Histórico de vendas: visualizar' })).toBeDisabled();
  await page.getByRole('link', { name: 'Editar' }).click();
  await expect(page).toHaveURL(path(`/grupo-acesso/${group}/varejo/editar`));
  await page.getByRole('checkbox', { name: 'Informe de rendimentos: visualizar' }).check();
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('aviso')).toContainText(`Grupo ${group} salvo`);

  await user.page.goto('/home');
  drawer = await openDrawer(user.page);
  await drawer.getByRole('button', { name: 'Financeiro' }).click();
  await expect(drawer.getByRole('link', { name: 'Informe de Rendimento' })).toBeVisible();
  expect((await user.page.goto('/informe-rendimentos'))?.status()).toBe(200);
  await user.context.close();

  // A permission that ends (decision 071): a day past is refused in words, a day ahead kept and shown.
  await page.goto(`/grupo-acesso/${group}/varejo/editar`);
  await page.getByLabel('Informe de rendimentos: válido até (opcional)').fill('2020-01-01');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('erro-validade')).toContainText('A data de fim já passou');
  await page.getByLabel('Informe de rendimentos: válido até (opcional)').fill('2099-12-31');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('aviso')).toContainText(`Grupo ${group} salvo`);
  await page.goto(`/grupo-acesso/${group}/varejo/visualizar`);
  await expect(page.getByRole('row', { name: /Informe de rendimentos/ })).toContainText('31/12/2099');

  // The admin group is shown, never edited; an unknown group or a group under another channel is the 404 page.
  await page.goto('/grupo-acesso/ADMINISTRADOR/portal/visualizar');
  await expect(page.getByText('tem todas as permissões do portal legado')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Editar' })).toHaveCount(0);
  expect((await page.goto(`/grupo-acesso/${group}/portal/visualizar`))?.status()).toBe(404);
  expect((await page.goto('/grupo-acesso/NAO_EXISTE/portal/editar'))?.status()).toBe(404);
});

test('legacy: a partner’s manager reads the groups but changes none', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacyManager);
  await page.goto('/grupo-acesso');
  await expect(page.getByText('Somente o grupo administrador altera grupos de acesso.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Novo grupo' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Visualizar VENDEDOR' }).click();
  await expect(page.getByRole('checkbox', { name: 'Histórico de vendas: visualizar' })).toBeChecked();
  expect((await page.goto('/grupo-acesso/VENDEDOR/portal/editar'))?.status()).toBe(404);
});

test('v2: the partner’s administrator creates a permission group, previews its menu, and finds it listed', async ({ page }) => {
  const name = `Gerente de loja ${stamp()}`;
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/usuario/permissoes/consulta');
  await expect(page.getByRole('heading', { level: 1, name: 'Grupos de permissões' })).toBeVisible();
  await expect(page.getByTestId('grupo-Vendedor de loja')).toContainText('2');
  await shoot(page, 'v2-groups');
  await page.getByTestId('novo-grupo').click();
  await expect(page).toHaveURL(path('/v2/usuario/permissoes/cadastro'));
  const preview = page.getByTestId('previa-menu');
  // Without operations, a seller of the company sees only what every seller sees.
  await expect(preview).toContainText('Conquista Premiada');
  await expect(preview).not.toContainText('Evolução de vendas');

  await page.getByLabel('Empresa', { exact: true }).selectOption('11222333000181');
  await page.getByLabel('Nome do grupo').fill('Vendedor de loja');
  await page.getByRole('checkbox', { name: 'Métricas' }).check();
  await page.getByRole('button', { name: 'Pré-visualizar menu' }).click();
  await expect(preview).toContainText('Evolução de vendas');
  await expect(preview).not.toContainText('Relatórios');
  await page.getByRole('checkbox', { name: 'Relatório de vendas' }).check();
  await page.getByRole('button', { name: 'Pré-visualizar menu' }).click();
  await expect(preview).toContainText('Relatórios');
  await expect(page.getByRole('checkbox', { name: 'Métricas' })).toBeChecked();
  // A checked operation may end (decision 071): its day travels with the form.
  await page.getByLabel('Métricas: válido até (opcional)').fill('2099-12-31');
  await shoot(page, 'v2-group-preview');

  await page.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(page.getByLabel('Nome do grupo')).toHaveAccessibleDescription('Já existe um grupo com este nome.');
  await page.getByLabel('Nome do grupo').fill(name);
  await page.getByRole('button', { name: 'Criar grupo' }).click();
  await expect(page).toHaveURL(/\/v2\/usuario\/permissoes\/sucesso\?grupo=\d+&empresa=11222333000181$/);
  await expect(page.getByTestId('aviso')).toContainText(name);
  await expect(page.getByTestId('previa-menu')).toContainText('Evolução de vendas');
  await page.getByRole('link', { name: 'Ver o grupo' }).click();
  await expect(page.getByRole('checkbox', { name: 'Relatório de vendas' })).toBeChecked();
  await expect(page.getByText('até 31/12/2099')).toBeVisible();

  // Listed, filtered by name; another company's address for it is the 404 page.
  await page.goto(`/v2/usuario/permissoes/consulta?nome=${encodeURIComponent(name)}`);
  await expect(page.getByTestId('grupos').locator('tbody tr')).toHaveCount(1);
  const href = await page.getByRole('link', { name: `Editar ${name}` }).getAttribute('href');
  expect((await page.goto(href!.replace('11222333000181', '33444555000181')))?.status()).toBe(404);
});
