import { randomUUID } from 'node:crypto';
import type * as z from 'zod/mini';
import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { invalid, notFound, conflict, fieldErrorsOf } from '../../errors';
import { brasiliaDay } from '../../../lib/format';
import {
  cancellationPreview,
  coverageErrors,
  coverageStepSchema,
  effectiveDayErrors,
  maskedDestination,
  reasonStepSchema,
  refundDueDay,
  type CancellationPreview,
  type CancellationRecord,
  type CancellationStep,
  type CoverageInForce,
  type CoverageStep,
  type EffectiveDayRules,
  type ReasonStep,
} from '../../../lib/cancellation';
import { formatIsoDate } from '../../../lib/format';
import { reducedInstallments } from '../../../lib/endorsements';
import { ENDORSEMENT_CLOSED } from '../../../lib/endorsement-home';
import { refundAccountSchema, type RefundAccount } from '../../../lib/refund-account';
import type { Scope } from '../../../lib/scope';
import { findPolicyByContract, lockPolicyByContract, POLICY_NOT_FOUND, type PolicyDetail } from './policies';
import { recordEndorsement } from './endorsements';
import { notifyCancellation, notifyCancellationScheduled, notifyScheduleUndone } from './endorsement-notices';

/*
 * Cancelling a policy, whole or some of its coverages (issue 14; decisions 038 and 055). The steps'
 * answers live in a draft per user and policy (endorsement_drafts) until the confirmation, which — in
 * one transaction, with the policy's row locked — writes the endorsement, cancels or reduces the open
 * installments (and their boletos), leaves the refund owed, tells the insured and the seller and
 * consumes the draft. The endorsement keeps the draft's key: a confirmation sent twice answers the
 * endorsement of the first. A day ahead is scheduled instead (scheduled_cancellations) and carried
 * out on that day by applyScheduledCancellations, through the same applyCancellation.
 */

const MESSAGES = {
  stale: 'Este cancelamento não está mais em andamento: recomece pelo motivo.',
  steps: 'Preencha as etapas anteriores do cancelamento.',
  account: 'Informe a conta ou a chave Pix para a restituição.',
  scheduled: (day: string) => `Esta apólice já tem um cancelamento agendado para ${day}: desfaça o agendamento para pedir outro.`,
  nothingScheduled: 'Esta apólice não tem cancelamento agendado.',
  correct: 'Volte às etapas anteriores para corrigir.',
} as const;

interface DraftData {
  motivo?: ReasonStep;
  coberturas?: CoverageStep;
}

/** Who is cancelling: the user the endorsement records, and whether they may date it back. */
export interface CancellationActor {
  userId: number;
  /** The insurer's staff (lib/session.ts isInsurerStaff): the only ones who may date a cancellation back. */
  insurerStaff: boolean;
}

/** A cancellation kept for a day ahead, as the pages show it. */
export interface ScheduledCancellation {
  id: number;
  efetivaEm: string;
  solicitadaEm: string;
  by: string;
  dados: DraftData;
  conta: RefundAccount | null;
}

export interface CancellationContext {
  policy: PolicyDetail;
  /** The insured's whole CPF/CNPJ: the refund's account must be theirs. */
  insuredDocument: string;
  contratadaEm: string;
  commissionPercent: number;
  paid: number;
  /** Partial payments of the open installments no refund gave back yet: a whole cancellation returns them (decision 074). */
  partialReceipts: { ids: number[]; total: number };
  draft: { chave: string; dados: DraftData } | undefined;
  inForce: CoverageInForce[];
  actor: CancellationActor;
  /** The day the context was read for (Brasília): the request's day. */
  today: string;
  /** The cancellation this policy has scheduled, if any: no other may be asked for meanwhile. */
  scheduled: ScheduledCancellation | undefined;
}

