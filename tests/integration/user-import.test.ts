import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiErrorOf, type ApiError } from '../../src/server/api/errors';
import { DomainError } from '../../src/server/errors';
import { actorOf } from '../../src/server/services/network/user-admin';
import { uploadImport } from '../../src/server/services/network/user-import';
import { importTemplate } from '../../src/server/services/network/user-import-template';
import { importChanges, importOf, importProblems, resultCsv } from '../../src/server/services/network/user-import-reading';
import { confirmImport, processImports } from '../../src/server/services/network/user-import-processing';
import { IMPORT_MESSAGES } from '../../src/lib/user-import';
import { FULL_NAME_MESSAGES } from '../../src/lib/full-name';
import { USER_ADMIN_MESSAGES } from '../../src/lib/user-admin';
import type { Actor } from '../../src/lib/user-admin';

/**
 * Bulk user import (issue 16, decision 048) through the service: rows checked by line and column
 * before anything is written; the import written in the background; the same file twice creates
 * nobody twice; encodings, delimiters, quotes, formulas and hostile files; the actor's scope.
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const actor = async (email: string): Promise<Actor> =>
  actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow());
const bytes = (text: string) => new TextEncoder().encode(text);
const LEGACY_HEADER = 'nome;email;cpf;empresa;grupos;situacao';
const userCount = async () =>
  (
    await db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // A refusal of the domain, as the API would answer it.
  expect(error).toBeInstanceOf(DomainError);
  return apiErrorOf(error)!;
}
/** Valid CPFs of their own per seed. */
function cpf(seed: number): string {
  const base = String(200_000_000 + seed)
    .split('')
    .map(Number);
  const digit = (d: number[]) => ((d.reduce((s, x, i) => s + x * (d.length + 1 - i), 0) * 10) % 11) % 10;
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}

