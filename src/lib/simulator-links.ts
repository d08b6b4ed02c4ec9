import { findSimulatorCode } from './simulators';
import { canV1, type V1Subject, type V2Subject } from './permissions';

/**
 * Where the simulator header's buttons lead (SPEC §2): 'Nova Simulação' to the simulator start (the
 * legacy cadastro path, or /v2/home/{code}), 'Histórico' to /historico with the feature name or to
 * /v2/historico with the simulator code in upper case.
 */
export function simulatorStartHref(generation: 'v1' | 'v2', code: string): string {
  if (generation === 'v2') return `/v2/home/${code.toLowerCase()}`;
  const simulator = findSimulatorCode(code);
  return `/simulador-${simulator?.line ?? 'residencial'}/cadastro`;
}

export function historyHref(generation: 'v1' | 'v2', code: string): string {
  if (generation === 'v2') return `/v2/historico?simulador=${encodeURIComponent(code.toUpperCase())}`;
  return `/historico?funcionalidade=${encodeURIComponent(findSimulatorCode(code)?.line ?? code.toLowerCase())}`;
}

const V1_HISTORY = ['HISTORICO_VENDAS', 'HISTORICO_VENDAS_PROPOSTAS', 'HISTORICO_VENDAS_SIMULACAO'];

/**
 * SPEC §6 leaves the history button's rule ambiguous. We show it except on the history page itself,
 * and only to whoever may open the history: v2 ADMIN, PARCEIRO_ADMIN or a holder of
 * HISTORICO_COTACAO_PROPOSTA; legacy users with VIEW on a sales-history permission
 * (docs/decisions/008-history-button.md).
 */
export function showsHistoryButton(
  viewer: { generation: 'v1'; user: V1Subject } | { generation: 'v2'; user: V2Subject }, onHistoryPage: boolean,
): boolean {
  if (onHistoryPage) return false;
  if (viewer.generation === 'v1') return V1_HISTORY.some((p) => canV1(viewer.user, p, 'VIEW'));
  const { profile, cdOperacoes } = viewer.user;
  return profile === 'ADMIN' || profile === 'PARCEIRO_ADMIN' || cdOperacoes.includes('HISTORICO_COTACAO_PROPOSTA');
}

/**
 * A quote's PDF (the quote, or its proposal once sent): /relatorios/{type}/{nr} in legacy,
 * /v2/relatorios/pdf/{type}/{nr} in v2 (SPEC §2). Both serve the same document.
 */
export const reportHref = (generation: 'v1' | 'v2', type: 'cotacao' | 'proposta', nrCotacao: string): string =>
  `${generation === 'v2' ? '/v2/relatorios/pdf' : '/relatorios'}/${type}/${nrCotacao}`;
