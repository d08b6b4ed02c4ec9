import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  grantableGroups,
  grantableProfiles,
  heldOperations,
  legacyUserSchema,
  managedCompanies,
  mayChangeUsers,
  mayListUsers,
  mayManage,
  operationLabel,
  pendingUserStep,
  personalDataSchema,
  standingProblems,
  stepReachable,
  USER_ADMIN_MESSAGES,
  userListHref,
  userListQuery,
  v1GrantProblems,
  v2GrantProblems,
  type LegacyGroup,
  type ManagedUser,
  type V1Actor,
  type V2Actor,
} from './user-admin';
import { V1_ADMIN_GROUP } from './permissions';

const view = (nome: string, edit = false) => ({ nome, permiteVisualizacao: true, permiteAlteracao: edit });
const GROUPS: LegacyGroup[] = [
  { id: 1, nome: V1_ADMIN_GROUP, isAdmin: true, permissions: [] },
  { id: 2, nome: 'VENDEDOR', isAdmin: false, permissions: [view('HISTORICO_VENDAS'), view('RELATORIO_GESTAO')] },
  {
    id: 3,
    nome: 'GESTOR',
    isAdmin: false,
    permissions: [view('HISTORICO_VENDAS', true), view('RELATORIO_GESTAO', true), view('USUARIOS', true)],
  },
  { id: 4, nome: 'FINANCEIRO', isAdmin: false, permissions: [view('FINANCEIRO_INFORME_RENDIMENTO')] },
];
const v1 = (groups: string[], companyId: number | null = 10): V1Actor => ({
  generation: 'v1',
  userId: 1,
  groups,
  companyId,
  permissions: GROUPS.filter((g) => groups.includes(g.nome)).flatMap((g) => g.permissions),
});
const v2 = (profile: V2Actor['profile'], operations: string[] = [], companyIds: number[] = [10]): V2Actor => ({
  generation: 'v2',
  userId: 1,
  profile,
  operations,
  companyIds,
});
const user = (over: Partial<ManagedUser>): ManagedUser => ({
  id: 2,
  generation: 'v2',
  status: 'ATIVO',
  profile: 'PARCEIRO',
  operations: [],
  companyIds: [10],
  groups: [],
  ...over,
});

describe('who may list and change users', () => {
  it.each([
    ['the legacy admin group', v1([V1_ADMIN_GROUP]), true, true],
    ['a legacy group with USUARIOS to change', v1(['GESTOR']), true, true],
    ['a legacy seller', v1(['VENDEDOR']), false, false],
    ['ADMIN', v2('ADMIN', [], []), true, true],
    ['PARCEIRO_ADMIN', v2('PARCEIRO_ADMIN'), true, true],
    ['a substabelecido with GERENCIAR_USUARIOS', v2('SUBSTABELECIDO', ['GERENCIAR_USUARIOS']), true, true],
    ['a substabelecido without it', v2('SUBSTABELECIDO', ['COTAR_VENDER']), false, false],
    ['a seller', v2('PARCEIRO', ['COTAR_VENDER']), false, false],
  ])('%s', (_, actor, list, change) => {
    expect(mayListUsers(actor)).toBe(list);
    expect(mayChangeUsers(actor)).toBe(change);
  });

  it('a legacy group that only views users lists them but changes none', () => {
    const viewer: V1Actor = { ...v1([]), permissions: [view('USUARIOS')] };
    expect(mayListUsers(viewer)).toBe(true);
    expect(mayChangeUsers(viewer)).toBe(false);
  });

  it('scopes to the companies administered; the admin group and ADMIN to all', () => {
    expect(managedCompanies(v1([V1_ADMIN_GROUP]))).toBe('all');
    expect(managedCompanies(v1(['GESTOR'], 10))).toEqual([10]);
    expect(managedCompanies(v1(['GESTOR'], null))).toEqual([]);
    expect(managedCompanies(v2('ADMIN'))).toBe('all');
    expect(managedCompanies(v2('PARCEIRO_ADMIN', [], [10, 11]))).toEqual([10, 11]);
  });
});

