import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import fc from 'fast-check';
import {
  ancestorIds,
  buildTree,
  CHANNEL_MESSAGES as M,
  channelChanges,
  channelProblems,
  channelSchema,
  countsText,
  descendantIds,
  filterTree,
  hierarchyScope,
  hierarchySearchSchema,
  kindLabel,
  mayEditChannels,
  nodeName,
  nodeMatches,
  parentChoices,
  parentOptions,
  walk,
  type ChannelFact,
  type HierarchyFacts,
  type HierarchyNode,
} from './hierarchy';
import { V1_ADMIN_GROUP } from './permissions';

const channel = (id: number, codigo: string, parentId: number | null, status: 'ATIVO' | 'INATIVO' = 'ATIVO'): ChannelFact => ({
  id,
  codigo,
  nome: codigo.charAt(0).toUpperCase() + codigo.slice(1),
  tipo: 'VAREJO',
  parentId,
  status,
});
// portal ─┬─ varejo ── lojas-sul
//         └─ corretoras
// bancos (a root of its own, inactive)
const CHANNELS = [
  channel(1, 'portal', null),
  channel(2, 'varejo', 1),
  channel(3, 'lojas-sul', 2),
  channel(4, 'corretoras', 1),
  channel(5, 'bancos', null, 'INATIVO'),
];

describe('channels form a tree', () => {
  it('knows what lies below and above a channel', () => {
    expect([...descendantIds(CHANNELS, 1)].sort()).toEqual([2, 3, 4]);
    expect([...descendantIds(CHANNELS, 2)]).toEqual([3]);
    expect([...descendantIds(CHANNELS, 3)]).toEqual([]);
    expect(ancestorIds(CHANNELS, 3)).toEqual([2, 1]);
    expect(ancestorIds(CHANNELS, 1)).toEqual([]);
  });

  it('ends even on a table that loops (written by hand)', () => {
    const looped = [channel(1, 'a', 3), channel(2, 'b', 1), channel(3, 'c', 2)];
    expect([...descendantIds(looped, 1)].sort()).toEqual([2, 3]);
    expect(ancestorIds(looped, 1)).toEqual([3, 2]);
  });

  it('offers as parents every channel but itself and those below it', () => {
    expect(parentOptions(CHANNELS, 2).map((c) => c.codigo)).toEqual(['portal', 'corretoras', 'bancos']);
    expect(parentOptions(CHANNELS, 1).map((c) => c.codigo)).toEqual(['bancos']);
    expect(parentOptions(CHANNELS).map((c) => c.codigo)).toHaveLength(5);
    const choices = parentChoices(CHANNELS, 4);
    expect(choices.map((c) => [c.codigo, c.depth])).toEqual([
      ['bancos', 0],
      ['portal', 0],
      ['varejo', 1],
      ['lojas-sul', 2],
    ]);
  });

  it('refuses a channel under itself, under one below it, an active one under an inactive one', () => {
    const change = (id: number | undefined, codigo: string, parentId: number | null, status: 'ATIVO' | 'INATIVO' = 'ATIVO') =>
      channelProblems(CHANNELS, { id, codigo, parentId, status });
    expect(change(2, 'varejo', 2)).toEqual({ canalPai: [M.self] });
    expect(change(1, 'portal', 3)).toEqual({ canalPai: [M.cycle] });
    expect(change(2, 'varejo', 3)).toEqual({ canalPai: [M.cycle] });
    expect(change(2, 'varejo', 5)).toEqual({ canalPai: [M.inactiveParent] });
    expect(change(undefined, 'novo', 5)).toEqual({ canalPai: [M.inactiveParent] });
    expect(change(2, 'varejo', 5, 'INATIVO')).toEqual({ status: [M.activeChildren] });
    expect(change(3, 'lojas-sul', 5, 'INATIVO')).toEqual({});
    expect(change(undefined, 'novo', 99)).toEqual({ canalPai: [M.canalPai] });
    // Moving within the tree, or to a root, is fine; so is a new channel anywhere active.
    expect(change(3, 'lojas-sul', 4)).toEqual({});
    expect(change(2, 'varejo', null)).toEqual({});
    expect(change(undefined, 'novo', 3)).toEqual({});
  });

  it('keeps the portal’s channel active, and a channel over active ones active', () => {
    expect(channelProblems(CHANNELS, { id: 1, codigo: 'portal', parentId: null, status: 'INATIVO' })).toEqual({ status: [M.portal] });
    expect(channelProblems(CHANNELS, { id: 4, codigo: 'corretoras', parentId: 1, status: 'INATIVO' })).toEqual({});
  });

  it('never lets a series of accepted moves close a loop (random moves)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }))), (moves) => {
        let channels = CHANNELS.map((c) => ({ ...c, status: 'ATIVO' as const }));
        for (const [id, parentId] of moves) {
          const target = channels.find((c) => c.id === id)!;
          if (Object.keys(channelProblems(channels, { id, codigo: target.codigo, parentId, status: 'ATIVO' })).length > 0) continue;
          channels = channels.map((c) => (c.id === id ? { ...c, parentId } : c));
        }
        for (const c of channels) expect(ancestorIds(channels, c.id)).not.toContain(c.id);
        // Every channel reaches a root.
        for (const c of channels) {
          const chain = ancestorIds(channels, c.id);
          const top = chain.length === 0 ? c : channels.find((x) => x.id === chain.at(-1))!;
          expect(top.parentId).toBeNull();
        }
      }),
    );
  });

  it('says what changed, for the access log', () => {
    const codeOf = (id: number | null) => CHANNELS.find((c) => c.id === id)?.codigo ?? 'nenhum';
    expect(channelChanges(CHANNELS[1], { ...CHANNELS[1]!, nome: 'Varejo Brasil', parentId: 4, status: 'INATIVO' }, codeOf)).toBe(
      'nome: Varejo → Varejo Brasil; canal pai: portal → corretoras; situação: ativo → inativo',
    );
    expect(channelChanges(CHANNELS[1], CHANNELS[1]!, codeOf)).toBe('sem alteração');
    expect(channelChanges(undefined, { codigo: 'x', nome: 'X', tipo: 'VAREJO', parentId: null, status: 'ATIVO' }, codeOf)).toBe(
      'nome X; tipo VAREJO; canal pai nenhum; situação ativo',
    );
  });
});