describe('a legacy import', () => {
  const file = [
    LEGACY_HEADER,
    `Lívia Souza;livia.import@legado.demo;${cpf(1)};11.222.333/0001-81;VENDEDOR;ativo`,
    `Caio Prado;caio.import@legado.demo;123.456.789-00;11222333000181;VENDEDOR;`,
    `"Nina da Costa";nina.import@legado.demo;${cpf(2)};11222333000181;VENDEDOR|CONSULTOR;bloqueado`,
    // A quoted ';' stays in its cell: the row is refused for its name alone, not split in two.
    `"Téo; Lima";teo.import@legado.demo;${cpf(8)};11222333000181;VENDEDOR;ativo`,
  ].join('\r\n');

  it('shows each row’s problems by line and column before writing anything, then writes the valid rows in the background', async () => {
    const admin = await actor('suporte@legado.demo');
    const before = await userCount();
    const id = await uploadImport(db, admin, 'equipe.csv', bytes(`\uFEFF${file}`), '10.0.0.5');
    expect(await userCount()).toBe(before);
    expect(await importOf(db, admin, id)).toMatchObject({ status: 'VALIDADO', totalRows: 4, validRows: 2 });
    expect(await importProblems(db, id)).toEqual([
      { line: 3, email: 'caio.import@legado.demo', column: 'cpf', message: 'CPF inválido.' },
      { line: 5, email: 'teo.import@legado.demo', column: 'nome', message: FULL_NAME_MESSAGES.characters(';') },
    ]);
    // Another user's import is not theirs to see or confirm.
    const manager = await actor('gestor@legado.demo');
    expect(await importOf(db, manager, id)).toBeUndefined();
    expect((await refusal(confirmImport(db, manager, id, { updateExisting: false }, null))).status).toBe(409);

    await confirmImport(db, admin, id, { updateExisting: false }, null);
    await processImports(db);
    const done = await importOf(db, admin, id);
    expect(done).toMatchObject({
      status: 'CONCLUIDO',
      processedRows: 2,
      results: { criado: 2, atualizado: 0, sem_alteracao: 0, recusado: 0 },
    });
    const nina = await db.selectFrom('users').selectAll().where('email', '=', 'nina.import@legado.demo').executeTakeFirstOrThrow();
    expect(nina).toMatchObject({ nome: 'Nina da Costa', status: 'BLOQUEADO', generation: 'v1' });
    const livia = await db.selectFrom('users').selectAll().where('email', '=', 'livia.import@legado.demo').executeTakeFirstOrThrow();
    expect(livia.status).toBe('PENDENTE');
    expect(await db.selectFrom('emails').select('id').where('to_address', '=', 'livia.import@legado.demo').execute()).toHaveLength(1);
    const csv = parse((await resultCsv(db, id)).replace(/^\uFEFF/, ''), { delimiter: ';', columns: true });
    expect(csv).toEqual([
      { linha: '2', email: 'livia.import@legado.demo', resultado: 'criado', motivo: '' },
      { linha: '3', email: 'caio.import@legado.demo', resultado: 'recusado', motivo: 'cpf: CPF inválido.' },
      { linha: '4', email: 'nina.import@legado.demo', resultado: 'criado', motivo: '' },
      { linha: '5', email: 'teo.import@legado.demo', resultado: 'recusado', motivo: `nome: ${FULL_NAME_MESSAGES.characters(';')}` },
    ]);
  });

  it('is idempotent: the same file again creates nobody; a changed row updates its user', async () => {
    const admin = await actor('suporte@legado.demo');
    const before = await userCount();
    const again = await uploadImport(db, admin, 'equipe.csv', bytes(file.replace('Lívia Souza', 'Lívia Souza Lima')), null);
    await confirmImport(db, admin, again, { updateExisting: true }, null);
    await processImports(db);
    expect(await importOf(db, admin, again)).toMatchObject({
      status: 'CONCLUIDO',
      results: { criado: 0, atualizado: 1, sem_alteracao: 1 },
    });
    expect(await userCount()).toBe(before);
    expect(
      (await db.selectFrom('users').select('nome').where('email', '=', 'livia.import@legado.demo').executeTakeFirstOrThrow()).nome,
    ).toBe('Lívia Souza Lima');
  });

  it('a blank or missing situacao keeps an existing user’s status: re-importing never reactivates who was blocked', async () => {
    const admin = await actor('suporte@legado.demo');
    const nina = () => db.selectFrom('users').select('status').where('email', '=', 'nina.import@legado.demo').executeTakeFirstOrThrow();
    expect((await nina()).status).toBe('BLOQUEADO');
    for (const text of [
      `${LEGACY_HEADER}\nNina da Costa;nina.import@legado.demo;${cpf(2)};11222333000181;VENDEDOR|CONSULTOR;`,
      `nome;email;cpf;empresa;grupos\nNina da Costa;nina.import@legado.demo;${cpf(2)};11222333000181;VENDEDOR|CONSULTOR`,
    ]) {
      const id = await uploadImport(db, admin, 'equipe.csv', bytes(text), null);
      await confirmImport(db, admin, id, { updateExisting: false }, null);
      await processImports(db);
      expect((await importOf(db, admin, id))?.results).toMatchObject({ sem_alteracao: 1, atualizado: 0 });
      expect((await nina()).status).toBe('BLOQUEADO');
    }
  });

  it('stops when its author may no longer change users, keeping what was written', async () => {
    const manager = await actor('gestor@legado.demo');
    const id = await uploadImport(
      db,
      manager,
      'equipe.csv',
      bytes(`${LEGACY_HEADER}\nOlga Reis;olga.import@legado.demo;${cpf(9)};11222333000181;VENDEDOR;ativo`),
      null,
    );
    await confirmImport(db, manager, id, { updateExisting: false }, null);
    await db.updateTable('users').set({ status: 'BLOQUEADO' }).where('id', '=', manager.userId).execute();
    await processImports(db);
    expect(await importOf(db, manager, id)).toMatchObject({ status: 'ERRO', error: 'O autor da importação não está mais ativo.' });
    expect(await db.selectFrom('users').select('id').where('email', '=', 'olga.import@legado.demo').execute()).toHaveLength(0);
    await db.updateTable('users').set({ status: 'ATIVO' }).where('id', '=', manager.userId).execute();
  });

  it('reads Windows-1252 with commas, refuses formulas, repeated lines, and what the actor may not give', async () => {
    const manager = await actor('gestor@legado.demo');
    const text = [
      'nome,email,cpf,empresa,grupos,situacao',
      `José Conceição,jose.import@legado.demo,${cpf(3)},11222333000181,VENDEDOR,ativo`,
      `=HYPERLINK("x"),formula.import@legado.demo,${cpf(4)},11222333000181,VENDEDOR,ativo`,
      `José Outro,jose.import@legado.demo,${cpf(5)},11222333000181,VENDEDOR,ativo`,
      `Ana Admin,ana.import@legado.demo,${cpf(6)},11222333000181,ADMINISTRADOR,ativo`,
      `Vera Vale,vera.import@legado.demo,${cpf(7)},33444555000181,VENDEDOR,ativo`,
    ].join('\n');
    const latin1 = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    const id = await uploadImport(db, manager, 'equipe.csv', latin1, null);
    expect(await importProblems(db, id)).toEqual([
      { line: 3, email: 'formula.import@legado.demo', column: 'nome', message: IMPORT_MESSAGES.formula },
      { line: 4, email: 'jose.import@legado.demo', column: 'email', message: 'E-mail repetido no arquivo (já aparece na linha 2).' },
      { line: 5, email: 'ana.import@legado.demo', column: 'grupos', message: 'Grupo de acesso com permissões que você não possui.' },
      { line: 6, email: 'vera.import@legado.demo', column: 'empresa', message: 'Empresa fora das que você administra.' },
    ]);
    await confirmImport(db, manager, id, { updateExisting: false }, null);
    await processImports(db);
    expect(
      (await db.selectFrom('users').select('nome').where('email', '=', 'jose.import@legado.demo').executeTakeFirstOrThrow()).nome,
    ).toBe('José Conceição');
  });

  it('refuses a file that is not the template: empty, header only, wrong columns, a spreadsheet, too big — storing nothing', async () => {
    const admin = await actor('suporte@legado.demo');
    const imports = async () => (await db.selectFrom('user_imports').select('id').execute()).length;
    const before = await imports();
    const cases: [Uint8Array, string][] = [
      [bytes(''), IMPORT_MESSAGES.empty],
      [bytes(`\uFEFF${LEGACY_HEADER}\r\n`), IMPORT_MESSAGES.noRows],
      [bytes('nome;email;telefone\nA B;a@b.com;1'), 'Faltam as colunas: cpf, empresa, grupos. Use o modelo desta página.'],
      [Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]), IMPORT_MESSAGES.notCsv],
      [bytes(`${LEGACY_HEADER}\n"aberto;x`), IMPORT_MESSAGES.unreadable],
      [new Uint8Array(2 * 1024 * 1024 + 1).fill(65), IMPORT_MESSAGES.tooBig],
    ];
    for (const [file, message] of cases) {
      const error = await refusal(uploadImport(db, admin, 'x.csv', file, null));
      expect(error.fieldErrors?.arquivo?.[0], message).toBe(message);
    }
    expect(await imports()).toBe(before);
    // A seller may not import.
    expect((await refusal(uploadImport(db, await actor('vendedor@legado.demo'), 'x.csv', bytes(LEGACY_HEADER), null))).status).toBe(403);
  });
});