/** A policy of the scope with what its cancellation needs; a 404 for any other contract. */
export async function cancellationContext(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  actor: CancellationActor,
  today: string,
): Promise<CancellationContext> {
  const policy = await findPolicyByContract(db, scope, generation, idContratacao, today);
  if (!policy) throw notFound(POLICY_NOT_FOUND);
  const [facts, paid, partials, draft, scheduled] = await Promise.all([
    db
      .selectFrom('policies as a')
      .innerJoin('quotes as q', 'q.id', 'a.quote_id')
      .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
      .select(['a.documento_segurado', 'q.comissao_centesimos', 'p.created_at'])
      .where('a.id', '=', policy.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('installments')
      .select(sql<string>`coalesce(sum(valor), 0)`.as('paid'))
      .where('policy_id', '=', policy.id)
      .where('status', '=', 'PAGA')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('receipts as r')
      .innerJoin('installments as i', 'i.id', 'r.installment_id')
      .select(['r.id', 'r.aplicado'])
      .where('i.policy_id', '=', policy.id)
      .where('i.status', '=', 'ABERTA')
      .where('r.aplicado', '>', 0)
      .where('r.refund_id', 'is', null)
      .orderBy('r.id')
      .execute(),
    db
      .selectFrom('endorsement_drafts')
      .select(['chave', 'dados'])
      .where('user_id', '=', actor.userId)
      .where('policy_id', '=', policy.id)
      .executeTakeFirst(),
    scheduledCancellationOf(db, policy.id),
  ]);
  return {
    policy,
    insuredDocument: facts.documento_segurado,
    contratadaEm: brasiliaDay(facts.created_at),
    commissionPercent: facts.comissao_centesimos / 100,
    paid: Number(paid.paid),
    partialReceipts: { ids: partials.map((r) => r.id), total: partials.reduce((sum, r) => sum + r.aplicado, 0) },
    draft: draft ? { chave: draft.chave, dados: draft.dados as DraftData } : undefined,
    inForce: policy.coverages.filter((c) => !c.cancelled).map(({ id, name, premium }) => ({ id, name, premium })),
    actor,
    today,
    scheduled,
  };
}

/** The cancellation a policy has scheduled, if any (one at most). */
export async function scheduledCancellationOf(db: DB, policyId: number): Promise<ScheduledCancellation | undefined> {
  const row = await db
    .selectFrom('scheduled_cancellations as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.efetiva_em', 's.solicitada_em', 'u.nome', 's.dados', 's.conta'])
    .where('s.policy_id', '=', policyId)
    .where('s.status', '=', 'AGENDADO')
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      efetivaEm: row.efetiva_em,
      solicitadaEm: row.solicitada_em,
      by: row.nome,
      dados: row.dados as DraftData,
      conta: row.conta as RefundAccount | null,
    }
  );
}

/** The effective-day rules for this context's policy, day and actor. */
export const effectiveDayRules = (context: CancellationContext): EffectiveDayRules => ({
  term: { inicio: context.policy.inicioVigencia, fim: context.policy.fimVigencia },
  today: context.today,
  insurerStaff: context.actor.insurerStaff,
});

/** The furthest step a draft may open: the first one it lacks, or the last before the confirmation. */
export function pendingStep(draft: DraftData | undefined): CancellationStep {
  if (!draft?.motivo) return 'motivo';
  if (!draft.coberturas) return 'coberturas';
  return 'conta';
}

/**
 * The resumo of a draft with both answers; undefined while a step is missing. A scheduled
 * cancellation's answers are read the same way on its day, asked for on the day they were.
 */
export function previewOf(
  context: CancellationContext,
  answers: DraftData | undefined = context.draft?.dados,
  solicitadaEm = context.today,
): CancellationPreview | undefined {
  if (!answers?.motivo || !answers.coberturas) return undefined;
  const { policy } = context;
  return cancellationPreview({
    requester: answers.motivo.solicitante,
    solicitadaEm,
    efetivaEm: answers.motivo.efetivaEm,
    term: { inicio: policy.inicioVigencia, fim: policy.fimVigencia },
    contratadaEm: context.contratadaEm,
    premium: { net: policy.premioLiquido, policyCost: policy.custoApolice, iof: policy.iof, total: policy.premioTotal },
    paid: context.paid,
    partialReceived: context.partialReceipts.total,
    commissionPercent: context.commissionPercent,
    inForce: context.inForce,
    dropped: answers.coberturas.escopo === 'PARCIAL' ? answers.coberturas.coberturas : undefined,
  });
}

