import { randomUUID } from 'node:crypto';
import type * as z from 'zod/mini';
import { sql } from 'kysely';
import type { DB } from '../db';
import type { Generation } from '../db/schema';
import { ApiError, badRequest, fieldErrorsOf, notFound } from '../api/errors';
import { brasiliaDay } from '../../lib/format';
import {
  cancellationPreview,
  coverageErrors,
  coverageStepSchema,
  maskedDestination,
  reasonStepSchema,
  refundDueDay,
  termErrors,
  type CancellationPreview,
  type CancellationRecord,
  type CancellationStep,
  type CoverageInForce,
  type CoverageStep,
  type ReasonStep,
} from '../../lib/cancellation';
import { reducedInstallments } from '../../lib/endorsements';
import { ENDORSEMENT_CLOSED } from '../../lib/endorsement-home';
import { refundAccountSchema } from '../../lib/refund-account';
import type { Scope } from '../../lib/scope';
import { findPolicyByContract, lockPolicyByContract, POLICY_NOT_FOUND, type PolicyDetail } from './policies';
import { recordEndorsement } from './endorsements';

/*
 * Cancelling a policy, whole or some of its coverages (issue 14; decision 038). The steps' answers
 * live in a draft per user and policy (endorsement_drafts) until the confirmation, which — in one
 * transaction, with the policy's row locked — writes the endorsement, cancels or reduces the open
 * installments (and their boletos), leaves the refund owed and consumes the draft. The endorsement
 * keeps the draft's key: a confirmation sent twice answers the endorsement of the first.
 */

const MESSAGES = {
  stale: 'Este cancelamento não está mais em andamento: recomece pelo motivo.',
  steps: 'Preencha as etapas anteriores do cancelamento.',
  account: 'Informe a conta ou a chave Pix para a restituição.',
} as const;

interface DraftData {
  motivo?: ReasonStep;
  coberturas?: CoverageStep;
}

export interface CancellationContext {
  policy: PolicyDetail;
  /** The insured's whole CPF/CNPJ: the refund's account must be theirs. */
  insuredDocument: string;
  contratadaEm: string;
  commissionPercent: number;
  paid: number;
  draft: { chave: string; dados: DraftData } | undefined;
  inForce: CoverageInForce[];
}

/** A policy of the scope with what its cancellation needs; a 404 for any other contract. */
export async function cancellationContext(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  userId: number,
  today: string,
): Promise<CancellationContext> {
  const policy = await findPolicyByContract(db, scope, generation, idContratacao, today);
  if (!policy) throw notFound(POLICY_NOT_FOUND);
  const [facts, paid, draft] = await Promise.all([
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
      .selectFrom('endorsement_drafts')
      .select(['chave', 'dados'])
      .where('user_id', '=', userId)
      .where('policy_id', '=', policy.id)
      .executeTakeFirst(),
  ]);
  return {
    policy,
    insuredDocument: facts.documento_segurado,
    contratadaEm: brasiliaDay(facts.created_at),
    commissionPercent: facts.comissao_centesimos / 100,
    paid: Number(paid.paid),
    draft: draft ? { chave: draft.chave, dados: draft.dados as DraftData } : undefined,
    inForce: policy.coverages.filter((c) => !c.cancelled).map(({ id, name, premium }) => ({ id, name, premium })),
  };
}

/** The furthest step a draft may open: the first one it lacks, or the last before the confirmation. */
export function pendingStep(draft: DraftData | undefined): CancellationStep {
  if (!draft?.motivo) return 'motivo';
  if (!draft.coberturas) return 'coberturas';
  return 'conta';
}

/** The resumo of a draft with both answers; undefined while a step is missing. */
export function previewOf(context: CancellationContext): CancellationPreview | undefined {
  const answers = context.draft?.dados;
  if (!answers?.motivo || !answers.coberturas) return undefined;
  const { policy } = context;
  return cancellationPreview({
    requester: answers.motivo.solicitante,
    efetivaEm: answers.motivo.efetivaEm,
    term: { inicio: policy.inicioVigencia, fim: policy.fimVigencia },
    contratadaEm: context.contratadaEm,
    premium: { net: policy.premioLiquido, policyCost: policy.custoApolice, iof: policy.iof, total: policy.premioTotal },
    paid: context.paid,
    commissionPercent: context.commissionPercent,
    inForce: context.inForce,
    dropped: answers.coberturas.escopo === 'PARCIAL' ? answers.coberturas.coberturas : undefined,
  });
}

function assertCancellable(policy: PolicyDetail) {
  const reason = ENDORSEMENT_CLOSED[policy.status];
  if (reason) throw new ApiError(409, reason);
}

/** A step's answer as its schema reads it; an issue about the whole answer is filed under `root`. */
function validated<T>(schema: z.ZodMiniType<T>, body: unknown, root: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw badRequest('Confira os campos destacados.', fieldErrorsOf(parsed.error, '', root));
  return parsed.data;
}