describe('a row for someone who already has an account (issue 27)', () => {
  const bruno = () =>
    db.selectFrom('users').select(['nome', 'cpf', 'status']).where('email', '=', 'vendedor@legado.demo').executeTakeFirstOrThrow();

  it('legacy: another CPF for an existing e-mail is refused on its row, nothing is changed', async () => {
    const admin = await actor('admin@legado.demo');
    const before = await bruno();
    const id = await uploadImport(
      db,
      admin,
      'equipe.csv',
      bytes(`${LEGACY_HEADER}\nKátia Pereira Importação;vendedor@legado.demo;920.000.090-85;11.222.333/0001-81;VENDEDOR;ativo`),
      null,
    );
    expect(await importProblems(db, id)).toEqual([
      { line: 2, email: 'vendedor@legado.demo', column: 'cpf', message: IMPORT_MESSAGES.cpfOfExisting },
    ]);
    expect(await importOf(db, admin, id)).toMatchObject({ validRows: 0 });
    expect(await bruno()).toEqual(before);
  });

  it('legacy: each field that would change is shown old → new; the rows are skipped unless the author asks, and the log says which', async () => {
    const admin = await actor('admin@legado.demo');
    const before = await bruno();
    const text = [
      LEGACY_HEADER,
      'Bruno Carvalho Filho;vendedor@legado.demo;111.444.777-35;11.222.333/0001-81;VENDEDOR|CONSULTOR;',
      'Helena Martins;consultor@legado.demo;987.654.321-00;11.222.333/0001-81;CONSULTOR;',
      `Nova Pessoa;nova.pessoa@legado.demo;${cpf(30)};11.222.333/0001-81;VENDEDOR;`,
    ].join('\n');
    const id = await uploadImport(db, admin, 'equipe.csv', bytes(text), null);
    expect(await importOf(db, admin, id)).toMatchObject({ validRows: 3, existing: { changed: 1, unchanged: 1 } });
    expect(await importChanges(db, id)).toEqual([
      {
        line: 2,
        email: 'vendedor@legado.demo',
        nome: 'Bruno Carvalho',
        changes: [
          { column: 'nome', label: 'Nome', before: 'Bruno Carvalho', after: 'Bruno Carvalho Filho' },
          { column: 'grupos', label: 'Grupos de acesso', before: 'VENDEDOR', after: 'CONSULTOR, VENDEDOR' },
        ],
      },
    ]);
    await confirmImport(db, admin, id, { updateExisting: false }, '10.0.0.9');
    await processImports(db);
    expect((await importOf(db, admin, id))?.results).toMatchObject({ criado: 1, atualizado: 0, sem_alteracao: 1, ignorado: 1 });
    expect(await bruno()).toEqual(before);
    const csv = parse((await resultCsv(db, id)).replace(/^\uFEFF/, ''), { delimiter: ';', columns: true });
    expect(csv[0]).toEqual({ linha: '2', email: 'vendedor@legado.demo', resultado: 'ignorado', motivo: IMPORT_MESSAGES.skipped });

    // Asked for, the same file updates him (his CPF stays his), and the log says the author chose it.
    const again = await uploadImport(db, admin, 'equipe.csv', bytes(text), null);
    await confirmImport(db, admin, again, { updateExisting: true }, '10.0.0.9');
    await processImports(db);
    expect((await importOf(db, admin, again))?.results).toMatchObject({ atualizado: 1, sem_alteracao: 2, ignorado: 0 });
    expect(await bruno()).toEqual({ ...before, nome: 'Bruno Carvalho Filho' });
    const events = await db
      .selectFrom('access_events')
      .select(['event', 'actor_id', 'ip', 'registro', 'detalhe'])
      .where('event', '=', 'USUARIOS_IMPORTADOS')
      .where('registro', 'in', [String(id), String(again)])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      {
        event: 'USUARIOS_IMPORTADOS',
        actor_id: admin.userId,
        ip: '10.0.0.9',
        registro: String(id),
        detalhe: '1 a criar; 1 existente com alterações não atualizado; 1 sem alteração',
      },
      {
        event: 'USUARIOS_IMPORTADOS',
        actor_id: admin.userId,
        ip: '10.0.0.9',
        registro: String(again),
        detalhe: '0 a criar; 1 existente a atualizar; 2 sem alteração',
      },
    ]);
    // A confirmation is once: the same import again is a 409, whatever it asks.
    expect((await refusal(confirmImport(db, admin, again, { updateExisting: true }, null))).status).toBe(409);
  });

  it('an account changed after the validation is not updated with what the author did not see', async () => {
    const admin = await actor('admin@legado.demo');
    const id = await uploadImport(
      db,
      admin,
      'equipe.csv',
      bytes(`${LEGACY_HEADER}\nHelena Martins Souza;consultor@legado.demo;987.654.321-00;11.222.333/0001-81;CONSULTOR;`),
      null,
    );
    await db.updateTable('users').set({ nome: 'Helena M. Dias' }).where('email', '=', 'consultor@legado.demo').execute();
    await confirmImport(db, admin, id, { updateExisting: true }, null);
    await processImports(db);
    expect((await importOf(db, admin, id))?.results).toMatchObject({ atualizado: 0, ignorado: 1 });
    const csv = parse((await resultCsv(db, id)).replace(/^\uFEFF/, ''), { delimiter: ';', columns: true });
    expect(csv[0]).toMatchObject({ resultado: 'ignorado', motivo: IMPORT_MESSAGES.changedSinceValidation });
    expect((await db.selectFrom('users').select('nome').where('email', '=', 'consultor@legado.demo').executeTakeFirstOrThrow()).nome).toBe(
      'Helena M. Dias',
    );
  });

  it('a manager never updates by import an account outside what it administers, and learns nothing of its CPF', async () => {
    const manager = await actor('gestor@legado.demo');
    const id = await uploadImport(
      db,
      manager,
      'equipe.csv',
      bytes(`${LEGACY_HEADER}\nRafael Monteiro;suporte@legado.demo;${cpf(31)};11.222.333/0001-81;VENDEDOR;`),
      null,
    );
    expect(await importProblems(db, id)).toEqual([
      { line: 2, email: 'suporte@legado.demo', column: 'email', message: 'E-mail já cadastrado para um usuário que você não administra.' },
    ]);
  });

  it('v2: another CPF is refused; a changed phone, point of sale and permissions are listed and left alone by default', async () => {
    const partnerAdmin = await actor('parceiro.admin@parceiro.demo');
    const eduarda = () =>
      db
        .selectFrom('users')
        .select(['nome', 'cpf', 'celular', 'point_of_sale_id', 'permission_group_id'])
        .where('email', '=', 'parceiro@parceiro.demo')
        .executeTakeFirstOrThrow();
    const before = await eduarda();
    const header = 'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao';
    const stolen = await uploadImport(
      db,
      partnerAdmin,
      'v2.csv',
      bytes(`${header}\nKátia Pereira;parceiro@parceiro.demo;${cpf(32)};(11) 97777-0000;PARCEIRO;11222333000181;PV-0002;;COTAR_VENDER;`),
      null,
    );
    expect(await importProblems(db, stolen)).toEqual([
      { line: 2, email: 'parceiro@parceiro.demo', column: 'cpf', message: IMPORT_MESSAGES.cpfOfExisting },
    ]);
    const id = await uploadImport(
      db,
      partnerAdmin,
      'v2.csv',
      bytes(
        `${header}\nEduarda Lima;parceiro@parceiro.demo;714.287.938-60;(11) 97777-0000;PARCEIRO;11222333000181;PV-0002;Vendedor de loja;COTAR_VENDER;`,
      ),
      null,
    );
    expect(await importProblems(db, id)).toEqual([]);
    const [diff] = await importChanges(db, id);
    expect(diff?.changes.map((c) => c.column)).toEqual(['celular', 'ponto_venda', 'grupo_permissao', 'operacoes']);
    expect(diff?.changes[0]).toEqual({ column: 'celular', label: 'Celular', before: '—', after: '(11) 97777-0000' });
    await confirmImport(db, partnerAdmin, id, { updateExisting: false }, null);
    await processImports(db);
    expect((await importOf(db, partnerAdmin, id))?.results).toMatchObject({ ignorado: 1, atualizado: 0 });
    expect(await eduarda()).toEqual(before);
  });
});

