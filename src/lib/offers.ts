import { canV2, offerOperation, type Profile, type V2Subject } from './permissions';
import { findSimulatorCode, V2_SIMULATOR_CODES, type ProductLine } from './simulators';

/**
 * Who may sell a simulator in v2 (SPEC §6): the provider's admin and a partner admin sell every
 * offer of their companies; a partner or a sub-delegated user needs the simulator's offer operation
 * OFERTAS_DISPONIVEIS_SIMULADORES_*. The same rule hides offers on /v2/home and refuses the
 * simulator's routes and endpoints on the server.
 */
export const SELL_EVERY_OFFER: readonly Profile[] = ['ADMIN', 'PARCEIRO_ADMIN'];

export function canSellCode(user: V2Subject, code: string): boolean {
  const simulator = findSimulatorCode(code);
  if (!simulator?.v2) return false;
  return canV2(user, { profiles: SELL_EVERY_OFFER, operations: [offerOperation(simulator.offerSuffix)] });
}

/** A line's routes open to whoever may sell at least one of its v2 codes (e.g. agricola: AFU, PR, FL, PRS). */
export const canSellLine = (user: V2Subject, line: ProductLine): boolean =>
  V2_SIMULATOR_CODES.some((s) => s.line === line && canSellCode(user, s.code));
