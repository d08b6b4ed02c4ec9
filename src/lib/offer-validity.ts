/**
 * When an offer is in force (docs/decisions/016-offers.md). Validity dates are calendar dates
 * ('YYYY-MM-DD', as PostgreSQL's `date` reaches the code) read in Brasília time: an offer that ends
 * on 31/12 is sold until 23:59 of 31/12 in Brazil, whatever the server's time zone.
 */

import { formatIsoDate } from './format';

export interface Validity {
  vigenciaInicio: string;
  /** null: open-ended. */
  vigenciaFim: string | null;
}

/** Both ends count: an offer from 2026-01-01 to 2026-12-31 is in force on both days. */
export const isInForce = ({ vigenciaInicio, vigenciaFim }: Validity, today: string): boolean =>
  vigenciaInicio <= today && (vigenciaFim === null || today <= vigenciaFim);

/** The validity of an offer in a table: '01/01/2026 a 31/12/2027', or 'A partir de 01/01/2026'. */
export const validityRange = ({ vigenciaInicio, vigenciaFim }: Validity): string =>
  vigenciaFim ? `${formatIsoDate(vigenciaInicio)} a ${formatIsoDate(vigenciaFim)}` : `A partir de ${formatIsoDate(vigenciaInicio)}`;

/** The validity line of an offer card. */
export const validityText = (vigenciaFim: string | null): string =>
  vigenciaFim === null ? 'Vigência sem prazo final' : `Vigente até ${formatIsoDate(vigenciaFim)}`;

/** Where an offer stands today, as the legacy /ofertas lists it. */
export const OFFER_SITUATIONS = {
  VIGENTE: 'Vigente',
  A_INICIAR: 'A iniciar',
  ENCERRADA: 'Encerrada',
  INATIVA: 'Inativa',
} as const;
export type OfferSituation = keyof typeof OFFER_SITUATIONS;

export function offerSituation(offer: Validity & { ativo: boolean }, today: string): OfferSituation {
  if (!offer.ativo) return 'INATIVA';
  if (isInForce(offer, today)) return 'VIGENTE';
  return today < offer.vigenciaInicio ? 'A_INICIAR' : 'ENCERRADA';
}

/**
 * The demo offers' term, from the day the demo is made: since the first day of last year (the demo year
 * sells over the last twelve months) to the last day of the year after next — a demo made any day
 * sells for two years at least (a fixed end of 31/12/2027 would have stopped every sale on 01/01/2028).
 */
export function demoOfferTerm(day: string): { inicio: string; fim: string } {
  const year = Number(day.slice(0, 4));
  return { inicio: `${year - 1}-01-01`, fim: `${year + 2}-12-31` };
}
