import * as z from 'zod/mini';
import { lateAmount } from './charges';
import { oneOf, optionalField, pageField, parseListQuery } from './list-query';
import type { Cents } from './products/types';

/*
 * Money received for installments (issue 27 item 13, decision 059). A bank confirms an amount for a
 * code; the amount is recorded whatever it is, and these rules say what it did: paid the installment,
 * paid part of it, or left money the insurer owes back. Pure, tested as tables.
 */

export type ReceiptSituation = 'QUITACAO' | 'PARCIAL' | 'CREDITO' | 'NAO_IDENTIFICADO';

/** The largest amount one receipt may carry: the database's integer, R$ 21.474.836,47. */
export const MAX_RECEIPT_CENTS = 2_147_483_647;

/**
 * What an installment costs on `day` when paid through `charge`: up to the charge's due day, the
 * charge's total (a 2ª via's includes its fine and interest) — as long as it charges the
 * installment's present value; after that day, or for a value changed since (a partial
 * cancellation), the contract's fine and interest on the installment up to `day` (lib/charges.ts).
 */
export function amountDue(
  installment: { valor: Cents; vencimento: string },
  charge: { valor: Cents; total: Cents; vencimento: string },
  day: string,
): Cents {
  if (day <= charge.vencimento && charge.valor === installment.valor) return charge.total;
  return lateAmount(installment.valor, installment.vencimento, day).total;
}

export interface ReceiptSplit {
  situacao: ReceiptSituation;
  /** The part that went to the installment. */
  aplicado: Cents;
  /** The part the insurer owes back (a duplicate, an excess, a payment of a closed installment). */
  credito: Cents;
  /** Whether the installment is paid once this receipt is counted. */
  paid: boolean;
}

/**
 * How an amount received splits. `installment` is undefined when the code named no charge of ours;
 * `open` says whether it may still be paid; `received` is what earlier receipts already applied to it.
 */
export function splitReceipt(valor: Cents, installment: { open: boolean; due: Cents; received: Cents } | undefined): ReceiptSplit {
  if (!installment) return { situacao: 'NAO_IDENTIFICADO', aplicado: 0, credito: valor, paid: false };
  if (!installment.open) return { situacao: 'CREDITO', aplicado: 0, credito: valor, paid: false };
  const owed = Math.max(0, installment.due - installment.received);
  if (valor < owed) return { situacao: 'PARCIAL', aplicado: valor, credito: 0, paid: false };
  return { situacao: 'QUITACAO', aplicado: owed, credito: valor - owed, paid: true };
}

/** Where the money of a receipt to give back is (decision 074): its refund, when one gives it back. */
export interface ReceiptRefund {
  status: 'DEVIDA' | 'PAGA' | 'DEVOLVIDA';
}

/**
 * What the insurer's list says of a receipt to look at (situação, and for a partial one its
 * installment's state); once a refund gives its money back, where that refund is.
 */
export function receiptReview(receipt: {
  situacao: ReceiptSituation;
  credito: Cents;
  installmentStatus: string | null;
  refund?: ReceiptRefund | null;
}): string {
  if (receipt.refund) return REFUND_REVIEW[receipt.refund.status];
  if (receipt.situacao === 'NAO_IDENTIFICADO') return 'Código não reconhecido: identificar o pagador e devolver';
  if (receipt.situacao === 'CREDITO')
    return receipt.installmentStatus === 'CANCELADA' ? 'Parcela cancelada: devolver ao pagador' : 'Parcela já paga: devolver ao pagador';
  if (receipt.situacao === 'PARCIAL')
    return receipt.installmentStatus === 'ABERTA'
      ? 'Pagamento parcial: a parcela segue em aberto'
      : receipt.installmentStatus === 'CANCELADA'
        ? 'Pagamento parcial de parcela cancelada: devolver ao pagador'
        : 'Pagamento parcial, completado depois';
  return receipt.credito > 0 ? 'Pago a mais: devolver o excedente' : 'Pago';
}

const REFUND_REVIEW: Record<ReceiptRefund['status'], string> = {
  DEVIDA: 'Devolução na fila de restituições, a pagar',
  PAGA: 'Devolvido ao segurado',
  DEVOLVIDA: 'Devolução recusada pelo banco: corrigir o destino na fila de restituições',
};

export const RECEIPT_SITUATION_LABELS: Record<ReceiptSituation, string> = {
  QUITACAO: 'Quitou a parcela',
  PARCIAL: 'Parcial',
  CREDITO: 'Crédito a devolver',
  NAO_IDENTIFICADO: 'Não identificado',
};

/* ---------- The insurer's list of receipts to look at (/v2/boleto/recebimentos) ---------- */

export const RECEIPTS_PAGE_SIZE = 20;

export const RECEIPTS_PAGE_MESSAGE = 'Página inválida.';

/** The list's tabs (?situacao=…): what is still to give back or look at, and what was given back (decision 074). */
export const RECEIPTS_TABS = [
  { value: 'a-conferir', label: 'A conferir' },
  { value: 'devolvidos', label: 'Devolvidos' },
] as const;
export type ReceiptsTab = (typeof RECEIPTS_TABS)[number]['value'];

const receiptsQuerySchema = z.object({
  situacao: optionalField(
    oneOf(
      RECEIPTS_TABS.map((t) => t.value),
      'Situação inválida.',
      (v) => v.toLowerCase(),
    ),
  ),
  page: optionalField(pageField(RECEIPTS_PAGE_MESSAGE)),
});

/** The list's address: its tab and its page. */
export const parseReceiptsQuery = (query: URLSearchParams) => parseListQuery(receiptsQuerySchema, query);