describe('what may be granted', () => {
  it('profiles: ADMIN all, PARCEIRO_ADMIN its own and below, everyone else only their own', () => {
    expect(grantableProfiles(v2('ADMIN'))).toEqual(['ADMIN', 'PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO']);
    expect(grantableProfiles(v2('PARCEIRO_ADMIN'))).toEqual(['PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO']);
    expect(grantableProfiles(v2('SUBSTABELECIDO', ['GERENCIAR_USUARIOS']))).toEqual(['SUBSTABELECIDO']);
  });

  it('operations: what the actor holds; managing partners is ADMIN’s unless given', () => {
    expect(heldOperations(v2('ADMIN'))).toContain('GERENCIAR_PARCEIRO');
    expect(heldOperations(v2('PARCEIRO_ADMIN'))).not.toContain('GERENCIAR_PARCEIRO');
    expect(heldOperations(v2('PARCEIRO_ADMIN'))).toContain('GERENCIAR_USUARIOS');
    expect(heldOperations(v2('SUBSTABELECIDO', ['GERENCIAR_USUARIOS', 'COTAR_VENDER']))).toEqual(['GERENCIAR_USUARIOS', 'COTAR_VENDER']);
  });

  it('legacy groups: the admin group all; others those they hold wholly (view for view, change for change), never the admin group', () => {
    expect(grantableGroups(v1([V1_ADMIN_GROUP]), GROUPS).map((g) => g.nome)).toEqual([V1_ADMIN_GROUP, 'VENDEDOR', 'GESTOR', 'FINANCEIRO']);
    expect(grantableGroups(v1(['GESTOR']), GROUPS).map((g) => g.nome)).toEqual(['VENDEDOR', 'GESTOR']);
    const viewOnly: V1Actor = { ...v1([]), permissions: [view('HISTORICO_VENDAS'), view('RELATORIO_GESTAO'), view('USUARIOS')] };
    expect(grantableGroups(viewOnly, GROUPS).map((g) => g.nome)).toEqual(['VENDEDOR']);
  });

  const HORIZONTE = { id: 10, tipo: 'PARCEIRO' as const };
  const VALE = { id: 11, tipo: 'SUBSTABELECIDO' as const };
  const OTHER = { id: 99, tipo: 'PARCEIRO' as const };
  const grant = (over: Partial<Parameters<typeof v2GrantProblems>[1]> = {}) => ({
    profile: 'PARCEIRO' as const,
    operations: ['COTAR_VENDER'],
    companies: [HORIZONTE],
    pointOfSaleCompanyId: null,
    ...over,
  });

  it('a v2 grant within the actor’s reach has no problems', () => {
    expect(v2GrantProblems(v2('PARCEIRO_ADMIN', [], [10, 11]), grant())).toEqual({});
  });

  it.each([
    ['a profile above the actor', v2('PARCEIRO_ADMIN'), grant({ profile: 'ADMIN' }), 'perfil', USER_ADMIN_MESSAGES.profile],
    [
      'an operation the actor lacks',
      v2('SUBSTABELECIDO', ['GERENCIAR_USUARIOS'], [11]),
      grant({ profile: 'SUBSTABELECIDO', companies: [VALE] }),
      'operacoes',
      USER_ADMIN_MESSAGES.operation,
    ],
    ['a company not the actor’s', v2('PARCEIRO_ADMIN'), grant({ companies: [OTHER] }), 'empresas', USER_ADMIN_MESSAGES.company],
    ['no company', v2('PARCEIRO_ADMIN'), grant({ companies: [] }), 'empresas', USER_ADMIN_MESSAGES.companyRequired],
    [
      'a company of the wrong kind',
      v2('PARCEIRO_ADMIN', [], [10, 11]),
      grant({ companies: [VALE] }),
      'empresas',
      USER_ADMIN_MESSAGES.companyType,
    ],
    [
      'a point of sale of another company',
      v2('PARCEIRO_ADMIN'),
      grant({ pointOfSaleCompanyId: 99 }),
      'pontoVenda',
      USER_ADMIN_MESSAGES.pointOfSale,
    ],
  ])('refuses %s', (_, actor, asked, field, message) => {
    expect(v2GrantProblems(actor, asked)[field]).toEqual([message]);
  });

  it('what a user already had stays theirs: an actor may keep what they could not give', () => {
    const manager = v2('SUBSTABELECIDO', ['GERENCIAR_USUARIOS'], [11]);
    const before = user({ profile: 'SUBSTABELECIDO', operations: ['RELATORIO_VENDAS'], companyIds: [11] });
    const asked = grant({ profile: 'SUBSTABELECIDO', companies: [VALE], operations: ['RELATORIO_VENDAS'] });
    expect(v2GrantProblems(manager, asked, before)).toEqual({});
    expect(v2GrantProblems(manager, { ...asked, operations: ['RELATORIO_VENDAS', 'METRICAS'] }, before).operacoes).toBeDefined();
  });

  it('a legacy grant: groups the actor holds, within its company', () => {
    expect(v1GrantProblems(v1(['GESTOR']), { groups: ['VENDEDOR'], companyId: 10 }, GROUPS)).toEqual({});
    expect(v1GrantProblems(v1(['GESTOR']), { groups: [V1_ADMIN_GROUP], companyId: 10 }, GROUPS).grupos).toEqual([
      USER_ADMIN_MESSAGES.group,
    ]);
    expect(v1GrantProblems(v1(['GESTOR']), { groups: ['VENDEDOR'], companyId: 11 }, GROUPS).empresa).toEqual([USER_ADMIN_MESSAGES.company]);
    expect(v1GrantProblems(v1(['GESTOR']), { groups: ['VENDEDOR'], companyId: null }, GROUPS).empresa).toEqual([
      USER_ADMIN_MESSAGES.companyRequired,
    ]);
    expect(v1GrantProblems(v1([V1_ADMIN_GROUP]), { groups: [V1_ADMIN_GROUP], companyId: null }, GROUPS)).toEqual({});
  });
});