describe('messages that say what is wrong (issue 27)', () => {
  it('legacy: an unknown group, a name with ";", no group at all; "QA V2 Vendedor" is a full name', async () => {
    const admin = await actor('suporte@legado.demo');
    const text = [
      LEGACY_HEADER,
      `Ana Souza;ana.msg@legado.demo;${cpf(40)};11222333000181;VENDEDOR|SUPERVISOR;`,
      `"Téo; Lima";teo.msg@legado.demo;${cpf(41)};11222333000181;VENDEDOR;`,
      `Ivo Reis;ivo.msg@legado.demo;${cpf(42)};11222333000181;;`,
      `QA V2 Vendedor;qa.msg@legado.demo;${cpf(43)};11222333000181;VENDEDOR;`,
    ].join('\n');
    const id = await uploadImport(db, admin, 'msg.csv', bytes(text), null);
    expect(await importProblems(db, id)).toEqual([
      { line: 2, email: 'ana.msg@legado.demo', column: 'grupos', message: USER_ADMIN_MESSAGES.unknownGroup('SUPERVISOR') },
      { line: 3, email: 'teo.msg@legado.demo', column: 'nome', message: FULL_NAME_MESSAGES.characters(';') },
      { line: 4, email: 'ivo.msg@legado.demo', column: 'grupos', message: 'Selecione ao menos um grupo de acesso.' },
    ]);
  });

  it('v2: an unknown permission group or point of sale is said to be unknown, not of another company', async () => {
    const partnerAdmin = await actor('parceiro.admin@parceiro.demo');
    const text = [
      'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao',
      `Rita Souza;rita.msg@parceiro.demo;${cpf(44)};(11) 98888-1111;PARCEIRO;11222333000181;;Grupo Fantasma;;`,
      `Caio Souza;caio.msg@parceiro.demo;${cpf(45)};(11) 98888-2222;PARCEIRO;11222333000181;PV-9999;;;`,
      `QA V2 Vendedor;qa.msg@parceiro.demo;${cpf(46)};(11) 98888-3333;PARCEIRO;11222333000181;;;COTAR_VENDER;`,
    ].join('\n');
    const id = await uploadImport(db, partnerAdmin, 'msg.csv', bytes(text), null);
    expect(await importProblems(db, id)).toEqual([
      { line: 2, email: 'rita.msg@parceiro.demo', column: 'grupo_permissao', message: USER_ADMIN_MESSAGES.unknownPermissionGroup },
      { line: 3, email: 'caio.msg@parceiro.demo', column: 'ponto_venda', message: USER_ADMIN_MESSAGES.unknownPointOfSale },
    ]);
  });

  it('the template as downloaded validates for every actor who may import', async () => {
    for (const email of [
      'admin@legado.demo',
      'gestor@legado.demo',
      'parceiro.admin@parceiro.demo',
      'substabelecido@parceiro.demo',
      'admin@seguradora.demo',
    ]) {
      const who = await actor(email);
      const id = await uploadImport(db, who, 'modelo.csv', bytes(await importTemplate(db, who)), null);
      expect(await importProblems(db, id), email).toEqual([]);
      expect(await importOf(db, who, id), email).toMatchObject({ totalRows: 1, validRows: 1, existing: { changed: 0, unchanged: 0 } });
    }
  });
});

