import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, completeFirstAccess, gotoHydrated, path, screenshotsAt, signIn, submitLogin } from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 16, user administration as a partner's administrator does it (decision 046): the legacy
 * list (four per page, the page in the address), form and edit; a deactivation that ends the user's
 * open session at once; the v2 registration in steps that a reload or another visit resumes, ending
 * in the first-access e-mail the new user completes. Screenshots under test-results/users-screens.
 */
const HORIZONTE = '11222333000181';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

const shoot = (page: Page, name: string) => screenshotsAt(page, 'users-screens', name);

test('legacy: the admin group creates, edits and filters users four per page, and a deactivation ends the user’s open session', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  const email = `lote.${id}@legado.demo`;
  await signIn(page, ACCOUNTS.legacySupport);
  await page.goto('/consulta-usuarios');
  await expect(page.getByRole('heading', { level: 1, name: 'Usuários' })).toBeVisible();
  // The list leads to the import and the access groups (issue 27).
  await expect(page.getByTestId('importar-usuarios')).toHaveAttribute('href', '/importar-usuarios');
  await expect(page.getByTestId('grupos')).toHaveAttribute('href', '/grupo-acesso');
  await shoot(page, 'legacy-list');

  // Bad input: every field says what is wrong, nothing is stored.
  await page.getByTestId('novo-usuario').click();
  await expect(page).toHaveURL(path('/cadastrar-usuario'));
  await page.getByLabel('CPF').fill('111.111.111-11');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByLabel('Nome completo')).toHaveAccessibleDescription('Informe o nome completo (nome e sobrenome).');
  await expect(page.getByLabel('CPF')).toHaveAccessibleDescription('CPF inválido.');
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('E-mail obrigatório');
  // A legacy user without a group could do nothing: one is required (issue 27).
  await expect(page.getByRole('group', { name: 'Grupos de acesso' })).toHaveAccessibleDescription('Selecione ao menos um grupo de acesso.');
  await expect(page.getByLabel('CPF')).toHaveValue('111.111.111-11');
  // Issue 27: filled, but not an address — its own message, not "obrigatório".
  await page.getByLabel('E-mail').fill('sem-arroba');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('E-mail inválido');
  await expect(page.getByLabel('E-mail')).toHaveValue('sem-arroba');
  await shoot(page, 'legacy-form-errors');

  // A duplicate e-mail is refused by name.
  const form = {
    nome: page.getByLabel('Nome completo'),
    email: page.getByLabel('E-mail'),
    cpf: page.getByLabel('CPF'),
  };
  await form.nome.fill('Lúcia Fontes');
  await form.email.fill(ACCOUNTS.legacySeller.email);
  await form.cpf.fill(cpfFor(Number(id.slice(-9))));
  await page.getByLabel('Empresa').selectOption(HORIZONTE);
  await page.getByRole('checkbox', { name: 'VENDEDOR' }).check();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(form.email).toHaveAccessibleDescription('E-mail já cadastrado para outro usuário.');

  await form.email.fill(email);
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(path('/consulta-usuarios'));
  await expect(page.getByTestId('aviso')).toContainText('Usuário cadastrado');

  // Filter by e-mail: the new user is pending until the first access.
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  const row = page.getByTestId(`usuario-${email}`);
  await expect(row.getByTestId('situacao')).toHaveText('Pendente (1º acesso)');

  // Edit: the name changes.
  await row.getByRole('link', { name: 'Editar Lúcia Fontes' }).click();
  await expect(page).toHaveURL(/\/editar-usuario\/\d+$/);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await page.getByLabel('Nome completo').fill('Lúcia Fontes Prado');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('aviso')).toHaveText('Usuário alterado.');

  // Four per page, the page in the address: a reload keeps it.
  await page.goto('/consulta-usuarios');
  await expect(page.getByTestId('usuarios').locator('tbody tr')).toHaveCount(4);
  await page.getByRole('link', { name: 'Próxima' }).click();
  await expect(page).toHaveURL(path('/consulta-usuarios', 'pagina=2'));
  const second = await page.getByTestId('usuarios').locator('tbody tr').allTextContents();
  await page.reload();
  await expect(page.getByText('Página 2 de')).toBeVisible();
  expect(await page.getByTestId('usuarios').locator('tbody tr').allTextContents()).toEqual(second);
  // Issue 27: an address with a page past the last shows the last page, one with no page number the
  // first — not "Nenhum usuário encontrado" nor a refusal.
  const lastPage = Number((await page.getByText(/^Página 2 de \d+$/).textContent())!.replace(/\D+/g, ' ').trim().split(' ')[1]);
  await page.goto('/consulta-usuarios?pagina=999');
  await expect(page.getByText(`Página ${lastPage} de ${lastPage}`)).toBeVisible();
  expect(await page.getByTestId('usuarios').locator('tbody tr').count()).toBeGreaterThan(0);
  await expect(page.getByText('Nenhum usuário encontrado')).toHaveCount(0);
  await page.goto('/consulta-usuarios?pagina=abc');
  await expect(page.getByText(`Página 1 de ${lastPage}`)).toBeVisible();
  await expect(page.getByTestId('usuarios').locator('tbody tr')).toHaveCount(4);
  // Filters and page together: the filter narrows to the seed's Horizonte and keeps the page size.
  await page.goto('/consulta-usuarios?empresa=Horizonte&status=ATIVO');
  await expect(page.getByLabel('Situação')).toHaveValue('ATIVO');
  await expect(page.getByTestId('usuarios').locator('tbody tr')).toHaveCount(4);
  // The next page keeps the filter in the address, and so does a reload of it.
  await page.getByRole('link', { name: 'Próxima' }).click();
  await expect(page).toHaveURL(/pagina=2/);
  const filtered = new URL(page.url()).searchParams;
  expect([filtered.get('empresa'), filtered.get('status')]).toEqual(['Horizonte', 'ATIVO']);
  await page.reload();
  await expect(page.getByText('Página 2 de')).toBeVisible();
  await expect(page.getByLabel('Situação')).toHaveValue('ATIVO');
  const rows = page.getByTestId('usuarios').locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  for (const company of await rows.locator('td[data-label="Empresa"]').allTextContents()) expect(company).toContain('Horizonte');
  for (const status of await rows.getByTestId('situacao').allTextContents()) expect(status).toBe('Ativo');

  // The new user completes the first access and works; the admin deactivates them; their next page is the sign-in.
  const user = await completeFirstAccess(browser, email, 'v1', 'Primeiro#Acesso1');
  await page.goto(`/consulta-usuarios?email=${encodeURIComponent(email)}`);
  await expect(row.getByTestId('situacao')).toHaveText('Ativo');
  await row.getByRole('button', { name: 'Desativar Lúcia Fontes Prado' }).click();
  await expect(page.getByTestId('aviso')).toContainText('a sessão foi encerrada');
  await expect(row.getByTestId('situacao')).toHaveText('Inativo');
  await user.page.goto('/historico');
  await expect(user.page).toHaveURL(/\/signin|\/login|\/$/);
  await user.page.goto('/home');
  await expect(user.page).not.toHaveURL(path('/home'));
  // Signing in again is refused while inactive.
  await gotoHydrated(user.page, '/signin');
  await submitLogin(user.page, email, 'Primeiro#Acesso1');
  await expect(user.page).not.toHaveURL(path('/home'));
  await user.context.close();
});