describe('whom an actor manages', () => {
  it('v2: the users of their companies at or below their profile; never another generation', () => {
    const partnerAdmin = v2('PARCEIRO_ADMIN', [], [10, 11]);
    expect(mayManage(partnerAdmin, user({}))).toBe(true);
    expect(mayManage(partnerAdmin, user({ profile: 'ADMIN', companyIds: [] }))).toBe(false);
    expect(mayManage(partnerAdmin, user({ companyIds: [10, 99] }))).toBe(false);
    expect(mayManage(partnerAdmin, user({ generation: 'v1', profile: null }))).toBe(false);
    expect(mayManage(v2('ADMIN'), user({ companyIds: [99] }))).toBe(true);
  });

  it('v1: a manager changes its company’s users whose groups it could give', () => {
    const manager = v1(['GESTOR']);
    const seller = user({ generation: 'v1', profile: null, groups: ['VENDEDOR'] });
    expect(mayManage(manager, seller, GROUPS)).toBe(true);
    expect(mayManage(manager, { ...seller, groups: [V1_ADMIN_GROUP] }, GROUPS)).toBe(false);
    expect(mayManage(manager, { ...seller, companyIds: [11] }, GROUPS)).toBe(false);
  });
});

describe('the last administrators', () => {
  const admin = { status: 'ATIVO' as const, profile: 'ADMIN' as const, groups: [], companyIds: [] };
  const none = { portal: 0, perCompany: new Map<number, number>() };

  it('oneself never changes one’s own status', () => {
    expect(standingProblems('v2', 2, 2, admin, { ...admin, status: 'INATIVO' }, { ...none, portal: 3 }).status).toEqual([
      USER_ADMIN_MESSAGES.selfStatus,
    ]);
  });

  it('the last ADMIN neither leaves nor loses the profile; with another one it may', () => {
    expect(standingProblems('v2', 1, 2, admin, { ...admin, status: 'INATIVO' }, none).status).toEqual([USER_ADMIN_MESSAGES.lastAdmin]);
    expect(standingProblems('v2', 1, 2, admin, { ...admin, profile: 'PARCEIRO_ADMIN' }, none).perfil).toEqual([
      USER_ADMIN_MESSAGES.lastAdmin,
    ]);
    expect(standingProblems('v2', 1, 2, admin, { ...admin, status: 'INATIVO' }, { ...none, portal: 1 })).toEqual({});
  });

  it('the last legacy admin keeps the admin group', () => {
    const legacy = { status: 'ATIVO' as const, profile: null, groups: [V1_ADMIN_GROUP], companyIds: [] };
    expect(standingProblems('v1', 1, 2, legacy, { ...legacy, groups: ['VENDEDOR'] }, none).grupos).toEqual([USER_ADMIN_MESSAGES.lastAdmin]);
  });

  it('a company keeps one active PARCEIRO_ADMIN', () => {
    const partnerAdmin = { status: 'ATIVO' as const, profile: 'PARCEIRO_ADMIN' as const, groups: [], companyIds: [10, 11] };
    const others = {
      portal: 1,
      perCompany: new Map([
        [10, 1],
        [11, 0],
      ]),
    };
    expect(standingProblems('v2', 1, 2, partnerAdmin, { ...partnerAdmin, companyIds: [10] }, others).empresas).toEqual([
      USER_ADMIN_MESSAGES.lastCompanyAdmin,
    ]);
    expect(standingProblems('v2', 1, 2, partnerAdmin, { ...partnerAdmin, companyIds: [11] }, others)).toEqual({});
  });
});

