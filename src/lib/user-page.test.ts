import { describe, expect, it } from 'vitest';
import { visibleMenu, type Viewer } from './menu-visibility';
import { LEGACY_MENU, V2_MENU, type ExternalLinkKey } from './menus';
import { effectiveGrants, explainMenu, invitationState, standingNote, type ExplainedItem, type GrantSources } from './user-page';

const LINKS = new Proxy({}, { get: () => 'https://exemplo.com.br' }) as Record<ExternalLinkKey, string>;
const at = new Date('2026-11-28T12:00:00Z');
const hours = (n: number) => new Date(at.getTime() + n * 3_600_000);

describe('invitationState', () => {
  const base = { createdAt: hours(-72), completed: false, cancelledAt: null };
  it.each([
    ['pendente', { ...base, status: 'PENDENTE', latestCode: { createdAt: hours(-2), expiresAt: hours(22), usedAt: null } }],
    ['expirado', { ...base, status: 'PENDENTE', latestCode: { createdAt: hours(-30), expiresAt: hours(-6), usedAt: null } }],
    // A code retired (a new password elsewhere, a cancellation undone) is no pending invitation.
    ['expirado', { ...base, status: 'PENDENTE', latestCode: { createdAt: hours(-2), expiresAt: hours(22), usedAt: hours(-1) } }],
    ['expirado', { ...base, status: 'PENDENTE', latestCode: null }],
    ['cancelado', { ...base, status: 'INATIVO', latestCode: null, cancelledAt: hours(-1) }],
    // Deactivated without a cancellation, or after a first access: past invitations.
    ['concluido', { ...base, status: 'INATIVO', latestCode: null }],
    ['concluido', { ...base, status: 'INATIVO', completed: true, latestCode: null, cancelledAt: hours(-1) }],
    ['concluido', { ...base, status: 'ATIVO', completed: true, latestCode: null }],
  ] as const)('%s', (kind, facts) => {
    expect(invitationState(facts, at).kind).toBe(kind);
  });
  it('expires exactly at the code’s expiry', () => {
    const facts = { ...base, status: 'PENDENTE', latestCode: { createdAt: hours(-24), expiresAt: at, usedAt: null } } as const;
    expect(invitationState(facts, at).kind).toBe('expirado');
    expect(invitationState(facts, hours(-0.001)).kind).toBe('pendente');
  });
});

describe('effective grants and their sources', () => {
  const v2: GrantSources = {
    generation: 'v2',
    sources: {
      profile: 'PARCEIRO',
      direct: ['METRICAS'],
      group: { nome: 'Loja', company: 'Horizonte', operations: ['METRICAS', 'COTAR_VENDER'] },
    },
  };
  it('a v2 operation names the user and the group (with its company) that give it', () => {
    expect(effectiveGrants({ operations: ['COTAR_VENDER', 'METRICAS'] }, v2)).toEqual([
      { code: 'COTAR_VENDER', label: 'Cotar e vender', from: ['Grupo de permissões Loja (Horizonte)'] },
      { code: 'METRICAS', label: 'Métricas', from: ['Atribuída ao usuário', 'Grupo de permissões Loja (Horizonte)'] },
    ]);
  });
  it('a legacy permission names every group that grants it', () => {
    const v1: GrantSources = {
      generation: 'v1',
      groups: [
        { group: 'A', isAdmin: false, permissions: [{ nome: 'USUARIOS', permiteVisualizacao: true, permiteAlteracao: false }] },
        { group: 'B', isAdmin: false, permissions: [{ nome: 'USUARIOS', permiteVisualizacao: false, permiteAlteracao: true }] },
      ],
    };
    expect(effectiveGrants({ permissions: [{ nome: 'USUARIOS', permiteVisualizacao: true, permiteAlteracao: true }] }, v1)).toEqual([
      // By name, as the v2 page names operations (issue 42); the code stays beside it.
      { code: 'USUARIOS', label: 'Usuários e grupos de acesso', view: true, change: true, from: ['Grupo A', 'Grupo B'] },
    ]);
  });
  it('ADMIN and the admin group are said to hold everything', () => {
    expect(standingNote({ generation: 'v2', sources: { ...v2.sources, profile: 'ADMIN' } })).toMatch(/^Perfil Administrador da seguradora/);
    expect(standingNote({ generation: 'v1', groups: [{ group: 'ADMINISTRADOR', isAdmin: true, permissions: [] }] })).toMatch(
      /^Grupo ADMINISTRADOR/,
    );
    expect(standingNote(v2)).toBeUndefined();
  });
});

describe('explainMenu', () => {
  const leaves = (items: ExplainedItem[]): ExplainedItem[] => items.flatMap((i) => (i.children ? leaves(i.children) : [i]));
  it('keeps exactly the items visibleMenu gave, and explains each by the grants that let it through', () => {
    const viewer: Viewer = { generation: 'v2', user: { profile: 'PARCEIRO', cdOperacoes: ['METRICAS', 'APOLICE_VENDEDOR'] } };
    const sources: GrantSources = {
      generation: 'v2',
      sources: { profile: 'PARCEIRO', direct: ['METRICAS', 'APOLICE_VENDEDOR'], group: null },
    };
    const menu = visibleMenu(V2_MENU, viewer, 'TEST', LINKS);
    const explained = explainMenu(V2_MENU, menu, viewer, sources);
    expect(leaves(explained).map((i) => i.id)).toEqual(leaves(menu as ExplainedItem[]).map((i) => i.id));
    const metrics = leaves(explained).find((i) => i.id === 'evolucao-vendas')!;
    expect(metrics.why).toEqual(['Métricas (Atribuída ao usuário)']);
    for (const leaf of leaves(explained)) expect(leaf.why).not.toContain('Origem não identificada');
  });
  it('a legacy item lists, per group, the permissions that show it', () => {
    const permissions = [{ nome: 'RELATORIO_GESTAO', permiteVisualizacao: true, permiteAlteracao: false }];
    const viewer: Viewer = { generation: 'v1', user: { profile: ['VENDEDOR'], permissions } };
    const sources: GrantSources = { generation: 'v1', groups: [{ group: 'VENDEDOR', isAdmin: false, permissions }] };
    const explained = explainMenu(LEGACY_MENU, visibleMenu(LEGACY_MENU, viewer, 'TEST', LINKS), viewer, sources);
    expect(leaves(explained).find((i) => i.id === 'relatorios')!.why).toEqual(['Grupo VENDEDOR: Relatório de vendas (gestão)']);
    expect(leaves(explained).find((i) => i.id === 'home')!.why).toEqual(['Todos os usuários']);
  });
  it('an operation no source is known for is named alone, never given a made-up source', () => {
    const viewer: Viewer = { generation: 'v2', user: { profile: 'PARCEIRO', cdOperacoes: ['METRICAS'] } };
    // Sources that disagree with the principal (a drift): the item still shows, flagged.
    const sources: GrantSources = { generation: 'v2', sources: { profile: 'PARCEIRO', direct: [], group: null } };
    const explained = explainMenu(V2_MENU, visibleMenu(V2_MENU, viewer, 'TEST', LINKS), viewer, sources);
    expect(leaves(explained).find((i) => i.id === 'evolucao-vendas')!.why).toEqual(['Métricas']);
  });
});
