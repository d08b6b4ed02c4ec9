import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, path, signIn, waitForIslands, screenshotsAt } from './helpers';
import { cpfFor } from './selling';

/**
 * Issue 16, the bulk user import in both generations (decision 048): the template downloaded, a
 * file with good and bad rows previewed in the browser, its problems shown by line and column,
 * confirmed, written in the background while the page shows the progress, the result downloaded
 * and read back — and the same file sent again creates nobody twice. Issue 27 (decision 060): the
 * template sent back as downloaded validates; a row for an existing account shows what would change
 * (old → new) and updates it only when the author ticks so; another CPF for an account is refused;
 * the users list links the import.
 */

const shoot = (page: Page, name: string) => screenshotsAt(page, 'import-screens', name);

async function upload(page: Page, start: string, csv: string | Buffer, name = 'equipe.csv') {
  await page.goto(start);
  await waitForIslands(page);
  const buffer = typeof csv === 'string' ? Buffer.from(`\uFEFF${csv}`, 'utf8') : csv;
  await page.setInputFiles('#arquivo', { name, mimeType: 'text/csv', buffer });
  await expect(page.getByTestId('previa-arquivo')).toContainText(name);
  await page.getByRole('button', { name: 'Enviar e validar' }).click();
}

/** Confirms (updating the existing accounts shown only when asked), waits for the page (which reloads itself) to show the result, and reads the result file back. */
async function confirmAndRead(page: Page, { update = false } = {}) {
  if (update) await page.getByRole('checkbox', { name: /^Atualizar também os usuários existentes/ }).check();
  await page.getByRole('button', { name: 'Confirmar importação' }).click();
  await expect(page.getByTestId('importacao')).toHaveAttribute('data-status', 'CONCLUIDO', { timeout: 30_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Baixar o resultado (CSV)' }).click(),
  ]);
  return readFileSync((await download.path())!, 'utf8');
}

