import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiErrorOf, type ApiError } from '../../src/server/api/errors';
import { DomainError } from '../../src/server/errors';
import { useManualClock as manualClock } from '../../src/server/clock';
import { actorOf } from '../../src/server/services/network/user-admin';
import { updateLegacyUser } from '../../src/server/services/network/user-admin-legacy';
import { uploadImport } from '../../src/server/services/network/user-import';
import { confirmImport, processImports } from '../../src/server/services/network/user-import-processing';
import { undoImport, undoPreview, undoStatus } from '../../src/server/services/network/user-import-undo';
import { UNDO_MESSAGES } from '../../src/lib/user-import-undo';
import type { Actor, V1Actor } from '../../src/lib/user-admin';

/**
 * Undoing an import (issue 32, decision 071) through the services: the preview says what each account
 * gets; the undo deactivates who the import created, restores who it updated, leaves who was changed
 * since; once only, within 24 hours, logged.
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const actor = async (email: string): Promise<Actor> =>
  actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow());
const bytes = (text: string) => new TextEncoder().encode(text);
const LEGACY_HEADER = 'nome;email;cpf;empresa;grupos;situacao';
function cpf(seed: number): string {
  const base = String(300_000_000 + seed)
    .split('')
    .map(Number);
  const digit = (d: number[]) => ((d.reduce((s, x, i) => s + x * (d.length + 1 - i), 0) * 10) % 11) % 10;
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return apiErrorOf(error)!;
}
const userOf = (email: string) =>
  db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.nome',
      'u.status',
      (eb) =>
        eb
          .selectFrom('user_groups as ug')
          .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
          .select((e) => e.fn.agg<string[]>('array_agg', ['g.nome']).as('groups'))
          .whereRef('ug.user_id', '=', 'u.id')
          .as('groups'),
    ])
    .where('u.email', '=', email)
    .executeTakeFirstOrThrow();

/** Imports `lines` as `admin`, updating existing accounts, and answers the import's id. */
async function imported(admin: Actor, lines: string[]): Promise<number> {
  const id = await uploadImport(db, admin, 'equipe.csv', bytes([LEGACY_HEADER, ...lines].join('\n')), null);
  await confirmImport(db, admin, id, { updateExisting: true }, null);
  await processImports(db);
  return id;
}

