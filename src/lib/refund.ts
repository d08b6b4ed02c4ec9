import { daysBetween, latestDay } from './calendar';
import type { Cents } from './products/types';
import { formatBRL } from './products/money';

/*
 * What a cancellation gives back (issue 14; DESIGN §10). ILLUSTRATIVE: the short-term table, the
 * rounding and the choice of interpolation are sample data for the portal, not the insurer's
 * conditions (docs/decisions/037-refund-rules.md). Money in integer cents throughout.
 *
 * - Asked by the insured within 7 days of contracting (CDC art. 49), to take effect at once: everything
 *   paid comes back, the policy cost and the IOF included, and the whole commission is clawed back.
 *   The 7 days count to the day the request is made, never to the effective day chosen (a day in the
 *   past must not turn a cancellation 45 days late into a withdrawal — issue 27).
 * - Otherwise the insurer keeps the premium earned for the days the cover ran: by the short-term
 *   table when the insured asks, pro rata by day when the insurer cancels. The rest of the net
 *   premium paid comes back with the IOF in the same proportion; the policy cost does not.
 * - Open installments are cancelled; the partner returns the commission on the net premium refunded.
 */

export type Requester = 'SEGURADO' | 'SEGURADORA';

/** CDC art. 49: the consumer's days to withdraw from a contract made away from a shop. */
export const WITHDRAWAL_DAYS = 7;

/**
 * The short-term table (tabela de prazo curto): the share of the annual premium the insurer keeps
 * for the days the cover ran, at the insured's request. Days between two rows are interpolated
 * linearly, and a whole year or more keeps everything.
 */
export const SHORT_TERM_TABLE: readonly (readonly [days: number, percentKept: number])[] = [
  [15, 13],
  [30, 20],
  [45, 27],
  [60, 30],
  [75, 37],
  [90, 40],
  [105, 46],
  [120, 50],
  [135, 56],
  [150, 60],
  [165, 66],
  [180, 70],
  [195, 73],
  [210, 75],
  [225, 78],
  [240, 80],
  [255, 83],
  [270, 85],
  [285, 88],
  [300, 90],
  [315, 93],
  [330, 95],
  [345, 98],
  [365, 100],
];

/** The percentage of the annual premium kept after `days` of cover, by the short-term table. */
export function shortTermPercent(days: number): number {
  if (days <= 0) return 0;
  let previous: readonly [number, number] = [0, 0];
  for (const row of SHORT_TERM_TABLE) {
    if (days <= row[0]) {
      const [fromDays, fromPercent] = previous;
      const [toDays, toPercent] = row;
      // Two decimals: the percentage the resumo shows is the one the amount was computed with.
      return Math.round((fromPercent + ((toPercent - fromPercent) * (days - fromDays)) / (toDays - fromDays)) * 100) / 100;
    }
    previous = row;
  }
  return 100;
}

export interface RefundInput {
  requester: Requester;
  /** The policy's term, ISO days: the cover runs from the start day to the end day. */
  inicioVigencia: string;
  fimVigencia: string;
  /** The day the contract was made (the proposal's day): the 7 days of withdrawal run from it. */
  contratadaEm: string;
  /** The day the cancellation is asked for: the 7 days of withdrawal run to it. */
  solicitadaEm: string;
  /** The day the cancellation takes effect, within the term: the days of cover run to it. */
  efetivaEm: string;
  /** The premium of what is cancelled (the whole policy, or the coverages dropped). */
  premio: { net: Cents; policyCost: Cents; iof: Cents; total: Cents };
  /** What the insured has paid of that premium so far (the paid installments' share of it). */
  pago: Cents;
  commissionPercent: number;
}

export interface RefundLine {
  label: string;
  amount: Cents;
  /** How the figure was reached, in pt-BR, for the resumo. */
  how: string;
}

export type RefundRule = 'ARREPENDIMENTO' | 'PRAZO_CURTO' | 'PRO_RATA';

export interface Refund {
  rule: RefundRule;
  daysUsed: number;
  termDays: number;
  /** The percentage of the net premium the insurer keeps (two decimals). */
  percentKept: number;
  netPaid: Cents;
  netKept: Cents;
  netRefund: Cents;
  iofRefund: Cents;
  policyCostRefund: Cents;
  /** What the insured gets back: net, IOF and (within 7 days) the policy cost. */
  total: Cents;
  /** The commission the partner returns: on the net premium refunded. */
  clawback: Cents;
  /**
   * Partial payments of the open installments the cancellation cancels, given back whole (decision
   * 074); absent from refunds recorded before it.
   */
  partialReceipts?: Cents;
  lines: RefundLine[];
}

export const RULE_LABELS: Record<RefundRule, string> = {
  ARREPENDIMENTO: `Arrependimento em até ${WITHDRAWAL_DAYS} dias (CDC, art. 49): devolução integral`,
  PRAZO_CURTO: 'Pedido do segurado: tabela de prazo curto',
  PRO_RATA: 'Cancelamento pela seguradora: proporcional aos dias (pro rata die)',
};

const percentText = (value: number) => `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(value)} %`;

/**
 * A cancellation takes effect ahead when its day comes after the request's (or after the term's first
 * day, for a term not begun yet): it is then scheduled, not carried out at once.
 */
