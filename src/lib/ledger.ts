import { brasiliaDay, formatIsoDate } from './format';
import { formatBRL } from './products/money';
import type { StoredInstallmentStatus } from './policies';
import type { ReceiptSituation } from './receipts';
import { returnReasonLabel } from './refund-status';

/*
 * The money ledger of a policy (issue 31): one chronological list of what was charged, received,
 * owed back and paid back, each line signed from the insured's side — a charge raises what the
 * insured owes (+), money received or owed back lowers it (−), a refund paid raises it again (+) —
 * and a running balance: positive, the insured owes; negative, the insurer owes the insured.
 *
 * - An installment is charged once, on its due day (or the day it was first paid, when paid ahead),
 *   at its amount (a partial cancellation's reduced amount for the open ones). Its first boleto is that charge; a 2ª via adds only the fine and
 *   interest it carries above what was already charged for the installment — a second 2ª via
 *   replaces the first, so its fine and interest are not added twice.
 * - A receipt (decision 059) is received whole (−valor): what paid the installment, a partial
 *   payment, and what came twice or above what was owed (its `credito`, owed back: the balance goes
 *   below zero by it). When it cost more on its day than was charged (paid late without a 2ª via:
 *   the contract's fine and interest up to that day), the difference is a line of fine and interest
 *   just before it.
 * - An installment cancelled (a whole cancellation) is taken back whole (−what was charged for it):
 *   a partial payment of it is then owed back, as decision 059 says.
 * - A cancellation's refund is owed (−valor, with its expected day), paid (+), returned by the bank
 *   (−, owed again) and put back to be paid (no amount).
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
}

export interface LedgerRefund {
  id: number;
  nrEndosso: string;
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
  /** Signed cents: + raises what the insured owes, − lowers it. */
  amount: number;
  /** The running balance after this line: positive, the insured owes; negative, the insurer owes. */
  balance: number;
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
  /** Refunds owed by cancellations. */
  owedBack: number;
  /** Refunds paid, less those the bank returned. */
  paidBack: number;
  /** The last line's balance. */
  balance: number;
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

function eventText(e: LedgerRefundEvent, refund: LedgerRefund | undefined): { kind: LedgerKind; description: string; amount: number } {
  const of = refund ? ` (endosso nº ${refund.nrEndosso})` : '';
  if (e.acao === 'PAGA')
    return {
      kind: 'RESTITUICAO_PAGA',
      description: `Restituição paga${of}${e.detalhe ? ` — comprovante ${e.detalhe}` : ''}`,
      amount: e.valor,
    };
  if (e.acao === 'DEVOLVIDA')
    return {
      kind: 'RESTITUICAO_DEVOLVIDA',
      description: `Restituição devolvida pelo banco${of}${e.detalhe ? `: ${returnReasonLabel(e.detalhe.split(':')[0]!)}${e.detalhe.includes(':') ? ` — ${e.detalhe.slice(e.detalhe.indexOf(':') + 1).trim()}` : ''}` : ''}`,
      amount: -e.valor,
    };
  return {
    kind: 'RESTITUICAO_REABERTA',
    description: `Destino corrigido, restituição a pagar de novo${of}${e.detalhe ? `: ${e.detalhe}` : ''}`,
    amount: 0,
  };
}

