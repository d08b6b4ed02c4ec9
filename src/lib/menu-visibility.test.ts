import { describe, expect, it } from 'vitest';
import { LEGACY_MENU, V2_MENU, type ExternalLinkKey } from './menus';
import { visibleMenu, type Environment, type VisibleItem } from './menu-visibility';
import { pageAccess } from './route-guards';
import { RESTRICTED_OPERATION, V1_ADMIN_GROUP, type Profile } from './permissions';

const links = new Proxy({}, { get: (_, key) => `https://externo.example/${String(key)}` }) as Record<ExternalLinkKey, string>;

function paths(items: VisibleItem[], prefix = ''): string[] {
  return items.flatMap((item) => {
    const path = prefix ? `${prefix} › ${item.title}` : item.title;
    return [path, ...(item.children ? paths(item.children, path) : [])];
  });
}

const v2Paths = (profile: Profile, cdOperacoes: string[], environment: Environment = 'DEV') =>
  paths(visibleMenu(V2_MENU, { generation: 'v2', user: { profile, cdOperacoes } }, environment, links));

/**
 * One row per row of the SPEC §6 newer-menu table, re-derived from it (docs/decisions/007): ADMIN sees
 * every item; PARCEIRO_ADMIN the items listing PARCEIRO_ADMIN; PARCEIRO and SUBSTABELECIDO an item
 * whose operations they hold one of (whether or not their profile is listed), or, for an item listing
 * no operation, whose profile list names them. Columns: the operations a partner holds in the "with"
 * columns, then whether the item shows for ADMIN, PARCEIRO_ADMIN (no operations), PARCEIRO with /
 * without the operations, SUBSTABELECIDO with / without them (environment DEV).
 */
const V2_TABLE: [string, string[], boolean, boolean, boolean, boolean, boolean, boolean][] = [
  ['Home', ['HISTORICO_COTACAO_PROPOSTA'], true, true, true, false, true, false],
  ['Seguros › Ofertas', [], true, false, false, false, false, false],
  // Ours (issue 13): the acceptance queue, the provider's only.
  ['Seguros › Análise de propostas', [], true, false, false, false, false, false],
  ['Gestão › Log de Acesso', [], true, false, false, false, false, false],
  ['Dados', [], true, true, false, false, false, false],
  // Relatórios lists PARCEIRO_ADMIN and SUBSTABELECIDO, but the operation alone shows it to a PARCEIRO.
  ['Dados › Relatórios', ['RELATORIO_VENDAS'], true, true, true, false, true, false],
  ['Dados › Métricas › Evolução de vendas', ['METRICAS'], true, true, true, false, true, false],
  ['Campanhas › Biblioteca do parceiro', [], true, true, false, false, false, false],
  ['Conquista Premiada', [], true, true, true, true, true, true],
  ['Documentos › Consulta e Download', ['DOCUMENTOS'], true, true, true, false, true, false],
  // SPEC §6's own example: a PARCEIRO holding APOLICE_VENDEDOR sees Apólices.
  ['Meus Clientes › Apólices', ['APOLICE_VENDEDOR'], true, true, true, false, true, false],
  ['Meus Clientes › Apólices', ['APOLICE_EMPRESA'], true, true, true, false, true, false],
  ['Meus Clientes › 2ª via de boleto', ['BOLETOS_VENDEDOR'], true, true, true, false, true, false],
  ['Financeiro › Informe de rendimentos', ['INFORME_RENDIMENTO'], true, true, true, false, true, false],
  // No operation listed: the profile list decides (SUBSTABELECIDO is not on it).
  ['Financeiro › Comissões › Extrato', [], true, true, true, true, false, false],
  ['Acesso', ['GERENCIAR_USUARIOS'], true, true, true, false, true, false],
  ['Acesso › Parceiro', [], true, false, false, false, false, false],
  ['Acesso › Parceiro', ['GERENCIAR_PARCEIRO'], true, false, false, false, false, false],
  ['Acesso › Substabelecido', ['GERENCIAR_SUBSTABELECIDO'], true, true, true, false, true, false],
  ['Acesso › Ponto de Venda', ['GERENCIAR_PONTO_VENDA'], true, true, true, false, true, false],
  ['Acesso › Usuários › Cadastro', ['GERENCIAR_USUARIOS'], true, true, true, false, true, false],
  ['Acesso › Usuários › Permissões', ['GERENCIAR_PERMISSOES'], true, true, true, false, true, false],
];

