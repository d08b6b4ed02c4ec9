import { brasiliaDay, formatIsoDate } from './format';
import { formatBRL } from './products/money';
import type { StoredInstallmentStatus } from './policies';
import type { ReceiptSituation } from './receipts';
import { returnReasonLabel } from './refund-status';

/*
 * The money ledger of a policy (issue 31; issue 42 item 5, decision 074): one chronological list of
 * what was charged, received, owed back and paid back, with two running totals that are never netted
 * — what the insured owes (a charge raises it, money applied to an installment lowers it) and what is
 * owed to the insured (money received above what was owed, a refund a cancellation owes; a refund paid
 * lowers it, one the bank returned raises it again). An insured with an overdue installment and a
 * credit owes the one and is owed the other: offsetting them is a decision someone takes and records
 * (a receipt applied to an installment), never a subtraction on a screen.
 *
 * - An installment is charged once, on its due day (or the day it was first paid, when paid ahead, or
 *   the day it was cancelled, when cancelled before it fell due), at its amount (a partial cancellation's reduced amount for the open ones). Its first boleto is that
 *   charge; a 2ª via adds only the fine and interest it carries above what was already charged for the
 *   installment — a second 2ª via replaces the first, so its fine and interest are not added twice.
 * - A receipt (decision 059) lowers the insured's debt by what it applied to the installment and
 *   raises what is owed back by its credit (a duplicate, an excess, a closed installment). When it cost
 *   more on its day than was charged (paid late without a 2ª via: the contract's fine and interest up to
 *   that day), the difference is a line of fine and interest just before it.
 * - An installment cancelled (a whole cancellation) takes back what was still owed on it. What a
 *   partial payment of it had applied is owed back: inside the cancellation's refund when it took it in
 *   (the receipt's refundId), or on the cancellation's line for one that did not (before decision 074).
 * - A refund owed raises what is owed to the insured — a cancellation's by its whole amount, a
 *   receipt's by what its receipt had not already raised — paid (−), returned by the bank (+) and put
 *   back to be paid (no amount).
 * All amounts are integer cents; nothing is rounded here.
 */

export type LedgerKind =
  | 'PARCELA'
  | 'SEGUNDA_VIA'
  | 'MULTA_JUROS'
  | 'RECEBIMENTO'
  | 'PARCELA_CANCELADA'
  | 'RESTITUICAO_DEVIDA'
  | 'RESTITUICAO_PAGA'
  | 'RESTITUICAO_DEVOLVIDA'
  | 'RESTITUICAO_REABERTA';

export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  PARCELA: 'Cobrança',
  SEGUNDA_VIA: '2ª via',
  MULTA_JUROS: 'Multa e juros',
  RECEBIMENTO: 'Recebimento',
  PARCELA_CANCELADA: 'Parcela cancelada',
  RESTITUICAO_DEVIDA: 'Restituição devida',
  RESTITUICAO_PAGA: 'Restituição paga',
  RESTITUICAO_DEVOLVIDA: 'Restituição devolvida',
  RESTITUICAO_REABERTA: 'Restituição a pagar de novo',
};

export interface LedgerInstallment {
  id: number;
  numero: number;
  vencimento: string;
  valor: number;
  status: StoredInstallmentStatus;
}

export interface LedgerCharge {
  id: number;
  installmentId: number;
  vencimento: string;
  multa: number;
  juros: number;
  criadaEm: Date | string;
}

export interface LedgerReceipt {
  id: number;
  installmentId: number | null;
  valor: number;
  devido: number | null;
  aplicado: number;
  credito: number;
  situacao: ReceiptSituation;
  meio: 'BOLETO' | 'PIX' | null;
  recebidoEm: Date | string;
  /** The refund that gives its money back (migration 050), if any. */
  refundId: number | null;
}

