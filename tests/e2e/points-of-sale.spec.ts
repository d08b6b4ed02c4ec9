import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, completeFirstAccess, path, screenshotsAt, signIn } from './helpers';
import { cpfFor, sellResidential } from './selling';

/**
 * Issue 17, points of sale as a partner's administrator runs them (decision 051): a new shop with
 * its address and a seller who works there; the seller sells; the sale shows in the metrics filtered
 * by that shop and on the policy; a shop with sellers is not closed until they are moved, and a
 * closed shop stays in the history. Bad input is a pt-BR message and nothing is stored. Screenshots
 * at 1366 and 390 px under test-results/points-of-sale-screens.
 */
const HORIZONTE = '11222333000181';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const shoot = (page: Page, name: string) => screenshotsAt(page, 'points-of-sale-screens', name);

test('the partner’s administrator opens a shop and puts a seller there, who sells; the sale shows in the metrics filtered by the shop', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const id = stamp();
  const code = `PV-${id.slice(-6)}`;
  const shop = `Quiosque Shopping ${id.slice(-6)}`;
  const email = `sofia.${id}@parceiro.demo`;
  await signIn(page, ACCOUNTS.partnerAdmin);

  // The seller: registered as issue 16's pages do (here through its API, with the administrator's
  // session), then their first access from the e-mailed code.
  const registered = await page.request.post('/api/plataforma/v1/usuarios', {
    headers: { 'x-portal-session': 'cookie', origin: new URL(page.url()).origin },
    data: {
      cpf: cpfFor(Number(id.slice(-9)) + 17),
      nome: 'Sofia Ramos',
      email,
      celular: '(11) 97777-6543',
      perfil: 'PARCEIRO',
      empresas: [HORIZONTE],
      pontoVenda: '',
      operacoes: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', 'APOLICE_VENDEDOR', 'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL'],
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const seller = await completeFirstAccess(browser, email, 'v2', 'Primeiro#Acesso4');

  // Acesso › Ponto de Venda lists the companies' shops.
  await page.goto('/v2/home');
  await page.goto('/v2/ponto-venda/consulta');
  await expect(page.getByRole('heading', { level: 1, name: 'Pontos de venda' })).toBeVisible();
  await expect(page.getByTestId('ponto-venda-PV-0001')).toContainText('São Paulo/SP');
  await shoot(page, 'consulta');

  // A new shop, with bad input first: every field says what is wrong, nothing is stored.
  await page.getByTestId('novo-ponto-venda').click();
  await expect(page).toHaveURL(path('/v2/ponto-venda/cadastro'));
  await page.getByLabel('Código').fill('-x');
  await page.getByLabel('CEP').fill('123');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByTestId('erro')).toHaveText('Verifique os campos destacados.');
  await expect(page.getByLabel('Empresa')).toHaveAccessibleDescription('Selecione uma empresa que você administra.');
  await expect(page.getByLabel('Código')).toHaveAccessibleDescription(/Use de 1 a 20 letras, números ou hífens/);
  await expect(page.getByLabel('Nome', { exact: true })).toHaveAccessibleDescription(
    'Informe o nome do ponto de venda (de 3 a 80 caracteres).',
  );
  await expect(page.getByLabel('CEP')).toHaveAccessibleDescription('Informe o CEP com 8 dígitos.');
  await expect(page.getByLabel('UF')).toHaveAccessibleDescription('Escolha a UF.');
  await expect(page.getByLabel('Código')).toHaveValue('-x');
  await shoot(page, 'cadastro-erros');

  // A code the company has already, in another case: refused by name.
  await page.getByLabel('Empresa').selectOption(HORIZONTE);
  await page.getByLabel('Código').fill('pv-0001');
  await page.getByLabel('Nome', { exact: true }).fill(shop);
  await page.getByLabel('CEP').fill('02011-000');
  await page.getByLabel('Logradouro').fill('Avenida Otto Baumgart');
  await page.getByLabel('Número', { exact: true }).fill('500');
  await page.getByLabel('Complemento (opcional)').fill('Piso 1, quiosque 12');
  await page.getByLabel('Bairro').fill('Vila Guilherme');
  await page.getByLabel('Cidade').fill('São Paulo');
  await page.getByLabel('UF').selectOption('SP');
  const box = page.getByRole('checkbox', { name: new RegExp(email.replace(/\./g, '\\.')) });
  await expect(box.locator('xpath=..')).toContainText('Sem ponto de venda');
  await box.check();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByLabel('Código')).toHaveAccessibleDescription('Já existe um ponto de venda com este código nesta empresa.');
  await expect(box).toBeChecked();

  await page.getByLabel('Código').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/v2\/ponto-venda\/sucesso\?pontoVenda=\d+&aviso=criado$/);
  await expect(page.getByTestId('aviso')).toContainText('Ponto de venda cadastrado.');
  const saved = page.getByTestId('salvo');
  await expect(saved).toContainText(code);
  await expect(saved).toContainText('Avenida Otto Baumgart, 500, Piso 1, quiosque 12 — Vila Guilherme, São Paulo/SP — CEP 02011-000');
  await expect(saved.getByTestId('vendedores')).toContainText('Sofia Ramos');
  await shoot(page, 'sucesso');
  const view = page.getByRole('link', { name: 'Ver o ponto de venda' });
  const viewHref = (await view.getAttribute('href'))!;

  // The seller sells: the proposal is accepted at once and the policy names the shop.
  await sellResidential(seller.page);
  await seller.page.getByTestId('nr-apolice').click();
  await expect(seller.page.getByText(shop)).toBeVisible();
  await seller.context.close();

  // The metrics, filtered by the shop, count that policy.
  await page.goto('/v2/metricas/evolucao-vendas');
  await page.getByLabel('Empresa').selectOption(HORIZONTE);
  await page.getByLabel('Ponto de venda').selectOption({ label: `${shop} (${code}) — Horizonte Seguros` });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(new RegExp(`pontoVenda=${code}`));
  await expect(page.getByTestId('total-apolices')).toHaveText('1');

  // Closing the shop while she works there is refused, and says why; moving her out lets it close.
  await page.goto(viewHref);
  await expect(page.getByTestId('vendedores')).toContainText('Sofia Ramos');
  await shoot(page, 'visualizar');
  await page.getByRole('link', { name: 'Editar', exact: true }).click();
  await expect(page).toHaveURL(/\/editar$/);
  await expect(box).toBeChecked();
  await expect(box.locator('xpath=..')).toContainText('Trabalha aqui');
  await page.getByLabel('Situação').selectOption('inativo');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByLabel('Situação')).toHaveAccessibleDescription(
    /Não é possível desativar: há 1 vendedor ativo neste ponto de venda/,
  );
  await shoot(page, 'editar-recusado');
  await box.uncheck();
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByTestId('aviso')).toContainText('Ponto de venda alterado.');
  await expect(page.getByTestId('salvo')).toContainText('Inativo');
  await expect(page.getByTestId('sem-vendedores')).toBeVisible();

  // The list says so; the metrics still offer it for its history, marked inactive.
  await page.goto(`/v2/ponto-venda/consulta?busca=${code.toLowerCase()}`);
  const row = page.getByTestId(`ponto-venda-${code}`);
  await expect(row.getByTestId('situacao')).toHaveText('Inativo');
  await expect(row.getByTestId('vendedores')).toHaveText('0');
  await page.goto(`/v2/metricas/evolucao-vendas?empresa=${HORIZONTE}&pontoVenda=${code}`);
  await expect(page.getByLabel('Ponto de venda').locator('option:checked')).toHaveText(`${shop} (${code}) — Horizonte Seguros — inativo`);
  await expect(page.getByTestId('total-apolices')).toHaveText('1');

  // A point of sale that is not one of theirs (here: none), or an action the page does not have, is the 404 page.
  for (const address of ['/v2/ponto-venda/cadastro/999999/editar', `${viewHref.replace('/visualizar', '/excluir')}`]) {
    const response = await page.goto(address);
    expect(response?.status()).toBe(404);
  }
});

test('the list, the form with its messages and a point of sale’s page have no serious accessibility problem (axe)', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  const scan = async (what: string) => {
    const { violations } = await new AxeBuilder({ page }).include('main').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
    expect(serious, what).toEqual([]);
  };
  await page.goto('/v2/ponto-venda/consulta');
  await scan('consulta');
  await page.goto('/v2/ponto-venda/cadastro');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByTestId('erro')).toBeVisible();
  await scan('cadastro com erros');
  await page.goto('/v2/ponto-venda/cadastro/1/visualizar');
  await scan('visualizar');
});