test('legacy: a partner’s manager sees only its company’s users and cannot give the admin group', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacyManager);
  await page.goto('/consulta-usuarios');
  await expect(page.getByTestId('usuarios')).toBeVisible();
  // Holding USUARIOS to change, it may import and read the groups: both linked from the list.
  await page.getByTestId('grupos').click();
  await expect(page).toHaveURL(path('/grupo-acesso'));
  await page.goto('/consulta-usuarios');
  await page.getByTestId('importar-usuarios').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Importar usuários' })).toBeVisible();
  await page.goto('/cadastrar-usuario');
  await expect(page.getByRole('checkbox', { name: 'VENDEDOR' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /ADMINISTRADOR/ })).toHaveCount(0);
  // The form offers Horizonte only.
  await expect(page.getByLabel('Empresa').locator('option')).toHaveText([/Horizonte/]);
  // Another company's user is not theirs: the 404 page.
  const response = await page.goto('/editar-usuario/999999');
  expect(response?.status()).toBe(404);
});

test('v2: the partner’s administrator registers a user in steps, resumed after leaving, who completes the first access', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  const email = `vendedora.${id}@parceiro.demo`;
  const cpf = cpfFor(Number(id.slice(-9)) + 7);
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/usuario/cadastro/consulta');
  await expect(page.getByRole('heading', { level: 1, name: 'Usuários' })).toBeVisible();
  // The list leads to the import, which nothing linked before (issue 27), and to the permission groups.
  await expect(page.getByTestId('importar-usuarios')).toHaveAttribute('href', '/v2/usuario/importacao/upload');
  await expect(page.getByTestId('grupos')).toHaveAttribute('href', '/v2/usuario/permissoes/consulta');
  await shoot(page, 'v2-list');
  await page.getByTestId('novo-usuario').click();
  await expect(page).toHaveURL(path('/v2/usuario/cadastro/dados-pessoais'));

  // Step 1, with bad input first: a landline is not a mobile phone; the insurer's profile is not offered.
  await expect(page.getByLabel('Perfil').locator('option', { hasText: 'Administrador da seguradora' })).toHaveCount(0);
  await page.getByLabel('CPF').fill(cpf);
  await page.getByLabel('Nome completo').fill('Marina Alves');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Celular').fill('(11) 3456-7890');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('Celular')).toHaveAccessibleDescription('Celular inválido: use (DD) 9NNNN-NNNN.');
  await page.getByLabel('Celular').fill('(11) 98765-4321');
  await page.getByLabel('Perfil').selectOption('PARCEIRO');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(path(`/v2/usuario/cadastro/vincular-usuario/${cpf}/novo`));
  await shoot(page, 'v2-step-link');

  // Leaving midway and coming back: the first step is kept.
  await page.goto('/v2/home');
  await page.goto(`/v2/usuario/cadastro/dados-pessoais/${cpf}/novo`);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  // A step ahead of the draft goes back to the first it lacks.
  await page.goto(`/v2/usuario/cadastro/finalizacao?cpf=${cpf}&acao=novo`);
  await expect(page).toHaveURL(path(`/v2/usuario/cadastro/vincular-usuario/${cpf}/novo`));

  // Step 2: a substabelecido's company does not fit a PARCEIRO profile.
  await page.getByRole('checkbox', { name: /Vale Verde/ }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('group', { name: 'Empresas' })).toContainText('Empresa incompatível com o perfil escolhido.');
  await page.getByRole('checkbox', { name: /Vale Verde/ }).uncheck();
  await page.getByRole('checkbox', { name: /Horizonte/ }).check();
  await page.getByLabel('Ponto de venda onde vende').selectOption({ label: 'PV-0002 — Loja Savassi — Belo Horizonte' });
  for (const name of ['Cotar e vender', 'Histórico de cotações e propostas', 'Vender Residencial'])
    await page.getByRole('checkbox', { name }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Step 3: the review, then the registration.
  await expect(page).toHaveURL(path('/v2/usuario/cadastro/finalizacao', `cpf=${cpf}&acao=novo`));
  const review = page.getByTestId('revisao');
  await expect(review).toContainText('Marina Alves');
  await expect(review).toContainText('(11) 98765-4321');
  await expect(review).toContainText('PV-0002 — Loja Savassi');
  await shoot(page, 'v2-step-review');
  await page.getByRole('button', { name: 'Confirmar cadastro' }).click();
  await expect(page).toHaveURL(path('/v2/usuario/cadastro/consulta', 'aviso=cadastrado'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByTestId(`usuario-${email}`).getByTestId('situacao')).toHaveText('Pendente (1º acesso)');

  // The new seller completes the first access from the mailbox and reaches the home.
  const user = await completeFirstAccess(browser, email, 'v2', 'Primeiro#Acesso2');
  await expect(user.page.getByRole('heading', { level: 1, name: 'Olá, Marina Alves!' })).toBeVisible();
  await user.context.close();

  // Editing opens the same steps with what the user has.
  await page.reload();
  await page.getByTestId(`usuario-${email}`).getByRole('link', { name: 'Editar Marina Alves' }).click();
  await expect(page).toHaveURL(path(`/v2/usuario/cadastro/dados-pessoais/${cpf}/editar`));
  await expect(page.getByLabel('Celular')).toHaveValue('(11) 98765-4321');
  // Someone else's user (the insurer's admin) is not theirs: the 404 page.
  const response = await page.goto('/v2/usuario/cadastro/dados-pessoais/39053344705/editar');
  expect(response?.status()).toBe(404);
});
