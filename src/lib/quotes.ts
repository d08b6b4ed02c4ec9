import type { Contracting } from './contracting';
import type { Answers, InstallmentOption, Pricing, Selection } from './products/types';
import type { QuoteStep } from './quote-flow';
import type { ProductLine } from './simulators';

/**
 * A quote as pages and islands see it (never the database row): what each step shows and whether it
 * may still change. Built by server/services/quotes.ts.
 */
export type QuoteStatus = 'EM_ELABORACAO' | 'PROPOSTA_EM_ANALISE';

export interface QuoteView {
  nrCotacao: string;
  code: string;
  line: ProductLine;
  generation: 'v1' | 'v2';
  productName: string;
  offerName: string;
  nrOferta: number;
  status: QuoteStatus;
  /** 'Em elaboração', 'Vencida' or 'Proposta em análise'. */
  statusLabel: string;
  expired: boolean;
  /** Still open to change: not sent and not expired — by its own seller only. */
  editable: boolean;
  /** Sold by the user who is looking: managers who see their team's quotes read them, only the seller writes. */
  mine: boolean;
  /** The furthest step reached: where the history opens the quote. */
  etapa: QuoteStep;
  segurado: Record<string, unknown>;
  respostas: Answers;
  risco: Answers | null;
  selecao: Selection | null;
  precificacao: Pricing | null;
  contratacao: (Contracting & { opcao: InstallmentOption }) | null;
  commissionPercent: number;
  partner: { razaoSocial: string; cnpj: string } | null;
  seller: string;
  createdAt: string;
  validaAte: string;
  proposta: { nrProposta: string; status: string; createdAt: string } | null;
}

/** Status as a partner reads it: an unsent quote past its validity is 'Vencida'. */
export function statusLabel(status: QuoteStatus, expired: boolean): string {
  if (status === 'PROPOSTA_EM_ANALISE') return 'Proposta em análise';
  return expired ? 'Vencida' : 'Em elaboração';
}

/** History filter values of the status (SPEC: quotes and proposals). */
export const HISTORY_STATUSES = [
  { value: 'EM_ELABORACAO', label: 'Em elaboração' },
  { value: 'VENCIDA', label: 'Vencida' },
  { value: 'PROPOSTA_EM_ANALISE', label: 'Proposta em análise' },
] as const;
