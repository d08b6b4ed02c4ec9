import { findSimulatorCode } from './simulators';
import { HISTORY_PAGE } from './history';
import { pageAccess } from './route-guards';
import type { Viewer } from './menu-visibility';

/**
 * Where the simulator header's buttons lead (SPEC §2): 'Nova Simulação' to the simulator start (the
 * legacy cadastro path, or /v2/home/{code}), 'Histórico' to /historico with the feature name or to
 * /v2/historico with the simulator code in upper case.
 */
export function simulatorStartHref(generation: 'v1' | 'v2', code: string): string {
  if (generation === 'v2') return `/v2/home/${code.toLowerCase()}`;
  const simulator = findSimulatorCode(code);
  // EMP, IP and VE start in their embedded issuance app (decision 054).
  if (simulator?.embedded) return simulator.startUrl;
  return `/simulador-${simulator?.line ?? 'residencial'}/cadastro`;
}

export function historyHref(generation: 'v1' | 'v2', code: string): string {
  if (generation === 'v2') return `/v2/historico?simulador=${encodeURIComponent(code.toUpperCase())}`;
  return `/historico?funcionalidade=${encodeURIComponent(findSimulatorCode(code)?.line ?? code.toLowerCase())}`;
}

/**
 * Whoever the history route's guard lets in (lib/route-guards.ts): v2 ADMIN, PARCEIRO_ADMIN and
 * holders of HISTORICO_COTACAO_PROPOSTA; legacy users with VIEW on a sales-history permission. The
 * simulator header's button and the homes' shortcut ask this, so no one is shown a link to a 403.
 */
export function mayOpenHistory(viewer: Viewer): boolean {
  // The history is no non-production route: the environment cannot change the answer.
  return pageAccess(HISTORY_PAGE[viewer.generation], viewer, 'PRD') === 'allowed';
}

/**
 * SPEC §6 leaves the history button's rule ambiguous. We show it except on the history page itself,
 * and only to whoever may open the history (docs/decisions/008-history-button.md).
 */
export const showsHistoryButton = (viewer: Viewer, onHistoryPage: boolean): boolean => !onHistoryPage && mayOpenHistory(viewer);

const reportsBase = (generation: 'v1' | 'v2') => (generation === 'v2' ? '/v2/relatorios/pdf' : '/relatorios');

/**
 * A quote's PDF (the quote, or its proposal once sent): /relatorios/{type}/{nr} in legacy,
 * /v2/relatorios/pdf/{type}/{nr} in v2 (SPEC §2). Both serve the same document.
 */
export const reportHref = (generation: 'v1' | 'v2', type: 'cotacao' | 'proposta', nrCotacao: string): string =>
  `${reportsBase(generation)}/${type}/${nrCotacao}`;

/** A policy's PDF, or the boleto of one of its installments: SPEC §2's {type}/apolice/{nrApolice} routes. */
export const policyReportHref = (generation: 'v1' | 'v2', nrApolice: string, parcela?: number): string =>
  parcela === undefined
    ? `${reportsBase(generation)}/apolice/apolice/${nrApolice}`
    : `${reportsBase(generation)}/boleto/apolice/${nrApolice}?parcela=${parcela}`;

/** An endorsement's PDF: the same {type}/apolice/{nrApolice} routes, type 'endosso', naming the endorsement. */
export const endorsementReportHref = (generation: 'v1' | 'v2', nrApolice: string, nrEndosso: string): string =>
  `${reportsBase(generation)}/endosso/apolice/${nrApolice}?endosso=${nrEndosso}`;