export interface LedgerRefund {
  id: number;
  /** The cancellation's endorsement; null for a refund of a receipt. */
  nrEndosso: string | null;
  /** The receipt whose money it gives back; null for a cancellation's. */
  receiptId: number | null;
  /** Partial or whole cancellation. */
  parcial: boolean;
  valor: number;
  previstaPara: string;
  criadaEm: Date | string;
}

export interface LedgerRefundEvent {
  id: number;
  refundId: number;
  acao: 'PAGA' | 'DEVOLVIDA' | 'REABERTA';
  valor: number;
  /** PAGA: the bank's receipt id; DEVOLVIDA: the reason's code and words; REABERTA: the new destination, masked. */
  detalhe: string | null;
  em: Date | string;
}

export interface LedgerInput {
  installments: LedgerInstallment[];
  charges: LedgerCharge[];
  receipts: LedgerReceipt[];
  refunds: LedgerRefund[];
  refundEvents: LedgerRefundEvent[];
  /** When the whole cancellation was confirmed (its endorsement), which cancelled the open installments. */
  cancelledAt: Date | string | null;
  /** Brasília's today: lines after it are "a vencer". */
  today: string;
}

export interface LedgerLine {
  /** Brasília's day of the line. */
  day: string;
  kind: LedgerKind;
  description: string;
  /** What the line is of, in cents: charged, received, owed, paid or returned (never signed). */
  amount: number;
  /** Signed change of what the insured owes. */
  debt: number;
  /** Signed change of what is owed to the insured. */
  credit: number;
  /** What the insured owes after this line. */
  owedByInsured: number;
  /** What is owed to the insured after this line. */
  owedToInsured: number;
  /** A charge not yet due. */
  future: boolean;
}

export interface LedgerTotals {
  /** Installments and fine and interest charged, less the installments cancelled. */
  charged: number;
  /** Every amount received, partial and duplicate ones included. */
  received: number;
  /** Of it, what came twice or above what was owed (owed back, decision 059). */
  receivedInExcess: number;
  /** Refunds owed, by cancellations and of receipts. */
  owedBack: number;
  /** Refunds paid, less those the bank returned. */
  paidBack: number;
  /** What the insured owes: due by today, and charged for days ahead. */
  owedByInsured: { due: number; later: number };
  /** What is owed to the insured now (refunds owed and not paid, money received above what was owed). */
  owedToInsured: number;
}

export interface Ledger {
  lines: LedgerLine[];
  totals: LedgerTotals;
}

const RANK: Record<LedgerKind, number> = {
  PARCELA: 0,
  SEGUNDA_VIA: 1,
  MULTA_JUROS: 2,
  RECEBIMENTO: 3,
  PARCELA_CANCELADA: 4,
  RESTITUICAO_DEVIDA: 5,
  // Events of one refund keep the order they happened in (their instant), whatever they are.
  RESTITUICAO_PAGA: 6,
  RESTITUICAO_DEVOLVIDA: 6,
  RESTITUICAO_REABERTA: 6,
};

interface Entry {
  day: string;
  /** The instant within the day ('' for a due day: first). */
  instant: string;
  kind: LedgerKind;
  description: string;
  amount: number;
  debt: number;
  credit: number;
  seq: number;
}

const iso = (at: Date | string) => (typeof at === 'string' ? new Date(at) : at).toISOString();
const MEIO: Record<'BOLETO' | 'PIX', string> = { BOLETO: 'boleto', PIX: 'Pix' };

function receiptText(r: LedgerReceipt, numero: number | undefined, fees: number): string {
  const what = numero === undefined ? 'Pagamento recebido' : `Pagamento da ${numero}ª parcela${r.meio ? ` (${MEIO[r.meio]})` : ''}`;
  const parts = [what];
  if (fees > 0) parts.push(`com multa e juros de ${formatBRL(fees)}`);
  if (r.situacao === 'PARCIAL') parts.push('parcial: a parcela segue em aberto');
  if (r.situacao === 'QUITACAO')
    parts.push(r.credito > 0 ? `quitou a parcela; ${formatBRL(r.credito)} a mais, a devolver` : 'quitou a parcela');
  if (r.situacao === 'CREDITO') parts.push(`parcela já paga ou cancelada: em duplicidade, ${formatBRL(r.credito)} a devolver`);
  if (r.situacao === 'NAO_IDENTIFICADO') parts.push(`sem cobrança correspondente: ${formatBRL(r.credito)} a devolver`);
  return parts.join(' — ');
}