export const takesEffectAhead = (efetivaEm: string, solicitadaEm: string, inicioVigencia: string): boolean =>
  efetivaEm > latestDay(inicioVigencia, solicitadaEm);

/**
 * CDC art. 49: the insured withdraws when they ask within 7 days of contracting for a cancellation
 * that takes effect at once (a day chosen ahead is a cancellation of the contract, not a withdrawal).
 */
export const isWithdrawal = (
  input: Pick<RefundInput, 'requester' | 'contratadaEm' | 'solicitadaEm' | 'efetivaEm' | 'inicioVigencia'>,
): boolean =>
  input.requester === 'SEGURADO' &&
  daysBetween(input.contratadaEm, input.solicitadaEm) <= WITHDRAWAL_DAYS &&
  !takesEffectAhead(input.efetivaEm, input.solicitadaEm, input.inicioVigencia);

/** The refund of a cancellation, every figure with how it was reached. */
export function computeRefund(input: RefundInput): Refund {
  const termDays = daysBetween(input.inicioVigencia, input.fimVigencia);
  const daysUsed = Math.min(termDays, Math.max(0, daysBetween(input.inicioVigencia, input.efetivaEm)));
  const withdrawal = isWithdrawal(input);
  const rule: RefundRule = withdrawal ? 'ARREPENDIMENTO' : input.requester === 'SEGURADO' ? 'PRAZO_CURTO' : 'PRO_RATA';
  const { premio } = input;
  const paidShare = premio.total === 0 ? 0 : Math.min(1, input.pago / premio.total);
  const netPaid = Math.round(premio.net * paidShare);
  const iofPaid = Math.round(premio.iof * paidShare);
  const policyCostPaid = Math.round(premio.policyCost * paidShare);

  const percentKept =
    rule === 'ARREPENDIMENTO' ? 0 : rule === 'PRAZO_CURTO' ? shortTermPercent(daysUsed) : Math.round((daysUsed / termDays) * 10_000) / 100;
  // The insurer keeps its share of the whole net premium; what was paid above that comes back.
  const netKept = Math.round((premio.net * percentKept) / 100);
  const netRefund = Math.max(0, netPaid - netKept);
  const iofRefund = netPaid === 0 ? 0 : Math.round((iofPaid * netRefund) / netPaid);
  const policyCostRefund = rule === 'ARREPENDIMENTO' ? policyCostPaid : 0;
  const total = netRefund + iofRefund + policyCostRefund;
  const clawback = Math.round((netRefund * input.commissionPercent) / 100);

  const keptHow: Record<RefundRule, string> = {
    ARREPENDIMENTO: `Pedido ${daysBetween(input.contratadaEm, input.solicitadaEm)} dia(s) após a contratação: nada é retido.`,
    PRAZO_CURTO: `${daysUsed} de ${termDays} dias de cobertura: a tabela de prazo curto retém ${percentText(percentKept)} de ${formatBRL(premio.net)}.`,
    PRO_RATA: `${daysUsed} de ${termDays} dias de cobertura: ${percentText(percentKept)} de ${formatBRL(premio.net)}, proporcional aos dias.`,
  };
  const lines: RefundLine[] = [
    {
      label: 'Prêmio líquido pago',
      amount: netPaid,
      how: `${formatBRL(input.pago)} pagos de ${formatBRL(premio.total)}: a mesma parte do prêmio líquido de ${formatBRL(premio.net)}.`,
    },
    { label: 'Prêmio retido pela seguradora', amount: netKept, how: keptHow[rule] },
    {
      label: 'Prêmio líquido a devolver',
      amount: netRefund,
      how:
        netPaid >= netKept
          ? `${formatBRL(netPaid)} pagos − ${formatBRL(netKept)} retidos.`
          : `O pago (${formatBRL(netPaid)}) não cobre o retido (${formatBRL(netKept)}): nada a devolver.`,
    },
    {
      label: 'IOF a devolver',
      amount: iofRefund,
      how: `O IOF pago (${formatBRL(iofPaid)}) na proporção do prêmio devolvido.`,
    },
    {
      label: 'Custo de apólice a devolver',
      amount: policyCostRefund,
      how: rule === 'ARREPENDIMENTO' ? 'Devolvido no arrependimento.' : 'Não é devolvido: a apólice foi emitida e vigorou.',
    },
  ];
  return { rule, daysUsed, termDays, percentKept, netPaid, netKept, netRefund, iofRefund, policyCostRefund, total, clawback, lines };
}

/**
 * A whole cancellation cancels the open installments: what partial payments had applied to them pays
 * for nothing any more and comes back whole, with the refund (issue 42 item 6, decision 074). Its own
 * line, so the resumo, the success page and the endorsement's PDF say where the figure comes from.
 */
export function withPartialReceipts(refund: Refund, received: Cents): Refund {
  if (received <= 0) return refund;
  return {
    ...refund,
    partialReceipts: received,
    total: refund.total + received,
    lines: [
      ...refund.lines,
      {
        label: 'Pagamentos parciais de parcelas canceladas',
        amount: received,
        how: `${formatBRL(received)} recebidos em parte por parcelas em aberto, que o cancelamento cancela: devolvidos por inteiro.`,
      },
    ],
  };
}