describe('between validation and writing', () => {
  it('judges each row again when it writes: a user registered meanwhile is not created twice; a stalled import is taken up again', async () => {
    const admin = await actor('suporte@legado.demo');
    const file = [
      LEGACY_HEADER,
      `Rui Matos;rui.import@legado.demo;${cpf(20)};11222333000181;VENDEDOR;ativo`,
      `Eva Dias;eva.import@legado.demo;${cpf(21)};11222333000181;VENDEDOR;ativo`,
    ].join('\n');
    const id = await uploadImport(db, admin, 'tarde.csv', bytes(file), null);
    // Someone registers Rui by hand before the import runs, and the worker that took it dies at once.
    await uploadImport(
      db,
      admin,
      'rui.csv',
      bytes([LEGACY_HEADER, `Rui Matos;rui.import@legado.demo;${cpf(20)};11222333000181;VENDEDOR;ativo`].join('\n')),
      null,
    ).then(async (solo) => {
      await confirmImport(db, admin, solo, { updateExisting: false }, null);
      await processImports(db);
    });
    await confirmImport(db, admin, id, { updateExisting: false }, null);
    await db
      .updateTable('user_imports')
      .set({ status: 'PROCESSANDO', claimed_at: new Date(Date.now() - 120_000) })
      .where('id', '=', id)
      .execute();
    await processImports(db);
    expect(await importOf(db, admin, id)).toMatchObject({ status: 'CONCLUIDO', results: { criado: 1, sem_alteracao: 1, recusado: 0 } });
    expect(await db.selectFrom('users').select('id').where('email', '=', 'rui.import@legado.demo').execute()).toHaveLength(1);
    // The first-access e-mails wait in the outbox for the delivery job, one per new user.
    expect(await db.selectFrom('emails').select('id').where('to_address', '=', 'eva.import@legado.demo').execute()).toHaveLength(1);
  });
});

