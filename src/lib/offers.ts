import { canV1, canV2, offerOperation, v1OfferPermission, type Profile, type V1Subject, type V2Subject } from './permissions';
import { findSimulatorCode, LEGACY_SIMULATOR_CODES, V2_SIMULATOR_CODES, type ProductLine } from './simulators';

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

/**
 * Who may sell a simulator in the legacy generation (SPEC §6, docs/decisions/019-legacy-sell.md):
 * VIEW on the code's OFERTAS_DISPONIVEIS_{code} (the admin group may do everything), and only codes
 * the legacy simulators or the embedded issuance applications sell (`legacy`, `embedded` in lib/simulators.ts).
 */
export function canSellCodeV1(user: V1Subject, code: string): boolean {
  const simulator = findSimulatorCode(code);
  if (!simulator?.legacy && !simulator?.embedded) return false;
  return canV1(user, v1OfferPermission(simulator.code), 'VIEW');
}

/**
 * The legacy offers a user is shown (home, /ofertas): the codes they may sell here — the embedded
 * issuance apps' EMP, IP and VE start at their /emissao entries (decision 054) — plus AFS, which the
 * same permission opens but which starts in an external application rather than a legacy route.
 */
export function canOfferCodeV1(user: V1Subject, code: string): boolean {
  const simulator = findSimulatorCode(code);
  if (!simulator?.legacy && !simulator?.external && !simulator?.embedded) return false;
  return canV1(user, v1OfferPermission(simulator.code), 'VIEW');
}

/** A legacy line's routes open to whoever may sell at least one of its legacy codes. */
export const canSellLineV1 = (user: V1Subject, line: ProductLine): boolean =>
  LEGACY_SIMULATOR_CODES.some((s) => s.line === line && canSellCodeV1(user, s.code));
