import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands, screenshotsAt } from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 32 (decision 070), bulk actions on the users lists: users created through the real import
 * screen, filtered, all of the filter deactivated — the preview says how many, the job page reloads
 * itself until the summary — in v2 with fifty; in the legacy list, two rows checked and given a
 * group, and the filtered list exported. Every page at 1366 and 390 px without sideways scroll.
 */

const shoot = (page: Page, name: string) => screenshotsAt(page, 'bulk-screens', name);
/** A number in letters (a full name is made of words, not codes): 0 → a, 12 → bc. */
const letters = (n: number) => [...String(n)].map((d) => String.fromCharCode(97 + Number(d))).join('');

async function importUsers(page: Page, start: string, header: string, rows: string[]) {
  await page.goto(start);
  await waitForIslands(page);
  const buffer = Buffer.from(`\uFEFF${[header, ...rows].join('\r\n')}`, 'utf8');
  await page.setInputFiles('#arquivo', { name: 'lote.csv', mimeType: 'text/csv', buffer });
  await expect(page.getByTestId('previa-arquivo')).toContainText('lote.csv');
  await page.getByRole('button', { name: 'Enviar e validar' }).click();
  await expect(page.getByTestId('contagem')).toContainText(`${rows.length} válidas`);
  await page.getByRole('button', { name: 'Confirmar importação' }).click();
  await expect(page.getByTestId('importacao')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 60_000 });
}

test('v2: fifty users of a filter deactivated in bulk, with the preview and the progress', async ({ page }) => {
  test.setTimeout(240_000);
  const tag = `Lote${letters(Date.now() % 1_000_000)}`;
  await signIn(page, ACCOUNTS.partnerAdmin);
  const rows = Array.from({ length: 50 }, (_, i) => {
    const n = letters(i + 10);
    return `${tag} Pessoa ${n[0]!.toUpperCase()}${n.slice(1)};${tag.toLowerCase()}.${n}@exemplo.com.br;${cpfFor((Date.now() % 10_000_000) + i * 7)};(11) 98765-${String(1000 + i)};PARCEIRO;11222333000181;;;COTAR_VENDER;`;
  });
  await importUsers(
    page,
    '/v2/usuario/importacao/upload',
    'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao',
    rows,
  );

  await page.goto(`/v2/usuario/cadastro/consulta?nome=${tag}&tamanho=25`);
  await expect(page.getByTestId('usuarios').locator('caption')).toContainText('50 usuários');
  await expect(page.getByTestId('usuarios').locator('tbody tr')).toHaveCount(25);
  await expect(page.getByRole('checkbox', { name: new RegExp(`^Selecionar ${tag} Pessoa Ba$`) })).toBeVisible();
  await shoot(page, 'v2-lista');
  const bulk = page.getByTestId('acao-em-lote');
  await bulk.getByLabel('Todos os 50 usuários do filtro').check();
  await bulk.getByLabel('Ação').selectOption('desativar');
  await bulk.getByTestId('revisar-lote').click();

  await expect(page.getByRole('heading', { level: 1, name: 'Revisar ação em lote' })).toBeVisible();
  await expect(page.getByTestId('alterar')).toHaveText('50 usuários serão alterados.');
  await expect(page.getByTestId('ignorados')).toHaveCount(0);
  await shoot(page, 'v2-previa');
  // Nothing changed before the confirmation.
  const other = await page.context().newPage();
  await other.goto(`/v2/usuario/cadastro/consulta?nome=${tag}&status=INATIVO`);
  await expect(other.getByTestId('usuarios').locator('caption')).toContainText('0 usuários');
  await other.close();
  await page.getByTestId('confirmar-lote').click();

  await expect(page).toHaveURL(/\/v2\/usuario\/cadastro\/lote\/\d+$/);
  await expect(page.getByTestId('andamento')).toHaveAttribute('max', '50');
  await expect(page.getByTestId('lote')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 60_000 });
  await expect(page.getByTestId('resumo').locator('[data-result="alterado"]')).toContainText('50');
  await expect(page.getByTestId('resumo').locator('[data-result="recusado"]')).toContainText('0');
  await shoot(page, 'v2-resumo');

  await page.goto(`/v2/usuario/cadastro/consulta?nome=${tag}&status=INATIVO`);
  await expect(page.getByTestId('usuarios').locator('caption')).toContainText('50 usuários');
});

test('legacy: two checked rows given a group, and the filtered list exported', async ({ page }) => {
  test.setTimeout(180_000);
  const tag = `Grupo${letters(Date.now() % 1_000_000)}`;
  await signIn(page, ACCOUNTS.legacySupport);
  const rows = [0, 1, 2].map(
    (i) =>
      `${tag} Pessoa ${['Um', 'Dois', 'Tres'][i]};${tag.toLowerCase()}.${i}@exemplo.com.br;${cpfFor((Date.now() % 10_000_000) + 500 + i * 11)};11222333000181;VENDEDOR;ativo`,
  );
  await importUsers(page, '/importar-usuarios', 'nome;email;cpf;empresa;grupos;situacao', rows);

  await page.goto(`/consulta-usuarios?nome=${tag}`);
  await expect(page.getByTestId('usuarios').locator('tbody tr')).toHaveCount(3);
  await page.getByRole('checkbox', { name: `Selecionar ${tag} Pessoa Um` }).check();
  await page.getByRole('checkbox', { name: `Selecionar ${tag} Pessoa Dois` }).check();
  const bulk = page.getByTestId('acao-em-lote');
  await bulk.getByLabel('Ação').selectOption('incluir-grupo');
  await bulk.getByLabel(/Grupo de acesso/).selectOption('CONSULTOR');
  await shoot(page, 'v1-lista');
  await bulk.getByTestId('revisar-lote').click();
  await expect(page.getByTestId('alterar')).toHaveText('2 usuários serão alterados.');
  await shoot(page, 'v1-previa');
  await page.getByTestId('confirmar-lote').click();
  await expect(page.getByTestId('lote')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 60_000 });
  await expect(page.getByTestId('resumo').locator('[data-result="alterado"]')).toContainText('2');
  await shoot(page, 'v1-resumo');

  // Cancelar on a preview changes nothing and returns to the list as it was.
  await page.goto(`/consulta-usuarios?nome=${tag}`);
  await page.getByRole('checkbox', { name: `Selecionar ${tag} Pessoa Tres` }).check();
  await page.getByTestId('acao-em-lote').getByLabel('Ação').selectOption('desativar');
  await page.getByTestId('revisar-lote').click();
  await page.getByTestId('cancelar-lote').click();
  await expect(page).toHaveURL(new RegExp(`/consulta-usuarios\\?nome=${tag}$`));
  await expect(page.getByTestId(`usuario-${tag.toLowerCase()}.2@exemplo.com.br`).getByTestId('situacao')).not.toHaveText('Inativo');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('exportar-csv').click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('\uFEFFNome;E-mail;CPF;Empresa;CNPJ;Situação');
  for (const n of ['Um', 'Dois', 'Tres']) expect(csv).toContain(`${tag} Pessoa ${n}`);
});