describe('newer menu (SPEC §6 table)', () => {
  describe.each(V2_TABLE)('%s', (path, operations, admin, partnerAdmin, partnerWith, partnerWithout, subWith, subWithout) => {
    it.each([
      ['ADMIN', [], admin],
      ['PARCEIRO_ADMIN', [], partnerAdmin],
      ['PARCEIRO', operations, partnerWith],
      ['PARCEIRO', [], partnerWithout],
      ['SUBSTABELECIDO', operations, subWith],
      ['SUBSTABELECIDO', [], subWithout],
    ] as [Profile, string[], boolean][])('%s with %j → %s', (profile, ops, shown) => {
      expect(v2Paths(profile, ops).includes(path)).toBe(shown);
    });
  });

  it('never shows Documentos › Envio, not even to ADMIN', () => {
    expect(v2Paths('ADMIN', [])).not.toContain('Documentos › Envio');
  });

  it('shows Comissões only outside production', () => {
    expect(v2Paths('ADMIN', [], 'PRD')).not.toContain('Financeiro › Comissões');
    for (const env of ['DEV', 'HML', 'TEST'] as const) expect(v2Paths('ADMIN', [], env)).toContain('Financeiro › Comissões');
  });

  it("hides 'Gestão' from the restricted operations group outside production only", () => {
    expect(v2Paths('ADMIN', [RESTRICTED_OPERATION], 'DEV')).not.toContain('Gestão');
    expect(v2Paths('ADMIN', [RESTRICTED_OPERATION], 'PRD')).toContain('Gestão');
    expect(v2Paths('ADMIN', [], 'HML')).toContain('Gestão');
  });

  it('resolves external links and marks them', () => {
    const [campanhas] = visibleMenu(V2_MENU, { generation: 'v2', user: { profile: 'ADMIN', cdOperacoes: [] } }, 'PRD', links).filter(
      (i) => i.id === 'campanhas',
    );
    expect(campanhas?.children?.[0]).toEqual({
      id: 'biblioteca',
      title: 'Biblioteca do parceiro',
      href: 'https://externo.example/bibliotecaParceiro',
      external: true,
    });
  });
});