describe('forms', () => {
  it('reads a legacy form: masked CPF, e-mail in lower case, one group as a list', () => {
    const parsed = z.parse(legacyUserSchema, {
      nome: '  Lúcia   Fontes ',
      email: 'Lucia@Exemplo.com.BR',
      cpf: '529.982.247-25',
      empresa: '11.222.333/0001-81',
      grupos: 'VENDEDOR',
      status: 'ATIVO',
    });
    expect(parsed).toEqual({
      nome: 'Lúcia Fontes',
      email: 'lucia@exemplo.com.br',
      cpf: '52998224725',
      empresa: '11222333000181',
      grupos: ['VENDEDOR'],
      status: 'ativo',
    });
  });

  it('refuses one-word names, invalid CPFs, a landline as the mobile phone, an unknown profile', () => {
    const result = z.safeParse(personalDataSchema, {
      cpf: '111.111.111-11',
      nome: 'Lúcia',
      email: 'x',
      celular: '(11) 3456-7890',
      perfil: 'ROOT',
    });
    expect(result.success).toBe(false);
    const fields = new Set(result.error!.issues.map((i) => i.path[0]));
    expect(fields).toEqual(new Set(['cpf', 'nome', 'email', 'celular', 'perfil']));
    expect(
      z.safeParse(personalDataSchema, {
        cpf: '52998224725',
        nome: 'Lúcia Fontes',
        email: 'l@x.com.br',
        celular: '(11) 98765-4321',
        perfil: 'parceiro',
      }).success,
    ).toBe(true);
  });

  it('takes a full name as decision 060 says, and says what is wrong with one that is not (issue 27)', () => {
    const nameOf = (nome: string) => z.safeParse(personalDataSchema.shape.nome, nome);
    expect(nameOf('QA V2 Vendedor')).toMatchObject({ success: true, data: 'QA V2 Vendedor' });
    expect(nameOf('Ana B. Souza').success).toBe(true);
    expect(nameOf('Téo; Lima').error?.issues.map((i) => i.message)).toEqual([
      'O nome tem caractere não aceito (;): use letras, números, espaços, apóstrofo, hífen e ponto.',
    ]);
    expect(nameOf('Maria 2').error?.issues.map((i) => i.message)).toEqual(['Informe o nome completo (nome e sobrenome).']);
  });

  it('a legacy user has at least one access group (issue 27)', () => {
    const form = { nome: 'Lúcia Fontes', email: 'l@x.com.br', cpf: '52998224725', empresa: '', status: 'ativo' };
    const result = z.safeParse(legacyUserSchema, { ...form, grupos: [] });
    expect(result.error?.issues.map((i) => [i.path[0], i.message])).toEqual([['grupos', 'Selecione ao menos um grupo de acesso.']]);
    expect(z.safeParse(legacyUserSchema, { ...form, grupos: ['VENDEDOR'] }).success).toBe(true);
  });

  it('the list query: 1-based page, blank filters, status in capitals; a bad page is an error', () => {
    expect(z.parse(userListQuery, { status: 'ativo' })).toEqual({
      email: '',
      nome: '',
      empresa: '',
      status: 'ATIVO',
      pagina: 1,
      tamanho: 4,
    });
    // A page size among those offered (SPEC's 4 when blank); anything else is an error, not a bigger page.
    expect(z.parse(userListQuery, { tamanho: '50' }).tamanho).toBe(50);
    for (const tamanho of ['7', '1000', '-4', 'x']) expect(z.safeParse(userListQuery, { tamanho }).success, tamanho).toBe(false);
    expect(userListHref('/consulta-usuarios', { nome: 'Ana', tamanho: '25' }, 2)).toBe('/consulta-usuarios?nome=Ana&tamanho=25&pagina=2');
    expect(userListHref('/consulta-usuarios', { tamanho: '4' }, 1)).toBe('/consulta-usuarios');
    expect(z.safeParse(userListQuery, { pagina: '0' }).success).toBe(false);
    expect(z.safeParse(userListQuery, { status: 'APAGADO' }).success).toBe(false);
    expect(userListHref('/consulta-usuarios', { nome: ' Ana ', email: '' }, 2)).toBe('/consulta-usuarios?nome=Ana&pagina=2');
    expect(userListHref('/consulta-usuarios', {}, 1)).toBe('/consulta-usuarios');
  });

  it('the v2 steps open in order: a step ahead of the draft is not reachable', () => {
    expect(pendingUserStep(undefined)).toBe('dados-pessoais');
    expect(pendingUserStep({ dados: {} })).toBe('vincular-usuario');
    expect(stepReachable('finalizacao', { dados: {} })).toBe(false);
    expect(stepReachable('finalizacao', { dados: {}, vinculo: {} })).toBe(true);
  });

  it('names offers by their simulators', () => {
    expect(operationLabel('OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL')).toBe('Vender Residencial');
    expect(operationLabel('GERENCIAR_USUARIOS')).toBe('Gerenciar usuários');
  });
});