function refuseOn(errors: Record<string, string[]>) {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw badRequest(first, errors);
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

/** The motivo step: who asks, why and from which day — a day within the term. */
export async function saveReason(db: DB, context: CancellationContext, userId: number, body: unknown, now: Date) {
  assertCancellable(context.policy);
  const answer = validated(reasonStepSchema, body, 'motivo');
  refuseOn(termErrors(answer.efetivaEm, { inicio: context.policy.inicioVigencia, fim: context.policy.fimVigencia }));
  await saveStep(db, userId, context.policy.id, { motivo: answer }, now);
}

/** The coberturas step: the whole policy, or additional coverages the product lets go. */
export async function saveCoverages(db: DB, context: CancellationContext, userId: number, body: unknown, now: Date) {
  assertCancellable(context.policy);
  if (!context.draft?.dados.motivo) throw new ApiError(409, MESSAGES.steps);
  const answer = validated(coverageStepSchema, body, 'escopo');
  refuseOn(coverageErrors(answer, context.policy.line, context.inForce));
  await saveStep(db, userId, context.policy.id, { coberturas: answer }, now);
}

export interface Confirmation {
  nrEndosso: string;
  /** True when this draft had been confirmed already: nothing was done again. */
  repeated: boolean;
}

/**
 * Confirms the cancellation of draft `chave`: once. The policy's row is locked first, so of two
 * confirmations at the same moment the second waits, then finds the endorsement of the first.
 */
export async function confirmCancellation(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  userId: number,
  body: { chave: string; conta?: unknown },
  now: Date,
): Promise<Confirmation> {
  const today = brasiliaDay(now);
  return db.transaction().execute(async (trx) => {
    const policyId = await lockPolicyByContract(trx, scope, generation, idContratacao);
    const earlier = await trx
      .selectFrom('endorsements')
      .select('nr_endosso')
      .where('rascunho', '=', body.chave)
      .where('policy_id', '=', policyId)
      .executeTakeFirst();
    if (earlier) return { nrEndosso: earlier.nr_endosso, repeated: true };

    const context = await cancellationContext(trx, scope, generation, idContratacao, userId, today);
    assertCancellable(context.policy);
    if (context.draft?.chave !== body.chave) throw new ApiError(409, MESSAGES.stale);
    const answers = context.draft.dados;
    const preview = previewOf(context);
    if (!preview || !answers.motivo) throw new ApiError(409, MESSAGES.steps);
    // The draft was checked when saved; the policy may have changed since (another endorsement).
    refuseOn(termErrors(answers.motivo.efetivaEm, { inicio: context.policy.inicioVigencia, fim: context.policy.fimVigencia }));
    if (answers.coberturas) refuseOn(coverageErrors(answers.coberturas, context.policy.line, context.inForce));

    const account = preview.refund.total > 0 ? refundAccount(context.insuredDocument, body.conta) : undefined;
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
      await trx
        .updateTable('policies')
        .set({ status: 'CANCELADA', cancelada_em: answers.motivo.efetivaEm })
        .where('id', '=', policy.id)
        .execute();
    }

    const destino = account ? maskedDestination(account) : null;
    const endorsement = await recordEndorsement(
      trx,
      {
        policyId: policy.id,
        tipo: preview.partial ? 'CANCELAMENTO_PARCIAL' : 'CANCELAMENTO',
        solicitante: answers.motivo.solicitante,
        motivo: answers.motivo.detalhe ? `${answers.motivo.motivo}: ${answers.motivo.detalhe}` : answers.motivo.motivo,
        efetivaEm: answers.motivo.efetivaEm,
        dados: { coberturas: preview.coverages, refund: preview.refund, ...installments, destino } satisfies CancellationRecord,
        premioAnterior: policy.premioTotal,
        premioNovo: preview.premiumAfter,
        userId,
        rascunho: body.chave,
      },
      now,
    );
    if (preview.refund.total > 0)
      await trx
        .insertInto('refunds')
        .values({
          endorsement_id: endorsement.id,
          policy_id: policy.id,
          valor: preview.refund.total,
          estorno_comissao: preview.refund.clawback,
          destino: JSON.stringify(account),
          prevista_para: refundDueDay(today),
          created_at: now,
        })
        .execute();
    await trx.deleteFrom('endorsement_drafts').where('chave', '=', body.chave).execute();
    return { nrEndosso: endorsement.nrEndosso, repeated: false };
  });
}

function refundAccount(insuredDocument: string, conta: unknown) {
  if (conta === undefined || conta === null) throw badRequest(MESSAGES.account, { conta: [MESSAGES.account] });
  const parsed = refundAccountSchema(insuredDocument).safeParse(conta);
  if (!parsed.success) throw badRequest('Confira os dados da conta.', fieldErrorsOf(parsed.error, 'conta', ''));
  return parsed.data;
}

/**
 * The open installments after the cancellation: all cancelled with the policy, or each reduced by
 * the dropped coverages' share; either way their boletos stop being payable (a reduced one gets a
 * new boleto when next asked for, services/charges.ts).
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