describe('older menu', () => {
  const seller = {
    profile: ['VENDEDOR'],
    permissions: ['OFERTAS_DISPONIVEIS_RES', 'HISTORICO_VENDAS', 'RELATORIO_GESTAO'].map((nome) => ({
      nome,
      permiteVisualizacao: true,
      permiteAlteracao: false,
    })),
  };
  const legacyPaths = (user: typeof seller, environment: Environment = 'PRD') =>
    paths(visibleMenu(LEGACY_MENU, { generation: 'v1', user }, environment, links));

  it.each([
    ['Home', true],
    ['Seguros › Ofertas', true],
    ['Dados › Relatórios', true],
    ['Dados › Métricas › Atingimento de meta', true],
    ['Campanhas › Personalizados › Gifs', true],
    ['Conquista Premiada', true],
    ['Documentos', false],
    ['Meus Clientes › Apólices', true],
    ['Financeiro', false],
    ['Acesso', false],
    ['Módulos em homologação', false],
  ])('seller: %s → %s', (path, shown) => expect(legacyPaths(seller).includes(path)).toBe(shown));

  it('shows the admin group everything but the hidden Envio, and the staging modules only outside PRD', () => {
    const admin = { profile: [V1_ADMIN_GROUP], permissions: [] };
    const prd = legacyPaths(admin);
    expect(prd).toContain('Acesso › Hierarquia');
    expect(prd).toContain('Documentos › Consulta e Download');
    expect(prd).not.toContain('Documentos › Envio');
    expect(prd).not.toContain('Módulos em homologação');
    expect(prd).not.toContain('Dados › Relatório (teste)');
    const dev = visibleMenu(LEGACY_MENU, { generation: 'v1', user: admin }, 'DEV', links);
    expect(dev.find((i) => i.id === 'modulos-homologacao')?.staging).toBe(true);
  });

  it('lists the staging modules only outside PRD, to whoever holds their permissions (issue 27)', () => {
    const manager = {
      profile: ['GESTOR'],
      permissions: ['USUARIOS', 'CLIENTES_CONSULTA_PAGAMENTO', 'RELATORIO_GESTAO'].map((nome) => ({
        nome,
        permiteVisualizacao: true,
        permiteAlteracao: true,
      })),
    };
    expect(legacyPaths(manager, 'PRD').filter((p) => p.startsWith('Módulos em homologação'))).toEqual([]);
    for (const env of ['DEV', 'HML', 'TEST'] as const)
      expect(legacyPaths(manager, env)).toContain('Módulos em homologação › Consulta de pagamentos');
  });
});

describe('pageAccess: the server refuses what the menu hides', () => {
  const partner = {
    generation: 'v2' as const,
    user: { profile: 'PARCEIRO' as Profile, cdOperacoes: ['HISTORICO_COTACAO_PROPOSTA', 'METRICAS'] },
  };
  const partnerWithPolicies = { generation: 'v2' as const, user: { profile: 'PARCEIRO' as Profile, cdOperacoes: ['APOLICE_VENDEDOR'] } };
  const subagentWithMetrics = { generation: 'v2' as const, user: { profile: 'SUBSTABELECIDO' as Profile, cdOperacoes: ['METRICAS'] } };
  const seller = {
    generation: 'v1' as const,
    user: { profile: ['VENDEDOR'], permissions: [{ nome: 'RELATORIO_GESTAO', permiteVisualizacao: true, permiteAlteracao: false }] },
  };
  it.each([
    [partner, '/v2/ofertas', 'forbidden'],
    [partner, '/v2/ofertas/cadastro/3', 'forbidden'],
    [partner, '/v2/metricas/evolucao-vendas', 'allowed'],
    [partner, '/v2/parceiros/consulta', 'forbidden'],
    [partner, '/v2/usuario/cadastro/dados-pessoais', 'forbidden'],
    [partner, '/v2/log-acesso', 'forbidden'],
    // An operation opens its page without the profile being listed (SPEC §6): APOLICE_VENDEDOR → Apólices.
    [partnerWithPolicies, '/v2/apolices', 'allowed'],
    [partner, '/v2/apolices', 'forbidden'],
    [subagentWithMetrics, '/v2/metricas/atingimento-meta', 'allowed'],
    [partner, '/v2/comissoes/nota-fiscal', 'not-found'],
    [partner, '/v2/perfil', 'allowed'],
    [seller, '/consulta-usuarios', 'forbidden'],
    [seller, '/editar-usuario/3', 'forbidden'],
    [seller, '/relatorio-vendas', 'allowed'],
    // Documentos › Envio is hidden from the menu but guarded by its page (decision 040): the guard lets
    // every signed-in viewer in, and the page opens only a proposal of their scope.
    [seller, '/documentos/envio/', 'allowed'],
    [partner, '/v2/documentos/envio', 'allowed'],
    [seller, '/documentos/consulta', 'forbidden'],
    [partner, '/v2/documentos/consulta', 'forbidden'],
    [seller, '/perfil', 'allowed'],
  ] as const)('%#: %s → %s', (viewer, path, access) => expect(pageAccess(path, viewer, 'PRD')).toBe(access));
});
