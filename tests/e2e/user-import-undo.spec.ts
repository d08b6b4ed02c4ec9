import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands, screenshotsAt } from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 32 (decision 071), an import undone, both generations: an import creates two users, a second
 * renames one of them; the second is undone (the preview says one account gets its name back), then
 * the first (its two users deactivated); the undo's page says what it did and refuses a second one.
 */

const shoot = (page: Page, name: string) => screenshotsAt(page, 'import-undo', name);

async function importFile(page: Page, start: string, csv: string, { update = false } = {}) {
  await page.goto(start);
  await waitForIslands(page);
  await page.setInputFiles('#arquivo', { name: 'equipe.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`, 'utf8') });
  await page.getByRole('button', { name: 'Enviar e validar' }).click();
  if (update) await page.getByRole('checkbox', { name: /^Atualizar também os usuários existentes/ }).check();
  await page.getByRole('button', { name: 'Confirmar importação' }).click();
  await expect(page.getByTestId('importacao')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 30_000 });
  return page.url();
}

for (const generation of ['v1', 'v2'] as const) {
  test(`${generation}: an import undone`, async ({ page }) => {
    test.setTimeout(120_000);
    const id = `${Date.now() % 1_000_000}${generation}`;
    const seed = Number(id.replace(/\D/g, '')) * 10 + (generation === 'v1' ? 1 : 6);
    const people = [0, 1].map((i) => ({ email: `desfazer${i}.${id}@exemplo.com.br`, cpf: cpfFor(seed + i) }));
    const start = generation === 'v1' ? '/importar-usuarios' : '/v2/usuario/importacao/upload';
    const users = generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario/cadastro/consulta';
    await signIn(page, generation === 'v1' ? ACCOUNTS.legacySupport : ACCOUNTS.partnerAdmin);
    const header =
      generation === 'v1'
        ? 'nome;email;cpf;empresa;grupos;situacao'
        : 'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao';
    const row = (nome: string, p: (typeof people)[number]) =>
      generation === 'v1'
        ? `${nome};${p.email};${p.cpf};11.222.333/0001-81;VENDEDOR;ativo`
        : `${nome};${p.email};${p.cpf};(11) 98765-0001;PARCEIRO;11222333000181;;;COTAR_VENDER;`;

    const first = await importFile(page, start, [header, row('Olga Quintana', people[0]!), row('Raul Saldanha', people[1]!)].join('\r\n'));
    await expect(page.getByTestId('resultado')).toContainText('2 criados');
    const second = await importFile(page, start, [header, row('Olga Quintana Reis', people[0]!)].join('\r\n'), { update: true });
    await expect(page.getByTestId('resultado')).toContainText('1 atualizados');
    await expect(page.getByTestId('prazo-desfazer')).toContainText('Você pode desfazer esta importação até');

    // The second import undone: its preview says Olga gets her name back, and nothing else happens.
    await page.getByRole('link', { name: 'Desfazer importação' }).click();
    const preview = page.getByTestId('previa-desfazer');
    // Only what it does to somebody (issue 42): no "0 … serão desativados", no "0 ficam como está".
    await expect(preview.getByTestId('previa-contagem').getByRole('listitem')).toHaveText([
      '1 usuário atualizado volta aos dados anteriores',
    ]);
    await expect(
      page
        .getByTestId('desfazer-usuarios')
        .getByRole('row', { name: /Olga Quintana Reis.*Volta aos dados anteriores.*Nome: Olga Quintana Reis → Olga Quintana/ }),
    ).toBeVisible();
    await shoot(page, `${generation}-preview`);
    await preview.getByRole('button', { name: 'Desfazer importação' }).click();
    await expect(page.getByTestId('desfeita')).toContainText('Importação desfeita em');
    await expect(page.getByTestId('desfeita')).toHaveText(/^Importação desfeita em .+: 1 usuário restaurado\.$/);
    await expect(page.getByRole('link', { name: 'Desfazer importação' })).toHaveCount(0);
    await shoot(page, `${generation}-undone`);
    await page.goto(`${users}?email=${people[0]!.email}`);
    await expect(page.getByTestId(`usuario-${people[0]!.email}`)).toContainText('Olga Quintana');
    await expect(page.getByTestId(`usuario-${people[0]!.email}`)).not.toContainText('Olga Quintana Reis');

    // The first import undone: both users it created are deactivated.
    await page.goto(first);
    await page.getByRole('link', { name: 'Desfazer importação' }).click();
    await expect(page.getByTestId('previa-contagem').getByRole('listitem')).toHaveText(['2 usuários criados serão desativados']);
    // A second tab on the same preview, to click after the undo.
    const other = await page.context().newPage();
    await other.goto(page.url());
    await page.getByTestId('previa-desfazer').getByRole('button', { name: 'Desfazer importação' }).click();
    await expect(page.getByTestId('desfeita')).toContainText('2 usuários desativados');
    await other.getByTestId('previa-desfazer').getByRole('button', { name: 'Desfazer importação' }).click();
    await expect(other.getByTestId('erro')).toContainText('Esta importação já foi desfeita em');
    await other.close();
    for (const p of people) {
      await page.goto(`${users}?email=${p.email}`);
      await expect(page.getByTestId(`usuario-${p.email}`).getByTestId('situacao')).toHaveText('Inativo');
    }
    // The second import, already undone, stays so.
    await page.goto(second);
    await expect(page.getByTestId('desfeita')).toBeVisible();
  });
}
