import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { formPost } from '../fixtures/page-forms';
import { viewerByEmail } from '../fixtures/selling';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { now, useManualClock as manualClock } from '../../src/server/clock';
import { principalFacts } from '../../src/server/services/identity/principals';
import { actorOf } from '../../src/server/services/network/user-admin';
import { updateLegacyUser } from '../../src/server/services/network/user-admin-legacy';
import { legacyGroupOf, saveLegacyGroup } from '../../src/server/services/network/access-groups';
import { setGroupMembershipEnd, setPermissionGroupEnd, sweepEndedGrants } from '../../src/server/services/network/grant-ends';
import { GRANT_END_MESSAGES, grantEndDay } from '../../src/lib/grant-ends';
import { userStepPath } from '../../src/lib/user-admin';
import type { Actor, V1Actor } from '../../src/lib/user-admin';
import type { PortalSession } from '../../src/lib/session';
import { brasiliaDay } from '../../src/lib/format';

/**
 * Grants with an end date (issue 32, decision 071), on the test clock: a membership or a group's
 * grant stops counting at its end — read time, so the principal's facts drop it at once even from the
 * cache (an end sooner than the cache's 30 s) — and the sweep removes it and logs "acesso expirado",
 * once. Editing a user keeps a membership's end.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { legacyFormPage } = await import('../../src/features/users/users-legacy.server');
const { userStepPage } = await import('../../src/features/users/users-v2.server');
const { legacyGroupPage, permissionGroupPage } = await import('../../src/features/access-groups/access-groups.server');

let db: DB;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
});
afterAll(() => close());

const SECOND = 1_000;
const actor = async (email: string): Promise<Actor> =>
  actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow());
const userOf = (email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
const stoppedClock = () => {
  const clock = manualClock();
  onTestFinished(() => clock.restore());
  return clock;
};

describe('a legacy membership with an end date', () => {
  it('counts until its end, not a second after — from the cache too — and the sweep removes and logs it once', async () => {
    const clock = stoppedClock();
    const admin = await actor('admin@legado.demo');
    const bruno = await userOf('vendedor@legado.demo');
    expect((await principalFacts(db, bruno.id)).groups).toEqual(['VENDEDOR']);
    await setGroupMembershipEnd(db, admin, bruno.id, 'VENDEDOR', new Date(now().getTime() + 10 * SECOND), '10.0.0.4');
    // Read twice: the second answer is the cache's.
    const before = await principalFacts(db, bruno.id);
    expect(before.groups).toEqual(['VENDEDOR']);
    expect(before.permissions.map((p) => p.nome)).toContain('HISTORICO_VENDAS');
    expect((await principalFacts(db, bruno.id)).groups).toEqual(['VENDEDOR']);
    clock.advance(10 * SECOND);
    // Well within the cache's 30 s: the entry ends with the grant.
    const after = await principalFacts(db, bruno.id);
    expect(after.groups).toEqual([]);
    expect(after.permissions).toEqual([]);

    // Editing him meanwhile would not have made it permanent (checked below on a fresh end).
    expect(await sweepEndedGrants(db)).toEqual({ memberships: 1, permissionGroups: 0, groupGrants: 0 });
    expect(await sweepEndedGrants(db)).toEqual({ memberships: 0, permissionGroups: 0, groupGrants: 0 });
    expect(await db.selectFrom('user_groups').select('group_id').where('user_id', '=', bruno.id).execute()).toEqual([]);
    const logged = await db
      .selectFrom('access_events')
      .select(['event', 'detalhe'])
      .where('user_id', '=', bruno.id)
      .where('event', '=', 'ACESSO_EXPIRADO')
      .execute();
    expect(logged).toEqual([{ event: 'ACESSO_EXPIRADO', detalhe: GRANT_END_MESSAGES.membershipEnded('VENDEDOR') }]);
  });

  it('an edit of the user keeps the end date of a group kept', async () => {
    const clock = stoppedClock();
    const admin = (await actor('admin@legado.demo')) as V1Actor;
    const helena = await userOf('consultor@legado.demo');
    const end = new Date(now().getTime() + 3_600 * SECOND);
    await setGroupMembershipEnd(db, admin, helena.id, 'CONSULTOR', end, null);
    await updateLegacyUser(
      db,
      admin,
      helena.id,
      {
        nome: 'Helena Martins Dias',
        email: helena.email,
        cpf: helena.cpf!,
        empresa: '11222333000181',
        grupos: ['CONSULTOR'],
        status: 'ativo',
      },
      null,
    );
    const row = await db.selectFrom('user_groups').select('ends_at').where('user_id', '=', helena.id).executeTakeFirstOrThrow();
    expect(row.ends_at?.getTime()).toBe(end.getTime());
    clock.advance(3_600 * SECOND);
    expect((await principalFacts(db, helena.id)).groups).toEqual([]);
  });
});

describe('a v2 permission group with an end date', () => {
  it('its operations stop counting at the end; the user’s own stay', async () => {
    const clock = stoppedClock();
    const partnerAdmin = await actor('parceiro.admin@parceiro.demo');
    const igor = await userOf('igor.pereira@parceiro.demo');
    expect((await principalFacts(db, igor.id)).operations).toContain('COTAR_VENDER');
    await setPermissionGroupEnd(db, partnerAdmin, igor.id, new Date(now().getTime() + 5 * SECOND), null);
    expect((await principalFacts(db, igor.id)).operations).toContain('COTAR_VENDER');
    clock.advance(5 * SECOND);
    expect((await principalFacts(db, igor.id)).operations).toEqual([]);
    expect(await sweepEndedGrants(db)).toMatchObject({ permissionGroups: 1 });
    expect((await userOf('igor.pereira@parceiro.demo')).permission_group_id).toBeNull();
  });
});

describe('a group’s grant with an end date', () => {
  it('a legacy group’s permission and a v2 group’s operation stop counting for every member at the end', async () => {
    const clock = stoppedClock();
    const juliana = await userOf('juliana.costa@parceiro.demo');
    const gestor = await userOf('gestor@legado.demo');
    const end = new Date(now().getTime() + 20 * SECOND);
    const group = await db.selectFrom('v2_permission_groups').select('id').where('nome', '=', 'Vendedor de loja').executeTakeFirstOrThrow();
    await db
      .updateTable('v2_permission_group_operations')
      .set({ ends_at: end })
      .where('group_id', '=', group.id)
      .where('operation', '=', 'COTAR_VENDER')
      .execute();
    const legacy = await db.selectFrom('permission_groups').select('id').where('nome', '=', 'GESTOR').executeTakeFirstOrThrow();
    const [permission] = await db
      .selectFrom('group_permissions')
      .select('nome')
      .where('group_id', '=', legacy.id)
      .orderBy('nome')
      .execute();
    await db
      .updateTable('group_permissions')
      .set({ ends_at: end })
      .where('group_id', '=', legacy.id)
      .where('nome', '=', permission!.nome)
      .execute();
    // What the database's triggers would tell: the group changed (their facts are read anew).
    expect((await principalFacts(db, juliana.id)).operations).toContain('COTAR_VENDER');
    expect((await principalFacts(db, gestor.id)).permissions.map((p) => p.nome)).toContain(permission!.nome);
    clock.advance(20 * SECOND);
    expect((await principalFacts(db, juliana.id)).operations).not.toContain('COTAR_VENDER');
    expect((await principalFacts(db, gestor.id)).permissions.map((p) => p.nome)).not.toContain(permission!.nome);
    expect(await sweepEndedGrants(db)).toMatchObject({ groupGrants: 2 });
    const logged = await db
      .selectFrom('access_events')
      .select('detalhe')
      .where('event', '=', 'ACESSO_EXPIRADO')
      .where('user_id', 'is', null)
      .orderBy('id')
      .execute();
    expect(logged.map((l) => l.detalhe)).toEqual([
      GRANT_END_MESSAGES.grantEnded('GESTOR', permission!.nome),
      GRANT_END_MESSAGES.grantEnded('Vendedor de loja', 'COTAR_VENDER'),
    ]);
  });
});

describe('the group screens', () => {
  it('a legacy group’s permission gets a "válido até": refused when past, shown again, logged, kept by a save that does not say, cleared when left blank', async () => {
    const suporte = await viewerByEmail(db, 'suporte@legado.demo');
    const session = { v1: suporte.user } as PortalSession;
    const group = await db
      .selectFrom('permission_groups as g')
      .innerJoin('channels as c', 'c.id', 'g.channel_id')
      .select(['g.id', 'g.nome', 'g.descricao', 'c.codigo'])
      .where('g.nome', '=', 'CONSULTOR')
      .executeTakeFirstOrThrow();
    const held = await db.selectFrom('group_permissions').selectAll().where('group_id', '=', group.id).orderBy('nome').execute();
    const code = held[0]!.nome;
    const params = { grupo: group.nome, canal: group.codigo, action: 'editar' };
    const address = `http://portal.test/grupo-acesso/${group.nome}/${group.codigo}/editar`;
    const form = (extra: Record<string, string>) => ({
      nome: group.nome,
      descricao: group.descricao,
      ver: held.filter((p) => p.permite_visualizacao).map((p) => p.nome),
      alterar: held.filter((p) => p.permite_alteracao).map((p) => p.nome),
      ...extra,
    });
    const endOf = async () =>
      (
        await db
          .selectFrom('group_permissions')
          .select('ends_at')
          .where('group_id', '=', group.id)
          .where('nome', '=', code)
          .executeTakeFirstOrThrow()
      ).ends_at;

    const past = await legacyGroupPage(session, params, formPost(address, form({ [`ate-${code}`]: '2020-01-01' })), '10.0.0.1');
    expect(past).toMatchObject({ kind: 'page', status: 400, props: { errors: { ate: [`${code}: ${GRANT_END_MESSAGES.pastDate}`] } } });
    expect(await endOf()).toBeNull();

    const day = brasiliaDay(new Date(now().getTime() + 3 * 86_400_000));
    expect((await legacyGroupPage(session, params, formPost(address, form({ [`ate-${code}`]: day })), '10.0.0.1')).kind).toBe('redirect');
    expect(grantEndDay((await endOf())!)).toBe(day);
    const shown = await legacyGroupPage(session, params, new Request(address), '10.0.0.1');
    expect(shown).toMatchObject({ kind: 'page', props: { ends: { [code]: day } } });
    const logged = await db
      .selectFrom('access_events')
      .select('detalhe')
      .where('event', '=', 'GRUPO_ACESSO_ALTERADO')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged.detalhe).toContain(`${code} válida até ${day.split('-').reverse().join('/')}`);

    // A save that does not speak of ends (the API's) keeps them; the form left blank clears it.
    const record = await legacyGroupOf(db, group.nome, group.codigo);
    await saveLegacyGroup(
      db,
      (await actor('suporte@legado.demo')) as V1Actor,
      { channelCodigo: group.codigo, existing: record },
      {
        nome: group.nome,
        descricao: group.descricao,
        ver: form({}).ver,
        alterar: form({}).alterar,
      },
      null,
    );
    expect(grantEndDay((await endOf())!)).toBe(day);
    expect((await legacyGroupPage(session, params, formPost(address, form({})), '10.0.0.1')).kind).toBe('redirect');
    expect(await endOf()).toBeNull();
  });

  it('a v2 group’s checked operation gets an "até" day: refused when past, kept through a preview, saved, shown again', async () => {
    const viewer = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
    const session = { v2: viewer.user } as PortalSession;
    const group = await db
      .selectFrom('v2_permission_groups as g')
      .innerJoin('companies as c', 'c.id', 'g.company_id')
      .select(['g.id', 'g.nome', 'g.descricao', 'c.cnpj'])
      .where('g.nome', '=', 'Vendedor de loja')
      .executeTakeFirstOrThrow();
    const operations = (
      await db.selectFrom('v2_permission_group_operations').select('operation').where('group_id', '=', group.id).execute()
    ).map((o) => o.operation);
    const params = { id: String(group.id), cnpj: group.cnpj, action: 'editar' };
    const address = `http://portal.test/v2/usuario/permissoes/${group.id}/${group.cnpj}/editar`;
    const op = operations.find((o) => o !== 'COTAR_VENDER') ?? operations[0]!;
    const form = (acao: string, extra: Record<string, string>) => ({
      acao,
      nome: group.nome,
      descricao: group.descricao ?? '',
      operacoes: operations,
      ...extra,
    });
    const past = await permissionGroupPage(session, params, formPost(address, form('salvar', { [`ate-${op}`]: '2020-01-01' })), '10.0.0.1');
    expect(past).toMatchObject({ kind: 'page', status: 400 });
    expect(past.kind === 'page' && past.props.errors?.ate?.[0]).toMatch(GRANT_END_MESSAGES.pastDate);
    const day = brasiliaDay(new Date(now().getTime() + 4 * 86_400_000));
    const preview = await permissionGroupPage(session, params, formPost(address, form('previa', { [`ate-${op}`]: day })), '10.0.0.1');
    expect(preview).toMatchObject({ kind: 'page', status: 200, props: { ends: { [op]: day } } });
    expect((await permissionGroupPage(session, params, formPost(address, form('salvar', { [`ate-${op}`]: day })), '10.0.0.1')).kind).toBe(
      'redirect',
    );
    const saved = await db
      .selectFrom('v2_permission_group_operations')
      .select('ends_at')
      .where('group_id', '=', group.id)
      .where('operation', '=', op)
      .executeTakeFirstOrThrow();
    expect(grantEndDay(saved.ends_at!)).toBe(day);
    const shown = await permissionGroupPage(session, params, new Request(address), '10.0.0.1');
    expect(shown).toMatchObject({ kind: 'page', props: { ends: { [op]: day } } });
    // Left blank: no end again.
    expect((await permissionGroupPage(session, params, formPost(address, form('salvar', {})), '10.0.0.1')).kind).toBe('redirect');
    const cleared = await db
      .selectFrom('v2_permission_group_operations')
      .select('ends_at')
      .where('group_id', '=', group.id)
      .where('operation', '=', op)
      .executeTakeFirstOrThrow();
    expect(cleared.ends_at).toBeNull();
  });
});

describe('the legacy user’s edit page', () => {
  it('sets a group’s "válido até", shows it again, refuses a day past, and clears it', async () => {
    const viewer = await viewerByEmail(db, 'suporte@legado.demo');
    const session = { v1: viewer.user } as PortalSession;
    const gestor = await userOf('gestor@legado.demo');
    const address = `http://portal.test/editar-usuario/${gestor.id}`;
    const fields = (end: string) => ({
      nome: gestor.nome,
      email: gestor.email,
      cpf: gestor.cpf!,
      empresa: '11222333000181',
      grupos: ['GESTOR'],
      status: 'ativo',
      'fim-GESTOR': end,
    });
    const tomorrow = brasiliaDay(new Date(now().getTime() + 86_400_000));
    const saved = await legacyFormPage(session, String(gestor.id), formPost(address, fields(tomorrow)), '10.0.0.1');
    expect(saved.kind).toBe('redirect');
    const page = await legacyFormPage(session, String(gestor.id), new Request(address), '10.0.0.1');
    expect(page.kind === 'page' && page.props.ends).toEqual({ GESTOR: tomorrow });
    const past = await legacyFormPage(session, String(gestor.id), formPost(address, fields('2020-01-01')), '10.0.0.1');
    expect(past).toMatchObject({ kind: 'page', status: 400, props: { errors: { grupos: [`GESTOR: ${GRANT_END_MESSAGES.pastDate}`] } } });
    expect(
      (await db.selectFrom('user_groups').select('ends_at').where('user_id', '=', gestor.id).executeTakeFirstOrThrow()).ends_at,
    ).not.toBeNull();
    await legacyFormPage(session, String(gestor.id), formPost(address, fields('')), '10.0.0.1');
    expect(
      (await db.selectFrom('user_groups').select('ends_at').where('user_id', '=', gestor.id).executeTakeFirstOrThrow()).ends_at,
    ).toBeNull();
  });
});

describe('the v2 user’s finalization step', () => {
  it('sets the permission group’s "válido até" when editing, shows it again, refuses a day past', async () => {
    const viewer = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
    const session = { v2: viewer.user } as PortalSession;
    const juliana = await userOf('juliana.costa@parceiro.demo');
    const address = `http://portal.test/v2/usuario/cadastro/finalizacao/${juliana.cpf}/editar`;
    const params = { cpf: juliana.cpf!, acao: 'editar' };
    const shown = await userStepPage(session, 'finalizacao', params, new Request(address), '10.0.0.1');
    expect(shown).toMatchObject({ kind: 'page', status: 200, props: { groupEnd: '' } });
    const past = await userStepPage(session, 'finalizacao', params, formPost(address, { grupoPermissaoAte: '2020-01-01' }), '10.0.0.1');
    expect(past).toMatchObject({ kind: 'page', status: 400, props: { errors: { grupoPermissao: [GRANT_END_MESSAGES.pastDate] } } });
    const day = brasiliaDay(new Date(now().getTime() + 2 * 86_400_000));
    const saved = await userStepPage(session, 'finalizacao', params, formPost(address, { grupoPermissaoAte: day }), '10.0.0.1');
    expect(saved.kind).toBe('redirect');
    expect((await userOf('juliana.costa@parceiro.demo')).permission_group_ends_at).not.toBeNull();
    const again = await userStepPage(session, 'finalizacao', params, new Request(address), '10.0.0.1');
    expect(again).toMatchObject({ kind: 'page', props: { groupEnd: day } });
  });

  it('a new user’s permission group may end too: the three steps, the end set with the registration', async () => {
    const viewer = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
    const session = { v2: viewer.user } as PortalSession;
    const juliana = await userOf('juliana.costa@parceiro.demo');
    const company = await db
      .selectFrom('companies')
      .select('cnpj')
      .where('id', 'in', db.selectFrom('user_companies').select('company_id').where('user_id', '=', juliana.id))
      .executeTakeFirstOrThrow();
    const cpf = '41837596255';
    const step = (name: 'dados-pessoais' | 'vincular-usuario' | 'finalizacao', form?: Record<string, string | string[]>) => {
      const params = name === 'dados-pessoais' ? {} : { cpf, acao: 'novo' };
      const address = `http://portal.test${userStepPath(name, name === 'dados-pessoais' ? undefined : cpf)}`;
      return userStepPage(session, name, params, form ? formPost(address, form) : new Request(address), '10.0.0.1');
    };
    const dados = { cpf, nome: 'Renata Prazo Certo', email: 'renata.prazo@parceiro.demo', celular: '11987654321', perfil: 'PARCEIRO' };
    expect(await step('dados-pessoais', dados)).toMatchObject({ kind: 'redirect' });
    const vinculo = { empresas: [company.cnpj], pontoVenda: '', grupoPermissao: String(juliana.permission_group_id), operacoes: [] };
    expect(await step('vincular-usuario', vinculo)).toMatchObject({ kind: 'redirect' });
    const shown = await step('finalizacao');
    expect(shown).toMatchObject({ kind: 'page', status: 200 });
    const past = await step('finalizacao', { grupoPermissaoAte: '2020-01-01' });
    expect(past).toMatchObject({ kind: 'page', status: 400, props: { errors: { grupoPermissao: [GRANT_END_MESSAGES.pastDate] } } });
    expect(await db.selectFrom('users').select('id').where('cpf', '=', cpf).executeTakeFirst()).toBeUndefined();
    const day = brasiliaDay(new Date(now().getTime() + 5 * 86_400_000));
    expect((await step('finalizacao', { grupoPermissaoAte: day })).kind).toBe('redirect');
    const renata = await db.selectFrom('users').selectAll().where('cpf', '=', cpf).executeTakeFirstOrThrow();
    expect(renata.permission_group_id).toBe(juliana.permission_group_id);
    expect(renata.permission_group_ends_at).not.toBeNull();
    expect(grantEndDay(renata.permission_group_ends_at!)).toBe(day);
  });
});
