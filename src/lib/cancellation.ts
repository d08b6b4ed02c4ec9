import * as z from 'zod/mini';
import { CANCELLATION_REASONS, droppedPremium, PARTIAL_CANCELLATION, REFUND_BUSINESS_DAYS, type PolicyPremium } from './endorsements';
import { isoDateField } from './list-query';
import { computeRefund, isWithdrawal, takesEffectAhead, withPartialReceipts, type Refund, type Requester } from './refund';
import { addBusinessDays, addDays, latestDay } from './calendar';
import { formatIsoDate } from './format';
import { formatBRL } from './products/money';
import { PIX_KEY_LABELS, type RefundAccount } from './refund-account';
import { BANKS } from './contracting';
import type { ProductLine } from './simulators';
import type { Cents } from './products/types';

/*
 * The cancellation of a policy, step by step (issue 14): motivo → coberturas → resumo →
 * resumo/cadastro-conta → sucesso. Each step's answer is kept in a draft on the server, so a reload
 * resumes it; the resumo is computed from the draft and the policy as they are, never stored before
 * the confirmation. zod/mini: the forms and the endpoints check the same.
 */

export const CANCELLATION_STEPS = [
  { id: 'motivo', label: 'Motivo', path: 'motivo' },
  { id: 'coberturas', label: 'Coberturas', path: 'coberturas' },
  { id: 'resumo', label: 'Resumo', path: 'resumo' },
  { id: 'conta', label: 'Conta', path: 'resumo/cadastro-conta' },
  { id: 'sucesso', label: 'Concluído', path: 'sucesso' },
] as const;
export type CancellationStep = (typeof CANCELLATION_STEPS)[number]['id'];

/** The address of a step: `/endosso/cancelamento/motivo?contratacao=100001` (v2 under /v2). */
export function cancellationPath(generation: 'v1' | 'v2', step: CancellationStep, query: Record<string, string | number>): string {
  const path = CANCELLATION_STEPS.find((s) => s.id === step)!.path;
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return `${generation === 'v2' ? '/v2' : ''}/endosso/cancelamento/${path}?${search}`;
}

export const CANCELLATION_MESSAGES = {
  requester: 'Escolha quem pede o cancelamento.',
  reason: 'Escolha o motivo do cancelamento.',
  detail: 'Descreva o motivo (até 500 caracteres).',
  date: 'Informe a data de início do cancelamento.',
  beforeStart: (start: string) => `O cancelamento não pode valer antes do início da vigência (${start}).`,
  afterEnd: (end: string) => `O cancelamento não pode valer depois do fim da vigência (${end}).`,
  retroactive: (today: string) =>
    `Só a seguradora cancela com data retroativa: escolha hoje (${today}) ou um dia adiante, que fica agendado.`,
  tooFarBack: (limit: string) => `Um cancelamento retroativo vale desde ${limit}, no máximo: ${BACKDATE_LIMIT_DAYS} dias antes de hoje.`,
  justify: 'Justifique a data retroativa: o que o segurado pediu e quando (até 500 caracteres).',
  scope: 'Escolha cancelar a apólice inteira ou algumas coberturas.',
  coverages: 'Escolha ao menos uma cobertura adicional a cancelar.',
  mainCoverage: 'A cobertura básica não pode ser cancelada sozinha: para deixá-la, cancele a apólice inteira.',
  unknownCoverage: 'Cobertura inválida ou já cancelada.',
  partialNotAllowed: 'Este produto não permite cancelar coberturas separadamente: cancele a apólice inteira.',
} as const;

export const DETAIL_MAX = 500;

/** The motivo step: who asks, why, and from which day. The day is checked against the term apart. */
export const reasonStepSchema = z
  .object({
    solicitante: z.enum(['SEGURADO', 'SEGURADORA'], { error: CANCELLATION_MESSAGES.requester }),
    motivo: z.string({ error: CANCELLATION_MESSAGES.reason }).check(z.minLength(1, CANCELLATION_MESSAGES.reason), z.maxLength(40)),
    detalhe: z.optional(
      z.string({ error: CANCELLATION_MESSAGES.detail }).check(z.trim(), z.maxLength(DETAIL_MAX, CANCELLATION_MESSAGES.detail)),
    ),
    efetivaEm: isoDateField(CANCELLATION_MESSAGES.date),
  })
  .check(
    z.refine((v) => CANCELLATION_REASONS[v.solicitante].some((r) => r.value === v.motivo), {
      message: CANCELLATION_MESSAGES.reason,
      path: ['motivo'],
    }),
    z.refine((v) => v.motivo !== 'OUTRO' || (v.detalhe ?? '').length > 0, { message: CANCELLATION_MESSAGES.detail, path: ['detalhe'] }),
  );
export type ReasonStep = z.output<typeof reasonStepSchema>;

/**
 * How far back the insurer's staff may date a cancellation (ILLUSTRATIVE; decision 055): an insured's
 * request that reached the insurer late — a letter, a call — is dated when it was made, with a reason.
 * Nobody else dates one in the past: it would buy back days of cover already run.
 */
