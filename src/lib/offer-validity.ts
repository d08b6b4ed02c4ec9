/**
 * When an offer is in force (docs/decisions/016-offers.md). Validity dates are calendar dates
 * ('YYYY-MM-DD', as PostgreSQL's `date` reaches the code) read in Brasília time: an offer that ends
 * on 31/12 is sold until 23:59 of 31/12 in Brazil, whatever the server's time zone.
 */

const brasiliaDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day `instant` falls on in Brasília, as 'YYYY-MM-DD'. */
export const dateInBrasilia = (instant: Date): string => brasiliaDate.format(instant);

export interface Validity {
  vigenciaInicio: string;
  /** null: open-ended. */
  vigenciaFim: string | null;
}

/** Both ends count: an offer from 2026-01-01 to 2026-12-31 is in force on both days. */
export const isInForce = ({ vigenciaInicio, vigenciaFim }: Validity, today: string): boolean =>
  vigenciaInicio <= today && (vigenciaFim === null || today <= vigenciaFim);

/** '2027-12-31' → '31/12/2027'. */
export const formatIsoDate = (iso: string): string => {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
};

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