/** Why this policy takes no cancellation now; undefined when it does. */
export function cancellationBlocked(context: CancellationContext): string | undefined {
  return ENDORSEMENT_CLOSED[context.policy.status] ?? (context.scheduled && MESSAGES.scheduled(formatIsoDate(context.scheduled.efetivaEm)));
}

function assertCancellable(context: CancellationContext) {
  const reason = cancellationBlocked(context);
  if (reason) throw conflict(reason);
}

/** A step's answer as its schema reads it; an issue about the whole answer is filed under `root`. */
function validated<T>(schema: z.ZodMiniType<T>, body: unknown, root: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid('Confira os campos destacados.', fieldErrorsOf(parsed.error, '', root));
  return parsed.data;
}

function refuseOn(errors: Record<string, string[]>) {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw invalid(first, errors);
}

/** At the confirmation, an answer of an earlier step that no longer holds: a conflict, to correct there. */
function refuseStale(errors: Record<string, string[]>) {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw conflict(`${first} ${MESSAGES.correct}`);
}

/** Keeps a step's answer in the user's draft of this policy (made on the first step). */
async function saveStep(db: DB, userId: number, policyId: number, answer: DraftData, now: Date) {
  await db
    .insertInto('endorsement_drafts')
    .values({ chave: randomUUID(), user_id: userId, policy_id: policyId, dados: JSON.stringify(answer), updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'policy_id']).doUpdateSet({
        dados: sql`endorsement_drafts.dados || excluded.dados`,
        updated_at: now,
      }),
    )
    .execute();
}

/**
 * The motivo step: who asks, why and from which day — within the term, and not before today unless
 * the insurer's staff dates it back, with a reason (decision 055).
 */
export async function saveReason(db: DB, context: CancellationContext, body: unknown, now: Date) {
  assertCancellable(context);
  const answer = validated(reasonStepSchema, body, 'motivo');
  refuseOn(effectiveDayErrors(answer, effectiveDayRules(context)));
  await saveStep(db, context.actor.userId, context.policy.id, { motivo: answer }, now);
}

/** The coberturas step: the whole policy, or additional coverages the product lets go. */
export async function saveCoverages(db: DB, context: CancellationContext, body: unknown, now: Date) {
  assertCancellable(context);
  if (!context.draft?.dados.motivo) throw conflict(MESSAGES.steps);
  const answer = validated(coverageStepSchema, body, 'escopo');
  refuseOn(coverageErrors(answer, context.policy.line, context.inForce));
  await saveStep(db, context.actor.userId, context.policy.id, { coberturas: answer }, now);
}

/** What a confirmation did: the endorsement issued, or the day the cancellation was scheduled for. */
export interface Confirmation {
  nrEndosso: string | null;
  agendadaPara: string | null;
  /** True when this draft had been confirmed already: nothing was done again. */
  repeated: boolean;
}

/**
 * Confirms the cancellation of draft `chave`: once. The policy's row is locked first, so of two
 * confirmations at the same moment the second waits, then finds what the first did. A day ahead is
 * scheduled, with the refund's account, for applyScheduledCancellations to carry out on that day.
 */