function eventText(
  e: LedgerRefundEvent,
  refund: LedgerRefund | undefined,
): { kind: LedgerKind; description: string; amount: number; debt: number; credit: number } {
  const of = refund?.nrEndosso ? ` (endosso nº ${refund.nrEndosso})` : refund ? ' (pago a mais)' : '';
  if (e.acao === 'PAGA')
    return {
      kind: 'RESTITUICAO_PAGA',
      description: `Restituição paga${of}${e.detalhe ? ` — comprovante ${e.detalhe}` : ''}`,
      amount: e.valor,
      debt: 0,
      credit: -e.valor,
    };
  if (e.acao === 'DEVOLVIDA')
    return {
      kind: 'RESTITUICAO_DEVOLVIDA',
      description: `Restituição devolvida pelo banco${of}${e.detalhe ? `: ${returnReasonLabel(e.detalhe.split(':')[0]!)}${e.detalhe.includes(':') ? ` — ${e.detalhe.slice(e.detalhe.indexOf(':') + 1).trim()}` : ''}` : ''}`,
      amount: e.valor,
      debt: 0,
      credit: e.valor,
    };
  return {
    kind: 'RESTITUICAO_REABERTA',
    description: `Destino corrigido, restituição a pagar de novo${of}${e.detalhe ? `: ${e.detalhe}` : ''}`,
    amount: 0,
    debt: 0,
    credit: 0,
  };
}