export const BACKDATE_LIMIT_DAYS = 30;

export interface EffectiveDayRules {
  term: { inicio: string; fim: string };
  /** The day the cancellation is asked for (Brasília). */
  today: string;
  /** The insurer's staff (ADMIN, the legacy administrators' group) may date it back, with a reason. */
  insurerStaff: boolean;
}

/** The first and last day a cancellation may take effect from, for whoever asks (the date field's min and max). */
export function effectiveDayWindow({ term, today, insurerStaff }: EffectiveDayRules): { min: string; max: string } {
  const earliest = insurerStaff ? addDays(today, -BACKDATE_LIMIT_DAYS) : today;
  return { min: latestDay(earliest, term.inicio), max: term.fim };
}

/** Field errors of an effective day the rules refuse (ISO days; the messages show dd/mm/aaaa). */
export function effectiveDayErrors(answer: Pick<ReasonStep, 'efetivaEm' | 'detalhe'>, rules: EffectiveDayRules): Record<string, string[]> {
  const { efetivaEm } = answer;
  const { term, today, insurerStaff } = rules;
  if (efetivaEm < term.inicio) return { efetivaEm: [CANCELLATION_MESSAGES.beforeStart(formatIsoDate(term.inicio))] };
  if (efetivaEm > term.fim) return { efetivaEm: [CANCELLATION_MESSAGES.afterEnd(formatIsoDate(term.fim))] };
  if (efetivaEm >= today) return {};
  if (!insurerStaff) return { efetivaEm: [CANCELLATION_MESSAGES.retroactive(formatIsoDate(today))] };
  const { min } = effectiveDayWindow(rules);
  if (efetivaEm < min) return { efetivaEm: [CANCELLATION_MESSAGES.tooFarBack(formatIsoDate(min))] };
  if (!answer.detalhe) return { detalhe: [CANCELLATION_MESSAGES.justify] };
  return {};
}

/**
 * When a cancellation takes effect, as the flow treats it: at once (today, or the term's first day
 * when it has not begun), back-dated (staff only), or scheduled — a day ahead is kept and carried out
 * on that day, the policy staying in force and its installments due until then.
 */
export type CancellationTiming = 'IMEDIATO' | 'RETROATIVO' | 'AGENDADO';

export function cancellationTiming(efetivaEm: string, today: string, term: { inicio: string }): CancellationTiming {
  if (efetivaEm < today) return 'RETROATIVO';
  return takesEffectAhead(efetivaEm, today, term.inicio) ? 'AGENDADO' : 'IMEDIATO';
}

export const coverageStepSchema = z.discriminatedUnion(
  'escopo',
  [
    z.object({ escopo: z.literal('TOTAL') }),
    z.object({
      escopo: z.literal('PARCIAL'),
      coberturas: z
        .array(z.string().check(z.maxLength(60)), { error: CANCELLATION_MESSAGES.coverages })
        .check(z.minLength(1, CANCELLATION_MESSAGES.coverages), z.maxLength(30, CANCELLATION_MESSAGES.coverages)),
    }),
  ],
  { error: CANCELLATION_MESSAGES.scope },
);
export type CoverageStep = z.output<typeof coverageStepSchema>;

export interface CoverageInForce {
  id: string;
  name: string;
  premium: Cents;
}

/**
 * Which coverages a partial cancellation may drop: the additional ones still in force. The main
 * coverage is the plan's first (the basic one every plan is built on): dropping it is dropping the
 * policy. None when the line does not allow it or only the main one is left.
 */
export function droppableCoverages(line: ProductLine, inForce: readonly CoverageInForce[]): CoverageInForce[] {
  return PARTIAL_CANCELLATION[line] ? inForce.slice(1) : [];
}

/** Field errors of a coverage choice against the policy as it is now. */
export function coverageErrors(choice: CoverageStep, line: ProductLine, inForce: readonly CoverageInForce[]): Record<string, string[]> {
  if (choice.escopo === 'TOTAL') return {};
  const droppable = droppableCoverages(line, inForce);
  if (droppable.length === 0) return { escopo: [CANCELLATION_MESSAGES.partialNotAllowed] };
  if (choice.coberturas.includes(inForce[0]?.id ?? '')) return { coberturas: [CANCELLATION_MESSAGES.mainCoverage] };
  if (!choice.coberturas.every((id) => droppable.some((c) => c.id === id))) return { coberturas: [CANCELLATION_MESSAGES.unknownCoverage] };
  return {};
}

export interface CancellationInput {
  requester: Requester;
  /** The day it is asked for: the 7 days of withdrawal count to it. */
  solicitadaEm: string;
  efetivaEm: string;
  term: { inicio: string; fim: string };
  contratadaEm: string;
  premium: PolicyPremium;
  /** What the insured has paid so far: the paid installments' sum. */
  paid: Cents;
  /** What partial payments applied to the installments still open: a whole cancellation gives it back. */
  partialReceived?: Cents;
  commissionPercent: number;
  /** Every coverage in force and, for a partial cancellation, the ids dropped. */
  inForce: readonly CoverageInForce[];
  dropped?: readonly string[];
}

