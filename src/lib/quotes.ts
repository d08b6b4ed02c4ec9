import { PROPOSAL_STATUS_LABELS, type Clock as AcceptanceClock, type ProposalStatus } from './acceptance';
import type { Contracting } from './contracting';
import { brasiliaDay } from './format';
import type { Answers, InstallmentOption, Pricing, Selection } from './products/types';
import type { QuoteStep } from './quote-flow';
import type { ProductLine } from './simulators';

/**
 * A quote as pages and islands see it (never the database row): what each step shows and whether it
 * may still change. Built by server/services/selling/quotes.ts.
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
  /** 'Em elaboração', 'Vencida', 'Proposta em análise', 'Proposta aceita'… */
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
  /** The company that sold; `susep` its broker registration (null for a partner that is not a broker). */
  partner: { razaoSocial: string; cnpj: string; susep: string | null } | null;
  seller: string;
  createdAt: string;
  validaAte: string;
  /**
   * The day (Brasília) the installments' due dates count from: the policy's issue day once issued,
   * else the day the quote is read — the server's, never the browser's nor UTC's (decision 074).
   */
  vencimentosDesde: string;
  proposta: ProposalView | null;
  /**
   * The policy a renewal quote renews and the term it would cover (issue 42: the simulator never said
   * it was a renewal); null for a new sale.
   */
  renovacao: { nrApolice: string; inicio: string; fim: string } | null;
}

export interface ProposalTimelineEntry {
  label: string;
  detalhe: string | null;
  /** Who did it; null when the rules or the clock did. */
  by: string | null;
  at: string;
}

export interface ProposalView {
  nrProposta: string;
  /** 'Em análise', 'Aceita'… */
  status: string;
  statusCode: ProposalStatus;
  createdAt: string;
  /** The 25-day acceptance clock (Lei 15.040/2024). */
  clock: AcceptanceClock;
  /** Why it was refused, or which documents were asked for. */
  motivo: string | null;
  nrApolice: string | null;
  timeline: ProposalTimelineEntry[];
}

/**
 * Status as a partner reads it: a sent quote by its proposal's state ('Proposta aceita'), an unsent
 * one past its validity 'Vencida'.
 */
export function statusLabel(status: QuoteStatus, expired: boolean, proposal?: ProposalStatus | null): string {
  if (status === 'PROPOSTA_EM_ANALISE') return `Proposta ${PROPOSAL_STATUS_LABELS[proposal ?? 'EM_ANALISE'].toLowerCase()}`;
  return expired ? 'Vencida' : 'Em elaboração';
}

/** History filter values of the status (SPEC: quotes and proposals). */
export const HISTORY_STATUSES = [
  { value: 'EM_ELABORACAO', label: 'Em elaboração' },
  { value: 'VENCIDA', label: 'Vencida' },
  { value: 'PROPOSTA_EM_ANALISE', label: 'Proposta enviada' },
] as const;

/** The answers the rating engine prices a quote with: the quote's day, the insured's facts, cadastro and risco. */
export function ratingAnswers(quote: { segurado: unknown; respostas: unknown; risco: unknown; createdAt: Date | string }): Answers {
  const insured = quote.segurado as Record<string, unknown>;
  const context: Answers = { dataCotacao: brasiliaDay(quote.createdAt) };
  for (const key of ['tipoPessoa', 'dataNascimento'] as const) {
    if (typeof insured[key] === 'string') context[key] = insured[key];
  }
  return { ...context, ...(quote.respostas as Answers), ...((quote.risco ?? {}) as Answers) };
}