export async function confirmCancellation(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  actor: CancellationActor,
  body: { chave: string; conta?: unknown },
  now: Date,
): Promise<Confirmation> {
  const today = brasiliaDay(now);
  return db.transaction().execute(async (trx) => {
    const policyId = await lockPolicyByContract(trx, scope, generation, idContratacao);
    await lockOpenInstallments(trx, policyId);
    const earlier = await earlierConfirmation(trx, policyId, body.chave);
    if (earlier) return { ...earlier, repeated: true };

    const context = await cancellationContext(trx, scope, generation, idContratacao, actor, today);
    assertCancellable(context);
    if (context.draft?.chave !== body.chave) throw conflict(MESSAGES.stale);
    const answers = context.draft.dados;
    const preview = previewOf(context);
    if (!preview || !answers.motivo) throw conflict(MESSAGES.steps);
    // The draft was checked when saved; the policy or the day may have changed since.
    refuseStale(effectiveDayErrors(answers.motivo, effectiveDayRules(context)));
    if (answers.coberturas) refuseStale(coverageErrors(answers.coberturas, context.policy.line, context.inForce));
    await trx.deleteFrom('endorsement_drafts').where('chave', '=', body.chave).execute();

    if (preview.timing === 'AGENDADO') {
      // What comes back is known only on the day, from what was paid by then: the account is asked now.
      const account = refundAccount(context.insuredDocument, body.conta);
      await trx
        .insertInto('scheduled_cancellations')
        .values({
          policy_id: policyId,
          user_id: actor.userId,
          chave: body.chave,
          dados: JSON.stringify(answers),
          conta: JSON.stringify(account),
          solicitada_em: today,
          efetiva_em: answers.motivo.efetivaEm,
          created_at: now,
        })
        .execute();
      await notifyCancellationScheduled(trx, policyId, { efetivaEm: answers.motivo.efetivaEm, preview, account });
      return { nrEndosso: null, agendadaPara: answers.motivo.efetivaEm, repeated: false };
    }
    const account = preview.refund.total > 0 ? refundAccount(context.insuredDocument, body.conta) : undefined;
    const { nrEndosso } = await applyCancellation(trx, context, answers, preview, { account, chave: body.chave }, now);
    return { nrEndosso, agendadaPara: null, repeated: false };
  });
}

/** What an earlier confirmation of draft `chave` did to this policy: its endorsement or its schedule. */
async function earlierConfirmation(trx: DB, policyId: number, chave: string) {
  const [endorsement, scheduled] = await Promise.all([
    trx.selectFrom('endorsements').select('nr_endosso').where('rascunho', '=', chave).where('policy_id', '=', policyId).executeTakeFirst(),
    trx
      .selectFrom('scheduled_cancellations')
      .select('efetiva_em')
      .where('chave', '=', chave)
      .where('policy_id', '=', policyId)
      .executeTakeFirst(),
  ]);
  if (endorsement) return { nrEndosso: endorsement.nr_endosso, agendadaPara: null };
  if (scheduled) return { nrEndosso: null, agendadaPara: scheduled.efetiva_em };
  return undefined;
}

/**
 * Carries a cancellation out, inside the caller's transaction with the policy's row locked: the
 * installments, the policy, the endorsement (keeping the draft's key), the refund owed and the notices.
 */
