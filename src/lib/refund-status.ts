/*
 * The states of a refund owed to an insured (issue 31; decision 038 writes it 'DEVIDA' at the
 * cancellation) and who moves it where. Stored values: 'DEVIDA' and 'PAGA' keep their meaning (the
 * worklist lists 'DEVIDA' for the staff); 'DEVOLVIDA' is a payment the receiving bank sent back.
 *
 *   DEVIDA    ─pagar──────────────► PAGA        the transfer was made (the demo bank's, in the demo)
 *   PAGA      ─devolver───────────► DEVOLVIDA   the bank returned it: wrong or closed account…, with a reason
 *   DEVOLVIDA ─reabrir (destino)──► DEVIDA      the destination corrected (decision 056's rules), to pay again
 *
 * Each change is one conditional UPDATE … WHERE status = <from>: of two at once (a double click, two
 * instances) one changes the row and the other finds it already moved.
 */
/** The queue of a generation (route guards: the legacy administrators' group, the v2 ADMIN). */
export const refundsQueuePath = (generation: 'v1' | 'v2') => (generation === 'v2' ? '/v2/restituicoes' : '/restituicoes');

export const REFUND_STATUSES = ['DEVIDA', 'PAGA', 'DEVOLVIDA'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export type RefundAction = 'pagar' | 'devolver' | 'reabrir';
export const REFUND_ACTIONS: readonly RefundAction[] = ['pagar', 'devolver', 'reabrir'];

export const REFUND_TRANSITIONS: Record<RefundAction, { from: RefundStatus; to: RefundStatus }> = {
  pagar: { from: 'DEVIDA', to: 'PAGA' },
  devolver: { from: 'PAGA', to: 'DEVOLVIDA' },
  reabrir: { from: 'DEVOLVIDA', to: 'DEVIDA' },
};

/** The status an action leads to from `status`, or undefined when that action does not apply to it. */
export function nextStatus(status: RefundStatus, action: RefundAction): RefundStatus | undefined {
  const t = REFUND_TRANSITIONS[action];
  return t.from === status ? t.to : undefined;
}

/** The actions offered for a refund in `status`. */
export const actionsFor = (status: RefundStatus): RefundAction[] => REFUND_ACTIONS.filter((a) => REFUND_TRANSITIONS[a].from === status);

export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = { DEVIDA: 'A pagar', PAGA: 'Paga', DEVOLVIDA: 'Devolvida pelo banco' };

/** The queue's tabs, as the address names them (?situacao=…). */
export const QUEUE_TABS: { value: RefundStatus; param: string; label: string }[] = [
  { value: 'DEVIDA', param: 'a-pagar', label: 'A pagar' },
  { value: 'PAGA', param: 'pagas', label: 'Pagas' },
  { value: 'DEVOLVIDA', param: 'devolvidas', label: 'Devolvidas' },
];

/** The tab an address names; anything else is the first (a pagar). */
export const tabOf = (param: string | null): RefundStatus => QUEUE_TABS.find((t) => t.param === param)?.value ?? 'DEVIDA';

/** Why a bank returns a transfer (ILLUSTRATIVE: the usual return reasons of a TED/Pix). */
export const RETURN_REASONS = [
  { value: 'CONTA_INEXISTENTE', label: 'Conta inexistente ou dados da conta errados' },
  { value: 'CONTA_ENCERRADA', label: 'Conta encerrada ou bloqueada' },
  { value: 'TITULAR_DIVERGENTE', label: 'Titular da conta diferente do segurado' },
  { value: 'CHAVE_PIX', label: 'Chave Pix não encontrada' },
  { value: 'OUTRO', label: 'Outro motivo' },
] as const;

export const returnReasonLabel = (value: string): string => RETURN_REASONS.find((r) => r.value === value)?.label ?? value;

/** What refusing an action says: the refund had already moved (another click, another person). */
export function refusalText(status: RefundStatus, action: RefundAction): string {
  if (action === 'pagar' && status === 'PAGA') return 'Esta restituição já foi paga.';
  if (action === 'devolver' && status === 'DEVOLVIDA') return 'Esta restituição já está marcada como devolvida.';
  if (action === 'reabrir' && status === 'DEVIDA') return 'Esta restituição já está a pagar.';
  return `Esta restituição está ${REFUND_STATUS_LABELS[status].toLowerCase()}: a ação não se aplica.`;
}