describe('the channel form', () => {
  const parse = (values: Record<string, unknown>) => z.safeParse(channelSchema, values);
  const valid = { codigo: ' Rede-Sul ', nome: '  Rede   Sul ', tipo: 'varejo', canalPai: 'PORTAL', status: 'ativo' };

  it('reads a form as it is typed', () => {
    expect(parse(valid).data).toEqual({ codigo: 'rede-sul', nome: 'Rede Sul', tipo: 'VAREJO', canalPai: 'portal', status: 'ATIVO' });
    expect(parse({ ...valid, canalPai: '' }).data?.canalPai).toBe('');
  });

  it('answers each bad field with its message', () => {
    const errors = (values: Record<string, unknown>) => {
      const result = parse(values);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(errors({})).toEqual({ codigo: M.codigo, nome: M.nome, tipo: M.tipo, status: M.status });
    const all = z.safeParse(channelSchema, {});
    expect(all.error?.issues).toHaveLength(4);
    for (const codigo of ['a', 'rede sul', 'rede_sul', '-rede', 'rede-', '1rede', 'rede--sul', 'x'.repeat(41), 'rêde'])
      expect(errors({ ...valid, codigo }).codigo, codigo).toBe(M.codigo);
    expect(errors({ ...valid, nome: ' - ' }).nome).toBe(M.nome);
    expect(errors({ ...valid, nome: 'x'.repeat(81) }).nome).toBe(M.nome);
    expect(errors({ ...valid, tipo: 'OUTRO' }).tipo).toBe(M.tipo);
    expect(errors({ ...valid, canalPai: 'não existe!' }).canalPai).toBe(M.canalPai);
    expect(errors({ ...valid, status: 'bloqueado' }).status).toBe(M.status);
    expect(errors({ ...valid, codigo: ['a', 'b'], nome: 7 })).toMatchObject({ codigo: M.codigo });
  });

  it('lets only the admin group change channels', () => {
    expect(mayEditChannels({ groups: [V1_ADMIN_GROUP] })).toBe(true);
    expect(mayEditChannels({ groups: ['GESTOR'] })).toBe(false);
  });
});

describe('who sees what', () => {
  const hierarchy = (edit = false) => ({ nome: 'HIERARQUIA', permiteVisualizacao: true, permiteAlteracao: edit });
  it('the admin group everything; a HIERARQUIA holder their company’s branch; anyone else nothing', () => {
    expect(hierarchyScope({ groups: [V1_ADMIN_GROUP], permissions: [], companyId: 7 })).toEqual({ kind: 'all' });
    expect(hierarchyScope({ groups: ['GESTOR'], permissions: [hierarchy(true)], companyId: 7 })).toEqual({
      kind: 'companies',
      companyIds: [7],
    });
    expect(hierarchyScope({ groups: ['GESTOR'], permissions: [hierarchy()], companyId: null })).toEqual({ kind: 'none' });
    expect(hierarchyScope({ groups: ['VENDEDOR'], permissions: [], companyId: 7 })).toEqual({ kind: 'none' });
    expect(
      hierarchyScope({
        groups: ['X'],
        permissions: [{ nome: 'HIERARQUIA', permiteVisualizacao: false, permiteAlteracao: true }],
        companyId: 7,
      }),
    ).toEqual({ kind: 'none' });
  });
});

// ─── The tree ────────────────────────────────────────────────────────────────────────────────────

const FACTS: HierarchyFacts = {
  channels: CHANNELS,
  companies: [
    {
      id: 10,
      cnpj: '11222333000181',
      razaoSocial: 'Corretora Horizonte Seguros Ltda.',
      nomeFantasia: 'Horizonte',
      tipo: 'PARCEIRO',
      parentId: null,
      channelId: 1,
      status: 'ATIVO',
    },
    {
      id: 11,
      cnpj: '33444555000181',
      razaoSocial: 'Agência Vale Verde Ltda.',
      nomeFantasia: 'Vale Verde',
      tipo: 'SUBSTABELECIDO',
      parentId: 10,
      channelId: 1,
      status: 'ATIVO',
    },
    {
      id: 12,
      cnpj: '44555666000190',
      razaoSocial: 'Lojas São João S.A.',
      nomeFantasia: 'São João',
      tipo: 'PARCEIRO',
      parentId: null,
      channelId: 3,
      status: 'ATIVO',
    },
  ],
  pointsOfSale: [
    { id: 100, companyId: 10, nome: 'Loja Centro', codigo: 'PV-0001' },
    { id: 101, companyId: 10, nome: 'Loja Savassi', codigo: 'PV-0002' },
    { id: 102, companyId: 12, nome: 'Loja Porto Alegre', codigo: 'PV-0100' },
  ],
  users: [
    { id: 1, nome: 'Ana Ribeiro', email: 'admin@legado.demo', status: 'ATIVO', generation: 'v1', companyIds: [10], pointOfSaleId: null },
    {
      id: 2,
      nome: 'Bruno Carvalho',
      email: 'vendedor@legado.demo',
      status: 'ATIVO',
      generation: 'v1',
      companyIds: [10],
      pointOfSaleId: 101,
    },
    {
      id: 3,
      nome: 'Daniel Souza',
      email: 'parceiro.admin@parceiro.demo',
      status: 'ATIVO',
      generation: 'v2',
      companyIds: [10, 11],
      pointOfSaleId: null,
    },
    {
      id: 4,
      nome: 'Felipe Araújo',
      email: 'substabelecido@parceiro.demo',
      status: 'BLOQUEADO',
      generation: 'v2',
      companyIds: [11],
      pointOfSaleId: null,
    },
    {
      id: 5,
      nome: 'Igor Pereira',
      email: 'igor@parceiro.demo',
      status: 'PENDENTE',
      generation: 'v2',
      companyIds: [10],
      pointOfSaleId: 100,
    },
    { id: 6, nome: 'Carla Mendes', email: 'admin@seguradora.demo', status: 'ATIVO', generation: 'v2', companyIds: [], pointOfSaleId: null },
    { id: 7, nome: 'Joana Lima', email: 'joana@saojoao.demo', status: 'INATIVO', generation: 'v1', companyIds: [12], pointOfSaleId: 102 },
  ],
};

const find = (root: HierarchyNode, key: string) => [...walk(root)].find((n) => n.key === key);
/** The tree as indented lines "kind name [counts]": what a reader sees, open or not. */
const outline = (node: HierarchyNode, depth = 0): string[] => {
  const name =
    node.kind === 'canal'
      ? node.channel.codigo
      : node.kind === 'ponto-venda'
        ? node.pointOfSale.codigo
        : node.kind === 'usuario'
          ? node.user.email
          : nodeName(node);
  const counts = countsText(node);
  return [
    `${'  '.repeat(depth)}${kindLabel(node)} ${name}${counts ? ` [${counts}]` : ''}${node.open ? ' (aberto)' : ''}${node.match ? ' *' : ''}`,
    ...node.children.flatMap((c) => outline(c, depth + 1)),
  ];
};

describe('the tree', () => {
  it('hangs channels, partners, substabelecidos, points of sale and users, with distinct counts at each node', () => {
    expect(outline(buildTree(FACTS, { everything: true }))).toEqual([
      'Seguradora Seguradora Demo S.A. [2 parceiros, 1 substabelecido, 3 pontos de venda, 7 usuários] (aberto)',
      '  Canal bancos [0 parceiros, 0 substabelecidos, 0 pontos de venda, 0 usuários] (aberto)',
      '  Canal portal [2 parceiros, 1 substabelecido, 3 pontos de venda, 6 usuários] (aberto)',
      '    Canal corretoras [0 parceiros, 0 substabelecidos, 0 pontos de venda, 0 usuários] (aberto)',
      '    Canal varejo [1 parceiro, 0 substabelecidos, 1 ponto de venda, 1 usuário] (aberto)',
      '      Canal lojas-sul [1 parceiro, 0 substabelecidos, 1 ponto de venda, 1 usuário] (aberto)',
      '        Parceiro São João [0 substabelecidos, 1 ponto de venda, 1 usuário]',
      '          Ponto de venda PV-0100 [1 usuário]',
      '            Usuário joana@saojoao.demo',
      '    Parceiro Horizonte [1 substabelecido, 2 pontos de venda, 5 usuários]',
      '      Substabelecido Vale Verde [0 pontos de venda, 2 usuários]',
      '        Usuário parceiro.admin@parceiro.demo',
      '        Usuário substabelecido@parceiro.demo',
      '      Ponto de venda PV-0001 [1 usuário]',
      '        Usuário igor@parceiro.demo',
      '      Ponto de venda PV-0002 [1 usuário]',
      '        Usuário vendedor@legado.demo',
      '      Usuário admin@legado.demo',
      '      Usuário parceiro.admin@parceiro.demo',
      '  Usuário admin@seguradora.demo',
    ]);
  });

  it('shows a branch under the channels its company hangs from, and nobody of no company', () => {
    const branch = { ...FACTS, companies: FACTS.companies.filter((c) => c.id !== 12) };
    const lines = outline(buildTree(branch, { everything: false }));
    expect(lines.filter((l) => l.includes('Canal'))).toEqual([
      '  Canal portal [1 parceiro, 1 substabelecido, 2 pontos de venda, 5 usuários] (aberto)',
    ]);
    expect(lines.join('\n')).not.toContain('admin@seguradora.demo');
    // A substabelecido seen alone (its partner out of view) hangs from its own channel.
    const sub = { ...FACTS, companies: FACTS.companies.filter((c) => c.id === 11) };
    expect(outline(buildTree(sub, { everything: false }))).toEqual([
      'Seguradora Seguradora Demo S.A. [0 parceiros, 1 substabelecido, 0 pontos de venda, 2 usuários] (aberto)',
      '  Canal portal [0 parceiros, 1 substabelecido, 0 pontos de venda, 2 usuários] (aberto)',
      '    Substabelecido Vale Verde [0 pontos de venda, 2 usuários]',
      '      Usuário parceiro.admin@parceiro.demo',
      '      Usuário substabelecido@parceiro.demo',
    ]);
  });

  it('shows channels that loop as roots instead of losing them', () => {
    const looped = {
      ...FACTS,
      channels: [channel(1, 'portal', 2), channel(2, 'varejo', 1), channel(3, 'lojas-sul', 2)],
      companies: [],
      users: [],
    };
    const codes = [...walk(buildTree(looped, { everything: true }))].flatMap((n) => (n.kind === 'canal' ? [n.channel.codigo] : []));
    expect(codes.sort()).toEqual(['lojas-sul', 'portal', 'varejo']);
  });

  it('builds a few hundred nodes with the counts adding up', () => {
    const channels = Array.from({ length: 20 }, (_, i) => channel(i + 1, `canal-${i}`, i === 0 ? null : Math.floor(i / 3) + 1));
    const companies = Array.from({ length: 120 }, (_, i) => ({
      id: 1000 + i,
      cnpj: String(10_000_000_000_000 + i),
      razaoSocial: `Empresa ${i}`,
      nomeFantasia: `Empresa ${i}`,
      tipo: (i % 3 === 2 ? 'SUBSTABELECIDO' : 'PARCEIRO') as 'PARCEIRO' | 'SUBSTABELECIDO',
      parentId: i % 3 === 2 ? 1000 + i - 1 : null,
      channelId: (i % 20) + 1,
      status: 'ATIVO',
    }));
    const pointsOfSale = companies.map((c, i) => ({ id: 5000 + i, companyId: c.id, nome: `PV ${i}`, codigo: `PV-${i}` }));
    const users = Array.from({ length: 400 }, (_, i) => ({
      id: 9000 + i,
      nome: `Pessoa ${i}`,
      email: `p${i}@x.demo`,
      status: 'ATIVO' as const,
      generation: 'v2' as const,
      companyIds: [1000 + (i % 120), ...(i % 10 === 0 ? [1000 + ((i + 1) % 120)] : [])],
      pointOfSaleId: i % 2 === 0 ? 5000 + (i % 120) : null,
    }));
    const root = buildTree({ channels, companies, pointsOfSale, users }, { everything: true });
    expect(root.counts).toEqual({ parceiros: 80, substabelecidos: 40, pontosDeVenda: 120, usuarios: 400 });
    expect([...walk(root)].filter((n) => n.kind === 'usuario')).toHaveLength(440);
    for (const node of walk(root)) if (node.kind === 'canal') expect(node.counts.usuarios).toBeLessThanOrEqual(400);
  });
});

describe('the search', () => {
  const tree = () => buildTree(FACTS, { everything: true });

  it('keeps the matches and the way to them, opened; a matching company keeps all under it', () => {
    const { root, matches } = filterTree(tree(), 'horizonte');
    expect(matches).toBe(1);
    expect(outline(root)).toEqual([
      'Seguradora Seguradora Demo S.A. [2 parceiros, 1 substabelecido, 3 pontos de venda, 7 usuários] (aberto)',
      '  Canal portal [2 parceiros, 1 substabelecido, 3 pontos de venda, 6 usuários] (aberto)',
      '    Parceiro Horizonte [1 substabelecido, 2 pontos de venda, 5 usuários] (aberto) *',
      '      Substabelecido Vale Verde [0 pontos de venda, 2 usuários]',
      '        Usuário parceiro.admin@parceiro.demo',
      '        Usuário substabelecido@parceiro.demo',
      '      Ponto de venda PV-0001 [1 usuário]',
      '        Usuário igor@parceiro.demo',
      '      Ponto de venda PV-0002 [1 usuário]',
      '        Usuário vendedor@legado.demo',
      '      Usuário admin@legado.demo',
      '      Usuário parceiro.admin@parceiro.demo',
    ]);
  });

  it('finds a user by e-mail, under each company they work for', () => {
    const { root, matches } = filterTree(tree(), 'PARCEIRO.ADMIN@');
    expect(matches).toBe(2);
    const found = [...walk(root)].filter((n) => n.match).map((n) => n.key);
    expect(found).toEqual(['e11-u3', 'e10-u3']);
    expect(find(root, 'e10')?.open).toBe(true);
    expect(find(root, 'e11')?.open).toBe(true);
    expect(find(root, 'e10-p100')).toBeUndefined();
  });

  it('finds a company by its CNPJ typed with or without the mask, a channel by code, without minding accents', () => {
    const keys = (term: string) => [...walk(filterTree(tree(), term).root)].filter((n) => n.match).map((n) => n.key);
    expect(keys('44.555.666/0001-90')).toEqual(['e12']);
    expect(keys('44555666')).toEqual(['e12']);
    expect(keys('sao joao')).toEqual(['e12']);
    expect(keys('LOJAS-SUL')).toEqual(['c3']);
    expect(keys('araujo')).toEqual(['e11-u4']);
    // Digits find CNPJs and codes alike.
    expect(keys('0001')).toEqual(['e12', 'e10', 'e11', 'e10-p100']);
  });

  it('answers no match with the root alone', () => {
    const { root, matches } = filterTree(tree(), 'ninguém');
    expect(matches).toBe(0);
    expect(root.children).toEqual([]);
    expect(nodeMatches(tree(), '')).toBe(false);
  });

  it('reads the search box: trimmed, 120 characters at most', () => {
    expect(z.safeParse(hierarchySearchSchema, { busca: '  Vale   Verde ' }).data).toEqual({ busca: 'Vale Verde' });
    expect(z.safeParse(hierarchySearchSchema, {}).data).toEqual({ busca: '' });
    expect(z.safeParse(hierarchySearchSchema, { busca: 'x'.repeat(121) }).success).toBe(false);
  });

  it('never throws on any term, and every kept node matches or leads to a match', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (term) => {
        const { root, matches } = filterTree(tree(), term);
        const leads = (node: HierarchyNode): boolean => node.match || node.children.some(leads);
        const inside = (node: HierarchyNode, under: boolean): void => {
          if (!under && node !== root) expect(leads(node)).toBe(true);
          for (const child of node.children) inside(child, under || node.match);
        };
        inside(root, false);
        expect([...walk(root)].filter((n) => n.match)).toHaveLength(matches);
      }),
    );
  });
});