/** The ledger of one policy from its rows (the service reads them through the scoping function). */
export function buildLedger(input: LedgerInput): Ledger {
  const entries: Entry[] = [];
  let seq = 0;
  const push = (e: Omit<Entry, 'seq'>) => entries.push({ ...e, seq: seq++ });
  const numeroOf = new Map(input.installments.map((i) => [i.id, i.numero]));
  const count = input.installments.length;
  // Fine and interest already charged, and money applied, per installment, as the happenings go.
  const fees = new Map<number, number>(input.installments.map((i) => [i.id, 0]));
  const applied = new Map<number, number>(input.installments.map((i) => [i.id, 0]));

  // An installment is charged on its due day, or on the day it was first paid when paid ahead (a
  // payment in advance is not money to give back in between).
  const firstPaid = new Map<number, string>();
  for (const r of input.receipts) {
    if (r.installmentId === null || r.situacao === 'CREDITO' || r.situacao === 'NAO_IDENTIFICADO') continue;
    const day = brasiliaDay(r.recebidoEm);
    const known = firstPaid.get(r.installmentId);
    if (known === undefined || day < known) firstPaid.set(r.installmentId, day);
  }
  // One cancelled before its due day is charged on the cancellation's day, just before it is taken back.
  const cancelledDay = input.cancelledAt === null ? undefined : brasiliaDay(input.cancelledAt);
  for (const i of input.installments)
    push({
      day: [i.vencimento, firstPaid.get(i.id) ?? i.vencimento, (i.status === 'CANCELADA' && cancelledDay) || i.vencimento].sort()[0]!,
      instant: '',
      kind: 'PARCELA',
      description: `${i.numero}ª parcela de ${count}, vencimento ${formatIsoDate(i.vencimento)}`,
      amount: i.valor,
      debt: i.valor,
      credit: 0,
    });

  // Charges and receipts of an installment in the order they happened: what a 2ª via or a late
  // payment adds depends on what was charged before it.
  type Happening = { at: string; charge?: LedgerCharge; receipt?: LedgerReceipt };
  const happenings: Happening[] = [
    ...input.charges.map((charge): Happening => ({ at: iso(charge.criadaEm), charge })),
    ...input.receipts.map((receipt): Happening => ({ at: iso(receipt.recebidoEm), receipt })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.charge ? -1 : 1));
  const firstCharge = new Set<number>();
  const installmentById = new Map(input.installments.map((i) => [i.id, i]));
  for (const h of happenings) {
    const day = brasiliaDay(h.at);
    if (h.charge) {
      const c = h.charge;
      if (!firstCharge.has(c.installmentId)) {
        // The installment's first boleto is its charge, already listed on its due day.
        firstCharge.add(c.installmentId);
        if (c.multa + c.juros === 0) continue;
      }
      const before = fees.get(c.installmentId) ?? 0;
      const now = c.multa + c.juros;
      fees.set(c.installmentId, Math.max(before, now));
      const added = Math.max(0, now - before);
      push({
        day,
        instant: h.at,
        kind: 'SEGUNDA_VIA',
        description: `2ª via da ${numeroOf.get(c.installmentId) ?? '?'}ª parcela, vencimento ${formatIsoDate(c.vencimento)}: multa ${formatBRL(c.multa)} e juros ${formatBRL(c.juros)}${before > 0 ? ` (substitui a anterior, de ${formatBRL(before)})` : ''}`,
        amount: added,
        debt: added,
        credit: 0,
      });
      continue;
    }
    const r = h.receipt!;
    const installment = r.installmentId === null ? undefined : installmentById.get(r.installmentId);
    let feesOnDay = 0;
    if (installment && r.devido !== null && (r.situacao === 'QUITACAO' || r.situacao === 'PARCIAL')) {
      feesOnDay = Math.max(0, r.devido - installment.valor);
      const before = fees.get(installment.id) ?? 0;
      if (feesOnDay > before) {
        fees.set(installment.id, feesOnDay);
        push({
          day,
          instant: h.at,
          kind: 'MULTA_JUROS',
          description: `Multa e juros por atraso da ${installment.numero}ª parcela até ${formatIsoDate(day)}`,
          amount: feesOnDay - before,
          debt: feesOnDay - before,
          credit: 0,
        });
      }
    }
    if (installment) applied.set(installment.id, (applied.get(installment.id) ?? 0) + r.aplicado);
    push({
      day,
      instant: h.at,
      kind: 'RECEBIMENTO',
      description: receiptText(r, installment?.numero, feesOnDay),
      amount: r.valor,
      debt: -r.aplicado,
      credit: r.credito,
    });
  }

  if (input.cancelledAt !== null) {
    const at = iso(input.cancelledAt);
    for (const i of input.installments.filter((x) => x.status === 'CANCELADA')) {
      const paidInPart = applied.get(i.id) ?? 0;
      // A partial payment no refund took in (cancelled before decision 074) is owed back here.
      const untaken = input.receipts.filter((r) => r.installmentId === i.id && r.refundId === null).reduce((sum, r) => sum + r.aplicado, 0);
      push({
        day: brasiliaDay(at),
        instant: at,
        kind: 'PARCELA_CANCELADA',
        description: `${i.numero}ª parcela cancelada com a apólice: não é mais cobrada${paidInPart > 0 ? `; ${formatBRL(paidInPart)} pagos em parte são devolvidos` : ''}`,
        amount: i.valor + (fees.get(i.id) ?? 0),
        debt: -(i.valor + (fees.get(i.id) ?? 0) - paidInPart),
        credit: untaken,
      });
    }
  }

  const receiptById = new Map(input.receipts.map((r) => [r.id, r]));
  const refundById = new Map(input.refunds.map((r) => [r.id, r]));
  for (const r of input.refunds) {
    const at = iso(r.criadaEm);
    const receipt = r.receiptId === null ? undefined : receiptById.get(r.receiptId);
    const numero = receipt?.installmentId == null ? undefined : numeroOf.get(receipt.installmentId);
    push({
      day: brasiliaDay(at),
      instant: at,
      kind: 'RESTITUICAO_DEVIDA',
      description:
        r.receiptId === null
          ? `Restituição devida pelo ${r.parcial ? 'cancelamento parcial' : 'cancelamento'} (endosso nº ${r.nrEndosso}) — Restituição prevista ${formatIsoDate(r.previstaPara)}`
          : `Restituição do que foi pago a mais${numero === undefined ? '' : ` na ${numero}ª parcela`} — Restituição prevista ${formatIsoDate(r.previstaPara)}`,
      amount: r.valor,
      // A receipt's credit was owed from the day it came: its refund only says how it goes back.
      credit: r.valor - (receipt?.credito ?? 0),
      debt: 0,
    });
  }
  for (const e of input.refundEvents) {
    const at = iso(e.em);
    push({ day: brasiliaDay(at), instant: at, ...eventText(e, refundById.get(e.refundId)) });
  }

  entries.sort(
    (a, b) =>
      (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) ||
      (a.instant < b.instant ? -1 : a.instant > b.instant ? 1 : 0) ||
      RANK[a.kind] - RANK[b.kind] ||
      a.seq - b.seq,
  );
  let owedByInsured = 0;
  let owedToInsured = 0;
  let dueByToday = 0;
  const lines = entries.map((e): LedgerLine => {
    owedByInsured += e.debt;
    owedToInsured += e.credit;
    const future = e.day > input.today;
    if (!future) dueByToday = owedByInsured;
    return {
      day: e.day,
      kind: e.kind,
      description: e.description,
      amount: e.amount,
      debt: e.debt,
      credit: e.credit,
      owedByInsured,
      owedToInsured,
      future,
    };
  });
  const sum = (kinds: LedgerKind[]) => lines.filter((l) => kinds.includes(l.kind)).reduce((s, l) => s + l.debt, 0);
  const totals: LedgerTotals = {
    charged:
      sum(['PARCELA', 'SEGUNDA_VIA', 'MULTA_JUROS']) -
      lines.filter((l) => l.kind === 'PARCELA_CANCELADA').reduce((s, l) => s + l.amount, 0),
    received: input.receipts.reduce((s, r) => s + r.valor, 0),
    receivedInExcess: input.receipts.reduce((s, r) => s + r.credito, 0),
    owedBack: input.refunds.reduce((s, r) => s + r.valor, 0),
    paidBack: lines.filter((l) => l.kind === 'RESTITUICAO_PAGA' || l.kind === 'RESTITUICAO_DEVOLVIDA').reduce((s, l) => s - l.credit, 0),
    owedByInsured: { due: dueByToday, later: owedByInsured - dueByToday },
    owedToInsured,
  };
  return { lines, totals };
}

/**
 * The CSV's columns and a line as its record (lib/csv.ts CSV_OPTIONS writes it): the line's amount and
 * the two running totals, each unsigned in its own column — nothing nets them, and a leading '-' would
 * be escaped as a formula (escape_formulas) and read as text.
 */
export const LEDGER_CSV_COLUMNS = [
  'Data',
  'Tipo',
  'Descrição',
  'Valor (R$)',
  'Segurado deve (R$)',
  'A devolver ao segurado (R$)',
  'A vencer',
] as const;

/** Cents as a spreadsheet in pt-BR reads a number: '1234,56' (unsigned). */
export const csvAmount = (cents: number): string => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

export const ledgerCsvRecord = (line: LedgerLine): string[] => [
  formatIsoDate(line.day),
  LEDGER_KIND_LABELS[line.kind],
  line.description,
  csvAmount(line.amount),
  csvAmount(line.owedByInsured),
  csvAmount(line.owedToInsured),
  line.future ? 'sim' : 'não',
];

export const ledgerCsvFileName = (nrApolice: string) => `extrato-apolice-${nrApolice}.csv`;