async function applyCancellation(
  trx: DB,
  context: CancellationContext,
  answers: DraftData,
  preview: CancellationPreview,
  { account, chave }: { account: RefundAccount | undefined; chave: string },
  now: Date,
): Promise<{ id: number; nrEndosso: string }> {
  const motivo = answers.motivo!;
  const { policy } = context;
  const installments = await changeInstallments(trx, policy.id, preview);
  if (preview.partial) {
    const dropped = [...policy.coverages.filter((c) => c.cancelled).map((c) => c.id), ...preview.coverages.map((c) => c.id)];
    await trx
      .updateTable('policies')
      .set({
        coberturas_canceladas: JSON.stringify(dropped),
        premio_liquido: policy.premioLiquido - preview.cancelled.net,
        iof: policy.iof - preview.cancelled.iof,
        premio_total: preview.premiumAfter,
      })
      .where('id', '=', policy.id)
      .execute();
  } else {
    await trx.updateTable('policies').set({ status: 'CANCELADA', cancelada_em: motivo.efetivaEm }).where('id', '=', policy.id).execute();
    // A renewal cancelled from its first day never continued the policy it renews: that one may be
    // renewed again (issue 42, decision 075). One cancelled later did, and stays its renewal.
    if (motivo.efetivaEm <= policy.inicioVigencia)
      await trx.updateTable('policies').set({ renovada_por_id: null }).where('renovada_por_id', '=', policy.id).execute();
  }

  const destino = account ? maskedDestination(account) : null;
  const endorsement = await recordEndorsement(
    trx,
    {
      policyId: policy.id,
      tipo: preview.partial ? 'CANCELAMENTO_PARCIAL' : 'CANCELAMENTO',
      solicitante: motivo.solicitante,
      motivo: motivo.detalhe ? `${motivo.motivo}: ${motivo.detalhe}` : motivo.motivo,
      efetivaEm: motivo.efetivaEm,
      dados: { coberturas: preview.coverages, refund: preview.refund, ...installments, destino } satisfies CancellationRecord,
      premioAnterior: policy.premioTotal,
      premioNovo: preview.premiumAfter,
      userId: context.actor.userId,
      rascunho: chave,
    },
    now,
  );
  const refundDue = preview.refund.total > 0 ? refundDueDay(brasiliaDay(now)) : null;
  if (refundDue) {
    const refund = await trx
      .insertInto('refunds')
      .values({
        endorsement_id: endorsement.id,
        policy_id: policy.id,
        valor: preview.refund.total,
        estorno_comissao: preview.refund.clawback,
        destino: JSON.stringify(account),
        prevista_para: refundDue,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The partial payments it gives back are marked as given back by it (decision 074).
    if (preview.refund.partialReceipts)
      await trx.updateTable('receipts').set({ refund_id: refund.id }).where('id', 'in', context.partialReceipts.ids).execute();
  }
  await notifyCancellation(trx, policy.id, { nrEndosso: endorsement.nrEndosso, motivo, preview, installments, destino, refundDue });
  return endorsement;
}

/** The scheduled cancellations due this many at a time, each in its own transaction. */
const SCHEDULED_BATCH = 20;

/**
 * The job (server/boot/jobs.ts): carries out the cancellations scheduled for today or before, each with
 * its policy's row locked and claimed with SKIP LOCKED, so several instances never carry one out
 * twice. The refund is of what was paid by the day; a policy that meanwhile ended, or a coverage no
 * longer in force, undoes the schedule instead.
 */
export async function applyScheduledCancellations(db: DB, now: Date): Promise<number> {
  const today = brasiliaDay(now);
  let applied = 0;
  for (let turn = 0; turn < SCHEDULED_BATCH; turn += 1) {
    const outcome = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('scheduled_cancellations as s')
        .innerJoin('policies as a', 'a.id', 's.policy_id')
        .select(['s.id', 's.chave', 's.user_id', 's.solicitada_em', 's.dados', 's.conta', 'a.generation', 'a.id_contratacao'])
        .where('s.status', '=', 'AGENDADO')
        .where('s.efetiva_em', '<=', today)
        .orderBy('s.efetiva_em')
        .orderBy('s.id')
        .limit(1)
        .forUpdate('s')
        .skipLocked()
        .executeTakeFirst();
      if (!due) return 'none';
      const all: Scope = { kind: 'all' };
      await lockOpenInstallments(trx, await lockPolicyByContract(trx, all, due.generation, due.id_contratacao));
      const context = await cancellationContext(
        trx,
        all,
        due.generation,
        due.id_contratacao,
        { userId: due.user_id, insurerStaff: false },
        today,
      );
      const answers = due.dados as DraftData;
      const preview = previewOf(context, answers, due.solicitada_em);
      const stale =
        !preview ||
        ENDORSEMENT_CLOSED[context.policy.status] !== undefined ||
        (answers.coberturas && Object.keys(coverageErrors(answers.coberturas, context.policy.line, context.inForce)).length > 0);
      if (stale) {
        await trx.updateTable('scheduled_cancellations').set({ status: 'DESFEITO', desfeito_em: now }).where('id', '=', due.id).execute();
        return 'undone';
      }
      const account = preview.refund.total > 0 ? ((due.conta as RefundAccount | null) ?? undefined) : undefined;
      const endorsement = await applyCancellation(trx, context, answers, preview, { account, chave: due.chave }, now);
      await trx
        .updateTable('scheduled_cancellations')
        .set({ status: 'EFETIVADO', endorsement_id: endorsement.id })
        .where('id', '=', due.id)
        .execute();
      return 'applied';
    });
    if (outcome === 'none') break;
    if (outcome === 'applied') applied += 1;
  }
  return applied;
}