describe('a v2 import', () => {
  it('resolves points of sale and permission groups by name within the companies given', async () => {
    const partnerAdmin = await actor('parceiro.admin@parceiro.demo');
    const text = [
      'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao',
      `Rita Lopes;rita.import@parceiro.demo;${cpf(10)};(11) 98888-7777;PARCEIRO;11.222.333/0001-81;PV-0002;Vendedor de loja;;`,
      `Ivo Reis;ivo.import@parceiro.demo;${cpf(11)};(11) 98888-6666;ADMIN;11222333000181;;;;`,
      `Lia Melo;lia.import@parceiro.demo;${cpf(12)};(11) 98888-5555;SUBSTABELECIDO;33444555000181;PV-0001;;COTAR_VENDER;`,
    ].join('\n');
    const id = await uploadImport(db, partnerAdmin, 'v2.csv', bytes(text), null);
    expect(await importProblems(db, id)).toEqual([
      {
        line: 3,
        email: 'ivo.import@parceiro.demo',
        column: 'perfil',
        message: 'Perfil acima do seu: escolha um perfil que você possa conceder.',
      },
      { line: 4, email: 'lia.import@parceiro.demo', column: 'ponto_venda', message: 'Ponto de venda fora das empresas selecionadas.' },
    ]);
    await confirmImport(db, partnerAdmin, id, { updateExisting: false }, null);
    await processImports(db);
    const rita = await db.selectFrom('users').selectAll().where('email', '=', 'rita.import@parceiro.demo').executeTakeFirstOrThrow();
    const group = await db.selectFrom('v2_permission_groups').select('id').where('nome', '=', 'Vendedor de loja').executeTakeFirstOrThrow();
    const point = await db.selectFrom('points_of_sale').select('id').where('codigo', '=', 'PV-0002').executeTakeFirstOrThrow();
    expect(rita).toMatchObject({
      profile: 'parceiro',
      celular: '11988887777',
      permission_group_id: group.id,
      point_of_sale_id: point.id,
      status: 'PENDENTE',
    });
  });
});

