import { describe, expect, it } from 'vitest';
import { historyHref, mayOpenHistory, policyReportHref, reportHref, showsHistoryButton, simulatorStartHref } from './simulator-links';

describe('simulator header links', () => {
  it.each([
    ['v1', 'RES', '/simulador-residencial/cadastro', '/historico?funcionalidade=residencial'],
    ['v1', 'MU', '/simulador-maquinas/cadastro', '/historico?funcionalidade=maquinas'],
    ['v1', 'PRS', '/simulador-agricola/cadastro', '/historico?funcionalidade=agricola'],
    ['v1', 'vg', '/simulador-vida/cadastro', '/historico?funcionalidade=vida'],
    ['v1', 'EAU', '/simulador-empresarial/cadastro', '/historico?funcionalidade=empresarial'],
    // The embedded issuance apps start at their own entries (decision 054).
    ['v1', 'EMP', '/emissao/consulta-cotacao/iniciar/empresarial', '/historico?funcionalidade=empresarial'],
    ['v1', 'IP', '/emissao/itens-pessoais/iniciar/itens-pessoais', '/historico?funcionalidade=itens-pessoais'],
    ['v1', 'VE', '/emissao/cotacao/vida/nova-cotacao', '/historico?funcionalidade=vida'],
    ['v2', 'res', '/v2/home/res', '/v2/historico?simulador=RES'],
    ['v2', 'AFU', '/v2/home/afu', '/v2/historico?simulador=AFU'],
  ] as const)('%s %s → %s, %s', (generation, code, start, history) => {
    expect(simulatorStartHref(generation, code)).toBe(start);
    expect(historyHref(generation, code)).toBe(history);
  });
});

describe('reportHref', () => {
  it('serves legacy PDFs under /relatorios and v2 ones under /v2/relatorios/pdf', () => {
    expect(reportHref('v1', 'cotacao', '7')).toBe('/relatorios/cotacao/7');
    expect(reportHref('v1', 'proposta', '7')).toBe('/relatorios/proposta/7');
    expect(reportHref('v2', 'proposta', '7')).toBe('/v2/relatorios/pdf/proposta/7');
    expect(policyReportHref('v1', '011420260000001')).toBe('/relatorios/apolice/apolice/011420260000001');
    expect(policyReportHref('v2', '011420260000001', 2)).toBe('/v2/relatorios/pdf/boleto/apolice/011420260000001?parcela=2');
  });
});

describe('showsHistoryButton', () => {
  const v2 = (profile: 'ADMIN' | 'PARCEIRO_ADMIN' | 'PARCEIRO' | 'SUBSTABELECIDO', cdOperacoes: string[] = []) => ({
    generation: 'v2' as const,
    user: { profile, cdOperacoes },
  });
  it.each([
    [v2('ADMIN'), false, true],
    [v2('PARCEIRO_ADMIN'), false, true],
    [v2('PARCEIRO', ['HISTORICO_COTACAO_PROPOSTA']), false, true],
    [v2('PARCEIRO', ['COTAR_VENDER']), false, false],
    [v2('SUBSTABELECIDO', ['HISTORICO_COTACAO_PROPOSTA']), true, false], // never on the history page itself
  ])('%# → %s', (viewer, onHistoryPage, shown) => expect(showsHistoryButton(viewer, onHistoryPage)).toBe(shown));

  it('reads the legacy sales-history permissions', () => {
    const seller = {
      profile: ['VENDEDOR'],
      permissions: [{ nome: 'HISTORICO_VENDAS', permiteVisualizacao: true, permiteAlteracao: false }],
    };
    expect(showsHistoryButton({ generation: 'v1', user: seller }, false)).toBe(true);
    expect(showsHistoryButton({ generation: 'v1', user: { profile: ['OUTRO'], permissions: [] } }, false)).toBe(false);
  });
});

describe('mayOpenHistory: the homes offer the history to whoever its route guard lets in', () => {
  const v1 = (permissions: string[], profile = ['VENDEDOR']) => ({
    generation: 'v1' as const,
    user: { profile, permissions: permissions.map((nome) => ({ nome, permiteVisualizacao: true, permiteAlteracao: false })) },
  });
  const v2 = (profile: 'ADMIN' | 'PARCEIRO_ADMIN' | 'PARCEIRO' | 'SUBSTABELECIDO', cdOperacoes: string[] = []) => ({
    generation: 'v2' as const,
    user: { profile, cdOperacoes },
  });
  it.each([
    [v2('ADMIN'), true],
    [v2('PARCEIRO_ADMIN'), true],
    [v2('PARCEIRO', ['HISTORICO_COTACAO_PROPOSTA']), true],
    [v2('SUBSTABELECIDO', ['HISTORICO_COTACAO_PROPOSTA']), true],
    [v2('PARCEIRO', ['COTAR_VENDER', 'METRICAS']), false],
    [v2('SUBSTABELECIDO'), false],
    [v1(['HISTORICO_VENDAS_SIMULACAO']), true],
    [v1(['OFERTAS_DISPONIVEIS_RES']), false],
    [v1([], ['ADMINISTRADOR']), true],
  ])('%# → %s', (viewer, allowed) => expect(mayOpenHistory(viewer)).toBe(allowed));

  it('a legacy viewer without VIEW (only EDIT) on the history permissions may not', () => {
    const editOnly = {
      generation: 'v1' as const,
      user: { profile: ['VENDEDOR'], permissions: [{ nome: 'HISTORICO_VENDAS', permiteVisualizacao: false, permiteAlteracao: true }] },
    };
    expect(mayOpenHistory(editOnly)).toBe(false);
  });
});