export interface CancellationPreview {
  partial: boolean;
  timing: CancellationTiming;
  /**
   * Scheduled, though asked within the insured's 7 days of withdrawal: cancelled from today instead,
   * everything paid would come back (CDC art. 49) — the resumo says so before anyone confirms.
   */
  withdrawalIfToday: boolean;
  coverages: CoverageInForce[];
  /** The premium of what is cancelled: the whole policy, or the dropped coverages' share. */
  cancelled: PolicyPremium;
  refund: Refund;
  /** The policy's total premium after: zero when it is cancelled whole. */
  premiumAfter: Cents;
  /** How much less the open installments add up to after a partial cancellation. */
  openReduction: Cents;
}

/** What a cancellation's endorsement records (endorsements.dados): its success page and PDF read it back. */
export interface CancellationRecord {
  /** The coverages cancelled: all of them for a whole cancellation. */
  coberturas: CoverageInForce[];
  refund: Refund;
  parcelasCanceladas: number[];
  /** A partial cancellation's open installments, from and to (cents). */
  parcelasReduzidas: { numero: number; de: number; para: number }[];
  /** The refund's destination, masked (maskedDestination); null when nothing comes back. */
  destino: string | null;
}

/** The resumo: what is cancelled and what comes back, before anyone confirms. */
export function cancellationPreview(input: CancellationInput): CancellationPreview {
  const dropped = input.dropped ?? [];
  const partial = dropped.length > 0;
  const coverages = partial ? input.inForce.filter((c) => dropped.includes(c.id)) : [...input.inForce];
  const cancelled = partial
    ? droppedPremium(
        input.premium,
        coverages.reduce((sum, c) => sum + c.premium, 0),
      )
    : input.premium;
  const share = input.premium.total === 0 ? 0 : cancelled.total / input.premium.total;
  const paidOfCancelled = Math.round(input.paid * share);
  const computed = computeRefund({
    requester: input.requester,
    inicioVigencia: input.term.inicio,
    fimVigencia: input.term.fim,
    contratadaEm: input.contratadaEm,
    solicitadaEm: input.solicitadaEm,
    efetivaEm: input.efetivaEm,
    premio: cancelled,
    pago: paidOfCancelled,
    commissionPercent: input.commissionPercent,
  });
  // A partial cancellation only reduces the open installments: what was paid of them still counts.
  const refund = partial ? computed : withPartialReceipts(computed, input.partialReceived ?? 0);
  const timing = cancellationTiming(input.efetivaEm, input.solicitadaEm, input.term);
  return {
    partial,
    timing,
    withdrawalIfToday:
      timing === 'AGENDADO' &&
      isWithdrawal({ ...input, inicioVigencia: input.term.inicio, efetivaEm: latestDay(input.solicitadaEm, input.term.inicio) }),
    coverages,
    cancelled,
    refund,
    premiumAfter: partial ? input.premium.total - cancelled.total : 0,
    openReduction: partial ? cancelled.total - paidOfCancelled : 0,
  };
}

/**
 * What the resumo says becomes of the open installments (issue 42 item 15): a cancellation carried out
 * now cancels them (or reduces them, a partial one); a scheduled one leaves them due until its day —
 * as the success page and the e-mail say — and only then cancels or reduces those still open.
 */
export function openInstallmentsText(
  preview: Pick<CancellationPreview, 'partial' | 'timing' | 'openReduction'>,
  efetivaEm: string,
): string {
  const reduction = `${formatBRL(preview.openReduction)} no total`;
  const day = formatIsoDate(efetivaEm);
  if (preview.timing !== 'AGENDADO') return preview.partial ? `Reduzidas em ${reduction}` : 'Canceladas: não serão cobradas';
  return preview.partial
    ? `Continuam devidas como estão até ${day}; nesse dia, as que estiverem em aberto são reduzidas em ${reduction} (estimativa pelo que está pago hoje)`
    : `Continuam devidas até ${day}; nesse dia, as que ainda estiverem em aberto são canceladas`;
}

/** When the refund of a cancellation confirmed today is paid. */
export const refundDueDay = (today: string) => addBusinessDays(today, REFUND_BUSINESS_DAYS);

/** A refund destination as pages and the PDF show it: enough to recognise, never the whole number. */
export function maskedDestination(account: RefundAccount): string {
  const tail = (value: string, shown: number) => `${'*'.repeat(Math.max(0, value.length - shown))}${value.slice(-shown)}`;
  if (account.tipo === 'CONTA') {
    const kind = account.tipoConta === 'poupanca' ? 'Conta poupança' : 'Conta corrente';
    return `${kind} — ${BANKS.find((b) => b.value === account.banco)?.label ?? account.banco} — ag. ${account.agencia} — conta ${tail(account.conta, 3)}`;
  }
  const { type, key } = account.chave;
  const shown = type === 'EMAIL' ? key.replace(/^(.)[^@]*(@.*)$/, '$1***$2') : type === 'ALEATORIA' ? `${key.slice(0, 8)}…` : tail(key, 4);
  return `Pix (${PIX_KEY_LABELS[type]}) ${shown}`;
}