/** Undoes the policy's scheduled cancellation (whoever may cancel the policy may undo it), before its day. */
export async function undoScheduledCancellation(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  actor: CancellationActor,
  now: Date,
): Promise<{ efetivaEm: string }> {
  return db.transaction().execute(async (trx) => {
    const policyId = await lockPolicyByContract(trx, scope, generation, idContratacao);
    const undone = await trx
      .updateTable('scheduled_cancellations')
      .set({ status: 'DESFEITO', desfeito_por: actor.userId, desfeito_em: now })
      .where('policy_id', '=', policyId)
      .where('status', '=', 'AGENDADO')
      .returning('efetiva_em')
      .executeTakeFirst();
    if (!undone) throw conflict(MESSAGES.nothingScheduled);
    await notifyScheduleUndone(trx, policyId, undone.efetiva_em);
    return { efetivaEm: undone.efetiva_em };
  });
}

/**
 * Locks the policy's open installments (after its row): a payment of one waits until the cancellation
 * is done and then finds it cancelled (a credit, refunded on its own), so every partial payment the
 * cancellation read is the one it gives back.
 */
const lockOpenInstallments = (trx: DB, policyId: number) =>
  trx.selectFrom('installments').select('id').where('policy_id', '=', policyId).where('status', '=', 'ABERTA').forUpdate().execute();

function refundAccount(insuredDocument: string, conta: unknown) {
  if (conta === undefined || conta === null) throw invalid(MESSAGES.account, { conta: [MESSAGES.account] });
  const parsed = refundAccountSchema(insuredDocument).safeParse(conta);
  if (!parsed.success) throw invalid('Confira os dados da conta.', fieldErrorsOf(parsed.error, 'conta', ''));
  return parsed.data;
}

/**
 * The open installments after the cancellation: all cancelled with the policy, or each reduced by
 * the dropped coverages' share; either way their boletos stop being payable (a reduced one gets a
 * new boleto when next asked for, services/after-sale/charges.ts).
 */
async function changeInstallments(
  trx: DB,
  policyId: number,
  preview: CancellationPreview,
): Promise<Pick<CancellationRecord, 'parcelasCanceladas' | 'parcelasReduzidas'>> {
  const open = await trx
    .selectFrom('installments')
    .select(['id', 'numero', 'valor'])
    .where('policy_id', '=', policyId)
    .where('status', '=', 'ABERTA')
    .orderBy('numero')
    .execute();
  const ids = open.map((i) => i.id);
  if (ids.length > 0)
    await trx
      .updateTable('charges')
      .set({ status: 'CANCELADA' })
      .where('installment_id', 'in', ids)
      .where('status', '=', 'ATIVA')
      .execute();
  if (!preview.partial) {
    if (ids.length > 0) await trx.updateTable('installments').set({ status: 'CANCELADA' }).where('id', 'in', ids).execute();
    return { parcelasCanceladas: open.map((i) => i.numero), parcelasReduzidas: [] };
  }
  const reduced = reducedInstallments(
    open.map((i) => i.valor),
    preview.openReduction,
  );
  const changes = open.map((i, n) => ({ id: i.id, numero: i.numero, de: i.valor, para: reduced[n]! })).filter((c) => c.de !== c.para);
  for (const change of changes) await trx.updateTable('installments').set({ valor: change.para }).where('id', '=', change.id).execute();
  return { parcelasCanceladas: [], parcelasReduzidas: changes.map(({ numero, de, para }) => ({ numero, de, para })) };
}