describe('5,000 rows', () => {
  it('import in batches in the background while other reads keep answering', async () => {
    const admin = await actor('suporte@legado.demo');
    const letters = (i: number) => [...i.toString(26)].map((d) => String.fromCharCode(97 + Number.parseInt(d, 26))).join('');
    const lines = Array.from(
      { length: 5000 },
      (_, i) => `Pessoa ${letters(i)};lote${i}@massa.demo;${cpf(1000 + i)};11222333000181;VENDEDOR;ativo`,
    );
    const started = Date.now();
    const id = await uploadImport(db, admin, 'massa.csv', bytes([LEGACY_HEADER, ...lines].join('\n')), null);
    const validated = Date.now() - started;
    expect(await importOf(db, admin, id)).toMatchObject({ totalRows: 5000, validRows: 5000 });
    await confirmImport(db, admin, id, { updateExisting: false }, null);
    // Another user's read every 50 ms while the import runs: how late each one answers, counted from
    // when it was due (the embedded database runs on the event loop: a batch in course delays it).
    const delays: number[] = [];
    let running = true;
    const reader = (async () => {
      while (running) {
        const due = Date.now() + 50;
        await new Promise((r) => setTimeout(r, 50));
        await db.selectFrom('policies').select('id').limit(20).execute();
        delays.push(Date.now() - due);
      }
    })();
    const t = Date.now();
    await processImports(db);
    const processed = Date.now() - t;
    running = false;
    await reader;
    expect(await importOf(db, admin, id)).toMatchObject({ status: 'CONCLUIDO', processedRows: 5000, results: { criado: 5000 } });
    delays.sort((a, b) => a - b);
    const p95 = delays[Math.floor(delays.length * 0.95)]!;
    console.info(
      `5.000 linhas: validação ${validated} ms, importação ${processed} ms; leitura concorrente p95 ${p95} ms (${delays.length} leituras)`,
    );
    expect(p95).toBeLessThan(500);
  }, 300_000);
});