describe('undoing a legacy import', () => {
  it('previews, then deactivates who it created, restores who it updated and leaves who was changed since — once', async () => {
    const admin = await actor('admin@legado.demo');
    const bruno = await userOf('vendedor@legado.demo');
    const helena = await userOf('consultor@legado.demo');
    const id = await imported(admin, [
      `Ana Importada;ana.desfazer@legado.demo;${cpf(1)};11.222.333/0001-81;VENDEDOR;ativo`,
      `Beto Importado;beto.desfazer@legado.demo;${cpf(2)};11.222.333/0001-81;VENDEDOR;ativo`,
      'Bruno Carvalho Neto;vendedor@legado.demo;111.444.777-35;11.222.333/0001-81;VENDEDOR|CONSULTOR;',
      'Helena Martins Prado;consultor@legado.demo;987.654.321-00;11.222.333/0001-81;CONSULTOR;',
    ]);
    expect(await userOf('vendedor@legado.demo')).toMatchObject({ nome: 'Bruno Carvalho Neto' });

    // Someone else changes Helena after the import, and Beto is deactivated meanwhile.
    const other = (await actor('suporte@legado.demo')) as V1Actor;
    await updateLegacyUser(
      db,
      other,
      helena.id,
      {
        nome: 'Helena M. Prado',
        email: 'consultor@legado.demo',
        cpf: '98765432100',
        empresa: '11222333000181',
        grupos: ['CONSULTOR'],
        status: 'ativo',
      },
      null,
    );
    const beto = await userOf('beto.desfazer@legado.demo');
    await db.updateTable('users').set({ status: 'INATIVO' }).where('id', '=', beto.id).execute();

    const preview = (await undoPreview(db, admin, id))!;
    expect(preview.refusal).toBeUndefined();
    expect(preview.counts).toEqual({ desativar: 1, restaurar: 1, manter: 2 });
    const byLine = new Map(preview.items.map((i) => [i.line, i]));
    expect(byLine.get(2)).toMatchObject({ action: 'desativar' });
    expect(byLine.get(3)).toMatchObject({ action: 'manter', reason: UNDO_MESSAGES.alreadyOff('INATIVO') });
    expect(byLine.get(4)).toMatchObject({
      action: 'restaurar',
      fields: [
        { column: 'nome', label: 'Nome', before: 'Bruno Carvalho', after: 'Bruno Carvalho Neto' },
        { column: 'grupos', label: 'Grupos de acesso', before: 'VENDEDOR', after: 'CONSULTOR, VENDEDOR' },
      ],
    });
    expect(byLine.get(5)?.action).toBe('manter');
    expect(byLine.get(5)?.reason).toContain('Alterado depois da importação (nome)');
    expect(byLine.get(5)?.reason).toContain('por Rafael Monteiro em ');
    // Nothing changed by the preview.
    expect((await userOf('ana.desfazer@legado.demo')).status).toBe('PENDENTE');

    // Two clicks at once: one undo.
    const results = await Promise.allSettled([undoImport(db, admin, id, '10.0.0.7'), undoImport(db, admin, id, '10.0.0.7')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const second = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(apiErrorOf(second.reason)?.status).toBe(409);
    expect(apiErrorOf(second.reason)?.message).toMatch(/^Esta importação já foi desfeita em /);

    expect((await userOf('ana.desfazer@legado.demo')).status).toBe('INATIVO');
    expect(await userOf('vendedor@legado.demo')).toEqual(bruno);
    expect((await userOf('consultor@legado.demo')).nome).toBe('Helena M. Prado');
    const status = (await undoStatus(db, admin, id))!;
    expect(status.counts).toEqual({ desativar: 1, restaurar: 1, manter: 2 });
    expect(status.undoneAt).not.toBeNull();
    const events = await db
      .selectFrom('access_events')
      .select(['event', 'actor_id', 'ip', 'detalhe'])
      .where('event', '=', 'IMPORTACAO_DESFEITA')
      .where('registro', '=', String(id))
      .execute();
    expect(events).toEqual([
      {
        event: 'IMPORTACAO_DESFEITA',
        actor_id: admin.userId,
        ip: '10.0.0.7',
        detalhe: '1 criado desativado; 1 atualizado restaurado; 2 mantidos como estavam',
      },
    ]);
    const perUser = await db
      .selectFrom('access_events')
      .select(['event', 'detalhe'])
      .where('user_id', '=', bruno.id)
      .where('detalhe', 'like', `importação ${id} desfeita%`)
      .execute();
    expect(perUser).toEqual([{ event: 'USUARIO_ALTERADO', detalhe: `importação ${id} desfeita; campos: nome, grupos de acesso` }]);
  });

  it('is refused after 24 hours, and to anyone but its author', async () => {
    const admin = await actor('admin@legado.demo');
    const clock = manualClock();
    onTestFinished(() => clock.restore());
    const id = await imported(admin, [`Caio Importado;caio.desfazer@legado.demo;${cpf(3)};11.222.333/0001-81;VENDEDOR;ativo`]);
    expect(await undoPreview(db, await actor('suporte@legado.demo'), id)).toBeUndefined();
    expect((await refusal(undoImport(db, await actor('suporte@legado.demo'), id, null))).status).toBe(404);
    clock.advance(24 * 3_600_000 + 1_000);
    const preview = (await undoPreview(db, admin, id))!;
    expect(preview.refusal).toMatch(/^O prazo para desfazer esta importação terminou em /);
    const error = await refusal(undoImport(db, admin, id, null));
    expect(error.status).toBe(409);
    expect(error.message).toBe(preview.refusal);
    expect((await userOf('caio.desfazer@legado.demo')).status).toBe('PENDENTE');
  });

  it('within the day it may be undone up to its last second', async () => {
    const admin = await actor('admin@legado.demo');
    const clock = manualClock();
    onTestFinished(() => clock.restore());
    const id = await imported(admin, [`Duda Importada;duda.desfazer@legado.demo;${cpf(4)};11.222.333/0001-81;VENDEDOR;ativo`]);
    clock.advance(24 * 3_600_000 - 1_000);
    expect(await undoImport(db, admin, id, null)).toEqual({ desativar: 1, restaurar: 0, manter: 0 });
    expect((await userOf('duda.desfazer@legado.demo')).status).toBe('INATIVO');
  });
});

describe('undoing a v2 import', () => {
  it('deactivates the users created and ends their first-access codes', async () => {
    const partnerAdmin = await actor('parceiro.admin@parceiro.demo');
    const text = [
      'nome;email;cpf;celular;perfil;empresas;ponto_venda;grupo_permissao;operacoes;situacao',
      `Rita Desfeita;rita.desfazer@parceiro.demo;${cpf(10)};(11) 98888-7777;PARCEIRO;11.222.333/0001-81;PV-0002;Vendedor de loja;;`,
    ].join('\n');
    const id = await uploadImport(db, partnerAdmin, 'v2.csv', bytes(text), null);
    await confirmImport(db, partnerAdmin, id, { updateExisting: false }, null);
    await processImports(db);
    const rita = await userOf('rita.desfazer@parceiro.demo');
    expect(rita.status).toBe('PENDENTE');
    expect((await undoPreview(db, partnerAdmin, id))?.counts).toEqual({ desativar: 1, restaurar: 0, manter: 0 });
    await undoImport(db, partnerAdmin, id, null);
    expect((await userOf('rita.desfazer@parceiro.demo')).status).toBe('INATIVO');
    const codes = await db.selectFrom('one_time_codes').select(['used_at']).where('user_id', '=', rita.id).execute();
    expect(codes.every((c) => c.used_at !== null)).toBe(true);
  });
});