/** The ledger of one policy from its rows (the service reads them through the scoping function). */
export function buildLedger(input: LedgerInput): Ledger {
  const entries: Entry[] = [];
  let seq = 0;
  const push = (e: Omit<Entry, 'seq'>) => entries.push({ ...e, seq: seq++ });
  const numeroOf = new Map(input.installments.map((i) => [i.id, i.numero]));
  const count = input.installments.length;
  // Fine and interest already charged, per installment (a 2ª via or a late receipt raised it).
  const fees = new Map<number, number>(input.installments.map((i) => [i.id, 0]));

  // An installment is charged on its due day, or on the day it was first paid when paid ahead (a
  // payment in advance is not money to give back in between).
  const firstPaid = new Map<number, string>();
  for (const r of input.receipts) {
    if (r.installmentId === null || r.situacao === 'CREDITO' || r.situacao === 'NAO_IDENTIFICADO') continue;
    const day = brasiliaDay(r.recebidoEm);
    const known = firstPaid.get(r.installmentId);
    if (known === undefined || day < known) firstPaid.set(r.installmentId, day);
  }
  for (const i of input.installments)
    push({
      day: [i.vencimento, firstPaid.get(i.id) ?? i.vencimento].sort()[0]!,
      instant: '',
      kind: 'PARCELA',
      description: `${i.numero}ª parcela de ${count}, vencimento ${formatIsoDate(i.vencimento)}`,
      amount: i.valor,
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
      push({
        day,
        instant: h.at,
        kind: 'SEGUNDA_VIA',
        description: `2ª via da ${numeroOf.get(c.installmentId) ?? '?'}ª parcela, vencimento ${formatIsoDate(c.vencimento)}: multa ${formatBRL(c.multa)} e juros ${formatBRL(c.juros)}${before > 0 ? ` (substitui a anterior, de ${formatBRL(before)})` : ''}`,
        amount: Math.max(0, now - before),
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
        });
      }
    }
    push({ day, instant: h.at, kind: 'RECEBIMENTO', description: receiptText(r, installment?.numero, feesOnDay), amount: -r.valor });
  }

  if (input.cancelledAt !== null) {
    const at = iso(input.cancelledAt);
    for (const i of input.installments.filter((x) => x.status === 'CANCELADA'))
      push({
        day: brasiliaDay(at),
        instant: at,
        kind: 'PARCELA_CANCELADA',
        description: `${i.numero}ª parcela cancelada com a apólice: não é mais cobrada`,
        amount: -(i.valor + (fees.get(i.id) ?? 0)),
      });
  }

  const refundById = new Map(input.refunds.map((r) => [r.id, r]));
  for (const r of input.refunds) {
    const at = iso(r.criadaEm);
    push({
      day: brasiliaDay(at),
      instant: at,
      kind: 'RESTITUICAO_DEVIDA',
      description: `Restituição devida pelo ${r.parcial ? 'cancelamento parcial' : 'cancelamento'} (endosso nº ${r.nrEndosso}) — Restituição prevista ${formatIsoDate(r.previstaPara)}`,
      amount: -r.valor,
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
  let balance = 0;
  const lines = entries.map((e): LedgerLine => {
    balance += e.amount;
    return { day: e.day, kind: e.kind, description: e.description, amount: e.amount, balance, future: e.day > input.today };
  });
  const sum = (kinds: LedgerKind[]) => lines.filter((l) => kinds.includes(l.kind)).reduce((s, l) => s + l.amount, 0);
  const totals: LedgerTotals = {
    charged: sum(['PARCELA', 'SEGUNDA_VIA', 'MULTA_JUROS', 'PARCELA_CANCELADA']),
    received: input.receipts.reduce((s, r) => s + r.valor, 0),
    receivedInExcess: input.receipts.reduce((s, r) => s + r.credito, 0),
    owedBack: input.refunds.reduce((s, r) => s + r.valor, 0),
    paidBack: sum(['RESTITUICAO_PAGA', 'RESTITUICAO_DEVOLVIDA']),
    balance,
  };
  return { lines, totals };
}

/**
 * The CSV's columns and a line as its record (lib/csv.ts CSV_OPTIONS writes it). Amounts are written
 * unsigned in a debit or a credit column, and the balance with whose side it is on: a leading '-'
 * would be escaped as a formula (escape_formulas) and read as text.
 */
export const LEDGER_CSV_COLUMNS = [
  'Data',
  'Tipo',
  'Descrição',
  'Débito (R$)',
  'Crédito (R$)',
  'Saldo (R$)',
  'Saldo a favor de',
  'A vencer',
] as const;

/** Cents as a spreadsheet in pt-BR reads a number: '1234,56' (unsigned). */
export const csvAmount = (cents: number): string => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

/** Whose side a balance is on, in words. */
export const balanceSide = (balance: number): string =>
  balance > 0 ? 'seguradora (o segurado deve)' : balance < 0 ? 'segurado (a devolver)' : '—';

export const ledgerCsvRecord = (line: LedgerLine): string[] => [
  formatIsoDate(line.day),
  LEDGER_KIND_LABELS[line.kind],
  line.description,
  line.amount > 0 ? csvAmount(line.amount) : '',
  line.amount < 0 ? csvAmount(line.amount) : '',
  csvAmount(line.balance),
  balanceSide(line.balance),
  line.future ? 'sim' : 'não',
];

export const ledgerCsvFileName = (nrApolice: string) => `extrato-apolice-${nrApolice}.csv`;
