import type { OfferSituation } from './offer-validity';

/**
 * The tabs of the legacy /ofertas/{tab} (SPEC §2 names the route, not its tabs): which offer
 * situations each lists. /ofertas is the first tab. Unknown tabs are 404.
 */
export const OFFER_TABS = {
  vigentes: { label: 'Vigentes', situations: ['VIGENTE'] },
  encerradas: { label: 'Encerradas', situations: ['ENCERRADA', 'INATIVA'] },
  todas: { label: 'Todas', situations: ['VIGENTE', 'A_INICIAR', 'ENCERRADA', 'INATIVA'] },
} as const satisfies Record<string, { label: string; situations: readonly OfferSituation[] }>;
export type OfferTab = keyof typeof OFFER_TABS;
export const DEFAULT_OFFER_TAB: OfferTab = 'vigentes';

export const findOfferTab = (value: string | undefined): OfferTab | undefined =>
  value !== undefined && Object.hasOwn(OFFER_TABS, value) ? (value as OfferTab) : undefined;

/**
 * The offers of a tab, optionally of one product (simulator code, any case). An unknown product
 * code is no filter the user could have meant: it lists nothing rather than everything.
 */
export function offersOfTab<T extends { situacao: OfferSituation; code: string }>(
  offers: readonly T[],
  tab: OfferTab,
  produto?: string,
): T[] {
  const situations: readonly OfferSituation[] = OFFER_TABS[tab].situations;
  const code = produto?.trim().toUpperCase();
  return offers.filter((o) => situations.includes(o.situacao) && (!code || o.code === code));
}