for (const generation of ['v1', 'v2'] as const) {
  test(`${generation}: a CSV with good and bad rows, checked by line, imported in the background, and imported twice`, async ({ page }) => {
    test.setTimeout(120_000);
    const id = `${Date.now() % 1_000_000}${generation}`;
    const start = generation === 'v1' ? '/importar-usuarios' : '/v2/usuario/importacao/upload';
    await signIn(page, generation === 'v1' ? ACCOUNTS.legacySupport : ACCOUNTS.partnerAdmin);
    // The users list leads to the import (issue 27: in v2 nothing did).
    await page.goto(generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario/cadastro/consulta');
    await page.getByTestId('importar-usuarios').click();
    await expect(page).toHaveURL(path(start));
    await expect(page.getByRole('heading', { level: 1, name: 'Importar usuários' })).toBeVisible();
    // The template downloads and is the header the page documents.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Baixar o modelo' }).click()]);
    const templateBytes = readFileSync((await template.path())!);
    const header = templateBytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!;
    // Sent back as it came, the template validates: its sample person is nobody's (issue 27).
    await upload(page, start, templateBytes, 'modelo.csv');
    await expect(page.getByTestId('contagem')).toContainText('1 válidas');
    await expect(page.getByTestId('contagem')).toContainText('0 com problemas');
    await expect(page.getByTestId('problemas')).toHaveCount(0);
    expect(header).toBe(
      generation === 'v1'
        ? 'nome;email;cpf;empresa;grupos;situacao'
        : 'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao',
    );

    const good = [0, 1, 2, 3].map((i) => ({
      email: `imp${i}.${id}@exemplo.com.br`,
      cpf: cpfFor(Number(id.replace(/\D/g, '')) * 10 + i + (generation === 'v1' ? 0 : 5)),
    }));
    const rows =
      generation === 'v1'
        ? [
            `Ícaro Nunes;${good[0]!.email};${good[0]!.cpf};11.222.333/0001-81;VENDEDOR;ativo`,
            `Bia Teles;${good[1]!.email};${good[1]!.cpf};11222333000181;VENDEDOR|CONSULTOR;`,
            `=CMD();ruim.${id}@exemplo.com.br;111.111.111-11;11222333000181;VENDEDOR;ativo`,
            // Issue 27 (18): a full name of initials and digits is a name; a ';' inside quotes is named as
            // what it is (a group that does not exist is, below, on a row whose name is valid).
            `QA V2 Vendedor;${good[2]!.email};${good[2]!.cpf};11222333000181;VENDEDOR;ativo`,
            `"Téo; Lima";${good[3]!.email};${good[3]!.cpf};11222333000181;VENDEDOR;ativo`,
          ]
        : [
            `Ícaro Nunes;${good[0]!.email};${good[0]!.cpf};(11) 98765-0001;PARCEIRO;11222333000181;PV-0001;Vendedor de loja;;`,
            `Bia Teles;${good[1]!.email};${good[1]!.cpf};(11) 98765-0002;PARCEIRO;11222333000181;;;COTAR_VENDER|METRICAS;`,
            `Gil Souto;ruim.${id}@exemplo.com.br;111.111.111-11;(11) 3333-0000;PARCEIRO;11222333000181;;;;`,
            // Issue 27 (18): a full name of initials and digits is a name; a group that does not exist is said so.
            `QA V2 Vendedor;${good[2]!.email};${good[2]!.cpf};(11) 98765-0003;PARCEIRO;11222333000181;;;COTAR_VENDER;`,
            `Téo Lima;${good[3]!.email};${good[3]!.cpf};(11) 98765-0004;PARCEIRO;11222333000181;;Grupo Fantasma;;`,
          ];
    const csv = [header, ...rows].join('\r\n');
    await upload(page, start, csv);
    await expect(page).toHaveURL(
      generation === 'v1' ? /\/importar-usuarios\?importacao=\d+$/ : /\/v2\/usuario\/importacao\/validacao\?importacao=\d+$/,
    );
    await expect(page.getByTestId('contagem')).toContainText('5 linhas no arquivo');
    const problems = page.getByTestId('problemas');
    if (generation === 'v1') {
      await expect(problems.getByRole('row', { name: /^4 .* nome Fórmula de planilha/ })).toBeVisible();
      await expect(problems.getByRole('row', { name: /^6 .* nome O nome tem caractere não aceito \(;\)/ })).toBeVisible();
    } else {
      await expect(problems.getByRole('row', { name: /^4 .* cpf CPF inválido\./ })).toBeVisible();
      await expect(problems.getByRole('row', { name: /^4 .* celular Celular inválido/ })).toBeVisible();
      await expect(problems.getByRole('row', { name: /^6 .* Grupo de permissões não encontrado nas empresas informadas\./ })).toBeVisible();
    }
    await expect(problems.getByRole('row', { name: /^5 / })).toHaveCount(0);
    await shoot(page, `${generation}-validation`);

    const result = await confirmAndRead(page);
    await expect(page.getByTestId('resultado')).toContainText('3 criados');
    await expect(page.getByTestId('resultado')).toContainText('2 recusados');
    await shoot(page, `${generation}-result`);
    const lines = result
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('linha;email;resultado;motivo');
    expect(lines[1]).toBe(`2;${good[0]!.email};criado;`);
    expect(lines[2]).toBe(`3;${good[1]!.email};criado;`);
    expect(lines[3]).toMatch(new RegExp(`^4;ruim\\.${id}@exemplo\\.com\\.br;recusado;`));
    expect(lines[4]).toBe(`5;${good[2]!.email};criado;`);
    expect(lines[5]).toMatch(new RegExp(`^6;${good[3]!.email.replace(/\./g, '\\.')};recusado;`));

    // The new users are listed, pending their first access.
    await page.getByRole('link', { name: 'Ver usuários' }).click();
    await page.getByLabel('E-mail').fill(good[0]!.email);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect(page.getByTestId(`usuario-${good[0]!.email}`).getByTestId('situacao')).toHaveText('Pendente (1º acesso)');

    // The same file again: nobody is created twice.
    await upload(page, start, csv);
    const again = await confirmAndRead(page);
    await expect(page.getByTestId('resultado')).toContainText('0 criados');
    await expect(page.getByTestId('resultado')).toContainText('3 sem alteração');
    expect(again).toContain(`2;${good[0]!.email};sem alteração;`);

    // Issue 27: a row under a demo account's e-mail with another CPF is refused on its row; a row that
    // renames a user just imported shows the change old → new and, unless asked, leaves it alone.
    const demo = generation === 'v1' ? ACCOUNTS.legacySeller : ACCOUNTS.partner;
    const thief =
      generation === 'v1'
        ? `Kátia Pereira Importação;${demo.email};${cpfFor(Number(id.replace(/\D/g, '')) * 10 + 8)};11.222.333/0001-81;VENDEDOR|GRUPO_FANTASMA;ativo`
        : `Kátia Pereira Importação;${demo.email};${cpfFor(Number(id.replace(/\D/g, '')) * 10 + 9)};(11) 97777-0000;PARCEIRO;11222333000181;PV-0002;;COTAR_VENDER;`;
    const renamed = [header, rows[0]!.replace('Ícaro Nunes', 'Ícaro Nunes Filho'), rows[1]!, thief].join('\r\n');
    await upload(page, start, renamed);
    await expect(
      problems.getByRole('row', { name: new RegExp(`^4 ${demo.email.replace(/\./g, '\\.')} cpf CPF diferente do cadastrado`) }),
    ).toBeVisible();
    if (generation === 'v1') {
      await expect(problems.getByRole('row', { name: /^4 .* grupos Grupo de acesso inexistente: GRUPO_FANTASMA\./ })).toBeVisible();
    }
    await expect(page.getByTestId('existentes')).toContainText('1 já existe com alterações');
    await expect(page.getByTestId('existentes')).toContainText('1 já existe sem alteração');
    await expect(
      page.getByTestId('alteracoes').getByRole('row', { name: /^2 Ícaro Nunes.* Nome Ícaro Nunes Ícaro Nunes Filho$/ }),
    ).toBeVisible();
    await shoot(page, `${generation}-existing`);
    const skipped = await confirmAndRead(page);
    await expect(page.getByTestId('resultado')).toContainText('1 ignorado (já existe)');
    expect(skipped).toContain(`2;${good[0]!.email};ignorado;`);
    // Ticked, the same file updates him.
    await upload(page, start, renamed);
    await confirmAndRead(page, { update: true });
    await expect(page.getByTestId('resultado')).toContainText('1 atualizados');
    await page.goto(
      generation === 'v1' ? `/consulta-usuarios?email=${good[0]!.email}` : `/v2/usuario/cadastro/consulta?email=${good[0]!.email}`,
    );
    await expect(page.getByTestId(`usuario-${good[0]!.email}`)).toContainText('Ícaro Nunes Filho');

    // Past 1 MB (the pages' usual limit) a file still reaches the import, which counts its rows;
    // past 2 MB the preview stops it before it is sent.
    const many = Array.from(
      { length: 16_000 },
      (_, i) => `Nome Sobrenome;n${i}@exemplo.com.br;000.000.000-00;11222333000181;VENDEDOR;ativo`,
    );
    await upload(page, start, [header, ...many].join('\r\n'));
    await expect(page.getByTestId('erro')).toHaveText('O arquivo passa de 5.000 usuários: divida-o em partes.');
    await page.setInputFiles('#arquivo', { name: 'grande.csv', mimeType: 'text/csv', buffer: Buffer.alloc(2 * 1024 * 1024 + 10, 'a') });
    await expect(page.getByTestId('previa-arquivo')).toHaveText('O arquivo passa de 2 MB: divida-o em partes.');
    await expect(page.getByRole('button', { name: 'Enviar e validar' })).toBeDisabled();

    // A file that is not the template says why, on the upload page.
    await upload(page, start, 'nome,telefone\nAna,1');
    await expect(page.getByTestId('erro')).toContainText('Faltam as colunas');
    await expect(page).toHaveURL(path(generation === 'v1' ? '/importar-usuarios' : '/v2/usuario/importacao/upload'));
  });
}
