import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesSettled, type DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiErrorOf, type ApiError } from '../../src/server/api/errors';
import { DomainError } from '../../src/server/errors';
import { principalFacts } from '../../src/server/services/identity/principals';
import { actorOf, managedUser } from '../../src/server/services/network/user-admin';
import { updateV2User } from '../../src/server/services/network/user-admin-v2';
import { draftOfUser } from '../../src/server/services/network/user-admin-drafts';
import {
  deletePermissionGroup,
  legacyGroupOf,
  listPermissionGroups,
  permissionGroupOf,
  savePermissionGroup,
  saveLegacyGroup,
} from '../../src/server/services/network/access-groups';
import { ACCESS_GROUP_MESSAGES as M } from '../../src/lib/access-groups';
import { USER_ADMIN_MESSAGES } from '../../src/lib/user-admin';
import type { V1Actor, V2Actor } from '../../src/lib/user-admin';

/**
 * The groups that hold permissions (issue 16, decision 047), through the service: who may change
 * them, what they may hold, names, the log — and a change reaching the group's users on their next
 * request (the cached principal is dropped by the change notice).
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';
const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const actor = async <A extends V1Actor | V2Actor>(email: string) =>
  (await actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow())) as A;
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // A refusal of the domain, as the API would answer it.
  expect(error).toBeInstanceOf(DomainError);
  return apiErrorOf(error)!;
}
const events = (event: string) => db.selectFrom('access_events').selectAll().where('event', '=', event).orderBy('id', 'desc').execute();

describe('legacy access groups', () => {
  const input = { nome: 'ATENDIMENTO', descricao: 'Atendimento: histórico', ver: ['HISTORICO_VENDAS'], alterar: [] as string[] };

  it('only the admin group creates one, in an active channel; the name is unique across channels', async () => {
    const manager = await actor<V1Actor>('gestor@legado.demo');
    expect((await refusal(saveLegacyGroup(db, manager, { channelCodigo: 'portal' }, input, null))).status).toBe(403);
    const admin = await actor<V1Actor>('suporte@legado.demo');
    expect(await saveLegacyGroup(db, admin, { channelCodigo: 'varejo' }, input, '10.0.0.9')).toBe('ATENDIMENTO');
    const saved = await legacyGroupOf(db, 'ATENDIMENTO', 'varejo');
    expect(saved?.permissions).toEqual([{ nome: 'HISTORICO_VENDAS', permiteVisualizacao: true, permiteAlteracao: false }]);
    expect(await legacyGroupOf(db, 'ATENDIMENTO', 'portal')).toBeUndefined();
    const duplicate = await refusal(saveLegacyGroup(db, admin, { channelCodigo: 'portal' }, { ...input, nome: 'VENDEDOR' }, null));
    expect(duplicate.status).toBe(409);
    expect(duplicate.fieldErrors).toEqual({ nome: [M.duplicate] });
    await db.updateTable('channels').set({ status: 'INATIVO' }).where('codigo', '=', 'varejo').execute();
    await changesSettled(db);
    const inactive = await refusal(saveLegacyGroup(db, admin, { channelCodigo: 'varejo' }, { ...input, nome: 'OUTRO' }, null));
    expect(inactive.fieldErrors).toEqual({ form: [M.channel] });
    await db.updateTable('channels').set({ status: 'ATIVO' }).where('codigo', '=', 'varejo').execute();
  });

  it('never changes the admin group', async () => {
    const admin = await actor<V1Actor>('suporte@legado.demo');
    const group = (await legacyGroupOf(db, 'ADMINISTRADOR', 'portal'))!;
    const error = await refusal(
      saveLegacyGroup(db, admin, { channelCodigo: 'portal', existing: group }, { ...input, nome: 'ADMINISTRADOR' }, null),
    );
    expect(error.fieldErrors).toEqual({ form: [M.adminGroup] });
  });

  it('a change reaches the group’s users on their next request, and the log says who changed what', async () => {
    const admin = await actor<V1Actor>('suporte@legado.demo');
    const consultant = await userId('consultor@legado.demo');
    const before = await principalFacts(db, consultant); // now cached
    expect(before.permissions.map((p) => p.nome)).not.toContain('RELATORIO_GESTAO');
    const group = (await legacyGroupOf(db, 'CONSULTOR', 'portal'))!;
    const ver = [...group.permissions.map((p) => p.nome), 'RELATORIO_GESTAO'];
    await saveLegacyGroup(
      db,
      admin,
      { channelCodigo: 'portal', existing: group },
      { nome: 'CONSULTOR', descricao: group.descricao, ver, alterar: ['RELATORIO_GESTAO'] },
      '10.0.0.9',
    );
    const after = await principalFacts(db, consultant);
    expect(after.permissions).toContainEqual({ nome: 'RELATORIO_GESTAO', permiteVisualizacao: true, permiteAlteracao: true });
    const [logged] = await events('GRUPO_ACESSO_ALTERADO');
    expect(logged).toMatchObject({ actor_id: admin.userId, ip: '10.0.0.9', generation: 'v1', email: 'suporte@legado.demo' });
    expect(logged!.detalhe).toBe('grupo CONSULTOR (canal portal): RELATORIO_GESTAO: sem acesso → visualizar e alterar');
    // Put back as it was, for the tests that follow.
    await saveLegacyGroup(
      db,
      admin,
      { channelCodigo: 'portal', existing: (await legacyGroupOf(db, 'CONSULTOR', 'portal'))! },
      { nome: 'CONSULTOR', descricao: group.descricao, ver: group.permissions.map((p) => p.nome), alterar: [] },
      null,
    );
    expect((await principalFacts(db, consultant)).permissions.map((p) => p.nome)).not.toContain('RELATORIO_GESTAO');
  });
});

describe('v2 permission groups', () => {
  const group = { empresa: HORIZONTE, nome: 'Gerência', descricao: '', operacoes: ['METRICAS', 'RELATORIO_VENDAS'] };

  it('a partner admin creates one for a company they administer, not for another; names are unique per company, in any case', async () => {
    const partnerAdmin = await actor<V2Actor>('parceiro.admin@parceiro.demo');
    const saved = await savePermissionGroup(db, partnerAdmin, group, undefined, null);
    expect(saved.cnpj).toBe(HORIZONTE);
    const other = await db
      .insertInto('companies')
      .values({ cnpj: '99888777000166', razao_social: 'Outra Corretora Ltda.', nome_fantasia: 'Outra', tipo: 'PARCEIRO', parent_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      (await refusal(savePermissionGroup(db, partnerAdmin, { ...group, empresa: '99888777000166' }, undefined, null))).fieldErrors,
    ).toEqual({ empresa: [M.empresa] });
    const duplicate = await refusal(savePermissionGroup(db, partnerAdmin, { ...group, nome: 'GERÊNCIA' }, undefined, null));
    expect([duplicate.status, duplicate.fieldErrors]).toEqual([409, { nome: [M.duplicate] }]);
    // The same name in another company is another group.
    const admin = await actor<V2Actor>('admin@seguradora.demo');
    expect((await savePermissionGroup(db, admin, { ...group, empresa: '99888777000166' }, undefined, null)).cnpj).toBe('99888777000166');
    // Each sees the groups of their companies.
    const mine = await listPermissionGroups(db, partnerAdmin, {}, 1);
    expect(mine.content.map((g) => g.empresa.cnpj)).not.toContain('99888777000166');
    expect((await listPermissionGroups(db, admin, { empresa: '99888777000166' }, 1)).totalElements).toBe(1);
    expect(
      await permissionGroupOf(
        db,
        partnerAdmin,
        (await listPermissionGroups(db, admin, { empresa: '99888777000166' }, 1)).content[0]!.id,
        '99888777000166',
      ),
    ).toBeUndefined();
    await db.deleteFrom('companies').where('id', '=', other.id).execute();
  });

  it('holds only operations the actor holds; a seller without GERENCIAR_PERMISSOES may not manage groups', async () => {
    const sub = await actor<V2Actor>('substabelecido@parceiro.demo');
    await db.insertInto('user_operations').values({ user_id: sub.userId, operation: 'GERENCIAR_PERMISSOES' }).execute();
    await changesSettled(db); // plain SQL: the cached principal drops when the notice arrives
    const manager = await actor<V2Actor>('substabelecido@parceiro.demo');
    const refused = await refusal(
      savePermissionGroup(db, manager, { ...group, empresa: VALE_VERDE, operacoes: ['METRICAS'] }, undefined, null),
    );
    expect(refused.fieldErrors).toEqual({ operacoes: [M.operacao] });
    expect(
      (await savePermissionGroup(db, manager, { ...group, empresa: VALE_VERDE, operacoes: ['RELATORIO_VENDAS'] }, undefined, null)).cnpj,
    ).toBe(VALE_VERDE);
    await db.deleteFrom('user_operations').where('user_id', '=', sub.userId).where('operation', '=', 'GERENCIAR_PERMISSOES').execute();
    await changesSettled(db);
    const seller = await actor<V2Actor>('parceiro@parceiro.demo');
    expect((await refusal(savePermissionGroup(db, seller, group, undefined, null))).status).toBe(403);
  });

  it('a user given the group holds its operations; the group changed, they hold the new ones at once; in use it is not deleted', async () => {
    const partnerAdmin = await actor<V2Actor>('parceiro.admin@parceiro.demo');
    const gerencia = (await listPermissionGroups(db, partnerAdmin, { nome: 'Gerência' }, 1)).content.find(
      (g) => g.empresa.cnpj === HORIZONTE,
    )!;
    const seller = await userId('parceiro@parceiro.demo');
    expect((await principalFacts(db, seller)).operations).not.toContain('RELATORIO_VENDAS');
    const target = (await managedUser(db, partnerAdmin, { id: seller }))!;
    const change = draftOfUser(target);
    // A group of a company the user is not linked to is refused.
    const valeGroup = (await listPermissionGroups(db, partnerAdmin, { empresa: VALE_VERDE }, 1)).content[0]!;
    const wrong = await refusal(
      updateV2User(db, partnerAdmin, seller, { ...change, vinculo: { ...change.vinculo, grupoPermissao: String(valeGroup.id) } }, null),
    );
    expect(wrong.fieldErrors?.grupoPermissao).toEqual([USER_ADMIN_MESSAGES.permissionGroup]);
    await updateV2User(db, partnerAdmin, seller, { ...change, vinculo: { ...change.vinculo, grupoPermissao: String(gerencia.id) } }, null);
    expect((await principalFacts(db, seller)).operations).toEqual(expect.arrayContaining(['METRICAS', 'RELATORIO_VENDAS', 'COTAR_VENDER']));

    await savePermissionGroup(db, partnerAdmin, { ...group, operacoes: ['METRICAS'] }, gerencia, '10.0.0.7');
    expect((await principalFacts(db, seller)).operations).not.toContain('RELATORIO_VENDAS');
    const [logged] = await events('GRUPO_PERMISSAO_ALTERADO');
    expect(logged!.detalhe).toBe(`grupo "Gerência" (${HORIZONTE}): incluídas nenhuma; retiradas RELATORIO_VENDAS`);

    const inUse = (await permissionGroupOf(db, partnerAdmin, gerencia.id, HORIZONTE))!;
    expect(inUse.usuarios).toBe(1);
    expect((await refusal(deletePermissionGroup(db, partnerAdmin, inUse, null))).fieldErrors).toEqual({ form: [M.inUse] });
    await updateV2User(db, partnerAdmin, seller, { ...change, vinculo: { ...change.vinculo, grupoPermissao: '' } }, null);
    await deletePermissionGroup(db, partnerAdmin, inUse, null);
    expect(await permissionGroupOf(db, partnerAdmin, gerencia.id, HORIZONTE)).toBeUndefined();
  });
  it('a group whose users also work for a company the actor does not administer changes only by the insurer’s ADMIN', async () => {
    const partnerAdmin = await actor<V2Actor>('parceiro.admin@parceiro.demo');
    const { id } = await savePermissionGroup(db, partnerAdmin, { ...group, nome: 'Plantão', operacoes: ['METRICAS'] }, undefined, null);
    const plantao = (await permissionGroupOf(db, partnerAdmin, id, HORIZONTE))!;
    // Juliana holds the group, and also works for a company outside the partner admin's.
    const other = await db
      .insertInto('companies')
      .values({ cnpj: '77666555000144', razao_social: 'Rede Parceira S.A.', nome_fantasia: 'Rede', tipo: 'PARCEIRO', parent_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const juliana = await userId('juliana.costa@parceiro.demo');
    await db.insertInto('user_companies').values({ user_id: juliana, company_id: other.id }).execute();
    await db.updateTable('users').set({ permission_group_id: id }).where('id', '=', juliana).execute();
    await changesSettled(db);

    const widened = await refusal(
      savePermissionGroup(db, partnerAdmin, { ...group, nome: 'Plantão', operacoes: ['METRICAS', 'RELATORIO_VENDAS'] }, plantao, null),
    );
    expect([widened.status, widened.fieldErrors]).toEqual([409, { operacoes: [M.foreignHolders] }]);
    expect((await principalFacts(db, juliana)).operations).not.toContain('RELATORIO_VENDAS');
    // Renaming it gives nobody anything: allowed.
    await savePermissionGroup(db, partnerAdmin, { ...group, nome: 'Plantão de vendas', operacoes: ['METRICAS'] }, plantao, null);
    const admin = await actor<V2Actor>('admin@seguradora.demo');
    const renamed = (await permissionGroupOf(db, admin, id, HORIZONTE))!;
    await savePermissionGroup(db, admin, { ...group, nome: renamed.nome, operacoes: ['METRICAS', 'RELATORIO_VENDAS'] }, renamed, null);
    expect((await principalFacts(db, juliana)).operations).toContain('RELATORIO_VENDAS');

    await db.updateTable('users').set({ permission_group_id: null }).where('id', '=', juliana).execute();
    await db.deleteFrom('user_companies').where('company_id', '=', other.id).execute();
    await db.deleteFrom('companies').where('id', '=', other.id).execute();
  });
});
