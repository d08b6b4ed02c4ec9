import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { readKeysetPage } from '../../db/keyset-page';
import { conflict, fieldErrorsOf, invalid, notFound } from '../../errors';
import { queueEmail } from '../../mail/outbox';
import { z } from '../../../lib/zod';
import type { Scope } from '../../../lib/scope';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import { formatDate, formatIsoDate } from '../../../lib/format';
import { formatBRL } from '../../../lib/products/money';
import { maskedDestination } from '../../../lib/cancellation';
import { ownDocumentPixKey, refundAccountSchema, type RefundAccount } from '../../../lib/refund-account';
import { brasiliaDay } from '../../../lib/format';
import { refundDueDay } from '../../../lib/cancellation';
import { maskDocument } from '../../../lib/history';
import {
  REFUND_TRANSITIONS,
  refusalText,
  returnReasonLabel,
  RETURN_REASONS,
  type RefundAction,
  type RefundStatus,
} from '../../../lib/refund-status';
import { soldWithin, soldWithinBranches } from '../identity/scope';
import { appendAccessEvent } from '../identity/access-log';
import { policyNoticeFacts } from './policy-notices';

/*
 * The refunds queue of the insurer's staff (issue 31, slice E; lib/refund-status.ts is the table of
 * transitions): what the cancellations owe and what was received above what was owed (a receipt's
 * credit, decision 074) — a pagar, pagas and devolvidas, keyset-paged through refunds_queue
 * (generation, status, situacao_em, id — migration 041), and the three actions. Each action is one
 * transaction whose first write is a conditional UPDATE … WHERE status = <from>: of two at once (a
 * double click, two instances over one PostgreSQL) the second finds the row moved and changes nothing
 * — no second event, no second e-mail — answering that it was already done. The row's event
 * (refund_events, read by the policy's ledger), the access log's row and, for a payment, the
 * insured's e-mail (the outbox) commit with it or not at all.
 *
 * Paying: no bank is connected to the portal. Where the demo bank works (config demoBankEnabled:
 * outside production, or without PAYMENTS_WEBHOOK_SECRET) "Pagar" is its transfer, and its receipt
 * id is generated; elsewhere the staff pay at the bank and record the bank's receipt (comprovante),
 * which is then required. A real transfer integration (SPB/Pix API) is out of reach here.
 */

export const REFUNDS_PAGE_SIZE = 20;

export interface RefundQueueRow {
  id: number;
  nrApolice: string;
  /** The cancellation that owes it; null for money received above what was owed (`receipt`). */
  nrEndosso: string | null;
  /** The receipt whose money it gives back: its installment and when it came. */
  receipt: { numero: number | null; recebidoEm: string } | null;
  nomeSegurado: string;
  documentoSegurado: string;
  valor: number;
  previstaPara: string;
  status: RefundStatus;
  destino: string;
  situacaoEm: string;
  pagaEm: string | null;
  comprovante: string | null;
  devolvidaEm: string | null;
  motivoDevolucao: string | null;
  tentativas: number;
}

export interface RefundQueueFilters {
  status: RefundStatus;
  nrApolice?: string;
}

const destinationText = (destino: unknown): string =>
  destino && typeof destino === 'object' ? maskedDestination(destino as RefundAccount) : 'Conta não informada';

const refundsOf = (db: DB, generation: Generation) =>
  db.selectFrom('refunds as r').innerJoin('policies as a', 'a.id', 'r.policy_id').where('r.generation', '=', generation);

/**
 * The queue's rows: a left join, though every refund has its policy, so that a count whose scope names
 * none of the policy's columns (the insurer's, everyone's) reads the refunds' index alone — PostgreSQL
 * drops an unused left join to a unique key (at 1000× the demo, 1,000 lookups of policies less).
 */
const queueOf = (db: DB, generation: Generation) =>
  db.selectFrom('refunds as r').leftJoin('policies as a', 'a.id', 'r.policy_id').where('r.generation', '=', generation);

/**
 * A generation's refunds in one status as the scope sees them, one query per branch of the scope: what
 * the queue's tab lists and what the worklist's "Restituições a pagar" counts (issue 42: the bell
 * counted the legacy refunds the v2 queue never lists).
 */
export const refundsInScope = (db: DB, scope: Scope, generation: Generation, status: RefundStatus) =>
  soldWithinBranches(scope, sql.ref('a.user_id'), sql.ref('a.company_id')).map((within) =>
    queueOf(db, generation).where(within).where('r.status', '=', status),
  );

/** A page of a generation's refunds in one status, as the scope sees them: owed soonest first, the others newest first. */
export async function listRefundQueue(
  db: DB,
  scope: Scope,
  generation: Generation,
  filters: RefundQueueFilters,
  request: PageRequest,
): Promise<KeysetPage<RefundQueueRow>> {
  const branches = refundsInScope(db, scope, generation, filters.status).map((branch) =>
    branch.$if(filters.nrApolice !== undefined, (q) => q.where('a.nr_apolice', '=', filters.nrApolice!)),
  );
  const page = await readKeysetPage(
    db,
    {
      branches,
      time: 'r.situacao_em',
      id: 'r.id',
      order: filters.status === 'DEVIDA' ? 'asc' : 'desc',
      columns: (branch: ReturnType<typeof queueOf>) =>
        branch
          .leftJoin('endorsements as e', 'e.id', 'r.endorsement_id')
          .leftJoin('receipts as rc', 'rc.id', 'r.receipt_id')
          .leftJoin('installments as i', 'i.id', 'rc.installment_id')
          .select([
            'r.id',
            'r.valor',
            'r.prevista_para',
            'r.status',
            'r.destino',
            'r.situacao_em',
            'r.paga_em',
            'r.comprovante',
            'r.devolvida_em',
            'r.motivo_devolucao',
            'r.tentativas',
            'a.nr_apolice',
            'a.nome_segurado',
            'a.documento_segurado',
            'e.nr_endosso',
            'rc.recebido_em',
            'i.numero',
          ]),
    },
    request,
    REFUNDS_PAGE_SIZE,
  );
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    ...page,
    content: page.content.map((r) => ({
      id: r.id,
      // The policy is there (a refund's policy_id references it): the left join above is for the count.
      nrApolice: r.nr_apolice!,
      nrEndosso: r.nr_endosso,
      receipt: r.recebido_em === null ? null : { numero: r.numero, recebidoEm: iso(r.recebido_em)! },
      nomeSegurado: r.nome_segurado!,
      documentoSegurado: maskDocument(r.documento_segurado!),
      valor: r.valor,
      previstaPara: r.prevista_para,
      status: r.status,
      destino: destinationText(r.destino),
      situacaoEm: iso(r.situacao_em)!,
      pagaEm: iso(r.paga_em),
      comprovante: r.comprovante,
      devolvidaEm: iso(r.devolvida_em),
      motivoDevolucao: r.motivo_devolucao,
      tentativas: r.tentativas,
    })),
  };
}

export interface RefundActor {
  userId: number;
  email: string;
  generation: Generation;
  ip: string;
}

export interface RefundOutcome {
  /** True when the refund had already moved there (a second click): nothing was changed. */
  repeated: boolean;
  nrApolice: string;
  status: RefundStatus;
}

const NOT_FOUND = 'Restituição não encontrada.';
const COMPROVANTE = /^[\p{L}\p{N} ._:/-]{1,60}$/u;

/** The refund, within the scope and generation, or a 404 (a number outside it reads as none). */
async function refundInScope(trx: DB, scope: Scope, generation: Generation, id: number) {
  const row = await refundsOf(trx, generation)
    .where((eb) => soldWithin(scope, eb.ref('a.user_id'), eb.ref('a.company_id')))
    .where('r.id', '=', id)
    .leftJoin('receipts as rc', 'rc.id', 'r.receipt_id')
    .leftJoin('installments as i', 'i.id', 'rc.installment_id')
    .select([
      'r.id',
      'r.status',
      'r.valor',
      'r.destino',
      'r.tentativas',
      'r.policy_id',
      'r.receipt_id',
      'i.numero',
      'a.nr_apolice',
      'a.documento_segurado',
      'a.company_id',
    ])
    .executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

type Found = Awaited<ReturnType<typeof refundInScope>>;

/**
 * Moves the refund by `action` if it is still where the action starts (the conditional UPDATE), then
 * records the event and the access log's row; `after` adds what else belongs to the same change.
 * Already where the action leads: repeated, nothing written. Elsewhere: a 409 saying where it is.
 */
async function transition(
  db: DB,
  scope: Scope,
  actor: RefundActor,
  id: number,
  action: RefundAction,
  changes: (found: Found) => Promise<Record<string, unknown>> | Record<string, unknown>,
  event: (found: Found) => { detalhe: string | null; log: string },
  after?: (trx: DB, found: Found) => Promise<void>,
  now: Date = new Date(),
): Promise<RefundOutcome> {
  const { from, to } = REFUND_TRANSITIONS[action];
  return db.transaction().execute(async (trx) => {
    const found = await refundInScope(trx, scope, actor.generation, id);
    const moved = await trx
      .updateTable('refunds')
      .set({ ...(await changes(found)), status: to, situacao_em: now })
      .where('id', '=', id)
      .where('status', '=', from)
      .returning('id')
      .executeTakeFirst();
    if (!moved) {
      const current = await trx.selectFrom('refunds').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      if (current.status === to) return { repeated: true, nrApolice: found.nr_apolice, status: to };
      throw conflict(refusalText(current.status, action));
    }
    const { detalhe, log } = event(found);
    await trx
      .insertInto('refund_events')
      .values({
        refund_id: id,
        policy_id: found.policy_id,
        acao: to === 'DEVIDA' ? 'REABERTA' : to,
        valor: found.valor,
        detalhe,
        user_id: actor.userId,
        created_at: now,
      })
      .execute();
    await appendAccessEvent(trx, {
      event: 'RESTITUICAO_ALTERADA',
      generation: actor.generation,
      email: actor.email,
      userId: actor.userId,
      ip: actor.ip,
      detalhe: log,
      // Filed under the policy's company, whoever changed it (decision 072).
      companyId: found.company_id,
      registroTipo: 'APOLICE',
      registro: found.nr_apolice,
    });
    if (after) await after(trx, found);
    return { repeated: false, nrApolice: found.nr_apolice, status: to };
  });
}

const payInput = z.object({ comprovante: z.optional(z.string()) });

/** What a refund gives back, as the insured's e-mail names it: a cancellation, or money paid above what was owed. */
const refundReason = (found: Pick<Found, 'receipt_id' | 'numero'>) =>
  found.receipt_id === null
    ? 'do cancelamento da sua apólice'
    : `do valor pago a mais${found.numero === null ? '' : ` na ${found.numero}ª parcela`} da sua apólice`;

/**
 * "Pagar": by the demo bank where it works (its receipt id generated when none is typed), else with
 * the bank's receipt typed by the staff. The insured is told by e-mail (outbox, same transaction)
 * when they have an e-mail on file.
 */
export async function payRefund(
  db: DB,
  scope: Scope,
  actor: RefundActor,
  id: number,
  input: unknown,
  options: { demoBank: boolean },
  now: Date,
): Promise<RefundOutcome> {
  const parsed = z.safeParse(payInput, input);
  const typed = parsed.success ? (parsed.data.comprovante ?? '').trim() : '';
  if (typed !== '' && !COMPROVANTE.test(typed))
    throw invalid('Comprovante inválido.', { comprovante: ['Use até 60 letras, números, espaços ou . _ : / -.'] });
  if (typed === '' && !options.demoBank)
    throw invalid('Informe o comprovante.', { comprovante: ['Informe o número do comprovante da transferência feita no banco.'] });
  let comprovante = typed;
  return transition(
    db,
    scope,
    actor,
    id,
    'pagar',
    (found) => {
      // The demo bank's "transfer": its receipt id names the refund and the attempt.
      comprovante ||= `DEMO-${found.id}-${found.tentativas + 1}-${randomBytes(3).toString('hex').toUpperCase()}`;
      return { paga_em: now, paga_por: actor.userId, comprovante, tentativas: sql<number>`tentativas + 1` };
    },
    (found) => ({ detalhe: comprovante, log: `Restituição de ${formatBRL(found.valor)} paga, comprovante ${comprovante}` }),
    async (trx, found) => {
      const facts = await policyNoticeFacts(trx, found.policy_id);
      if (!facts.insuredEmail) return;
      await queueEmail(trx, facts.insuredEmail, 'restituicao-paga-segurado', {
        nome: facts.nome,
        nrApolice: facts.nrApolice,
        produto: facts.produto,
        valor: formatBRL(found.valor),
        motivo: refundReason(found),
        destino: destinationText(found.destino),
        pagaEm: formatDate(now),
        comprovante,
        parceiro: facts.parceiro,
      });
    },
    now,
  );
}

const REASON_VALUES = RETURN_REASONS.map((r) => r.value) as [string, ...string[]];
const returnInput = z.object({
  motivo: z.enum(REASON_VALUES, { error: 'Escolha o motivo da devolução.' }),
  detalhe: z.optional(z.string().check(z.trim(), z.maxLength(200, 'Use até 200 caracteres.'))),
});

/** "Marcar como devolvida": the bank sent the transfer back, with its reason. */
export async function returnRefund(
  db: DB,
  scope: Scope,
  actor: RefundActor,
  id: number,
  input: unknown,
  now: Date,
): Promise<RefundOutcome> {
  const parsed = z.safeParse(returnInput, input);
  if (!parsed.success) throw invalid('Confira o motivo da devolução.', fieldErrorsOf(parsed.error, '', 'motivo'));
  const { motivo, detalhe } = parsed.data;
  if (motivo === 'OUTRO' && !detalhe) throw invalid('Descreva o motivo.', { detalhe: ['Descreva o motivo da devolução.'] });
  const stored = detalhe ? `${motivo}: ${detalhe}` : motivo;
  return transition(
    db,
    scope,
    actor,
    id,
    'devolver',
    () => ({ devolvida_em: now, devolvida_por: actor.userId, motivo_devolucao: stored }),
    (found) => ({ detalhe: stored, log: `Restituição de ${formatBRL(found.valor)} devolvida pelo banco: ${returnReasonLabel(motivo)}` }),
    undefined,
    now,
  );
}

/**
 * "Corrigir o destino e voltar a pagar": a returned refund goes back to a pagar with a destination
 * tied to the insured's own document (decision 056: an account whose holder is the insured, or the
 * Pix key that is their CPF/CNPJ), due again within the refund's business days from today.
 */
export async function reopenRefund(
  db: DB,
  scope: Scope,
  actor: RefundActor,
  id: number,
  input: unknown,
  previstaPara: string,
  now: Date,
): Promise<RefundOutcome> {
  // The insured's document is read first (outside the change): the rule checks the account against it.
  const found = await refundInScope(db, scope, actor.generation, id);
  const parsed = z.safeParse(refundAccountSchema(found.documento_segurado), input);
  if (!parsed.success) throw invalid('Confira o destino da restituição.', fieldErrorsOf(parsed.error, '', 'tipo'));
  const account = parsed.data;
  return transition(
    db,
    scope,
    actor,
    id,
    'reabrir',
    () => ({ destino: JSON.stringify(account), prevista_para: previstaPara }),
    (f) => ({
      detalhe: `${maskedDestination(account)}, prevista ${formatIsoDate(previstaPara)}`,
      log: `Restituição de ${formatBRL(f.valor)} a pagar de novo em ${maskedDestination(account)}`,
    }),
    undefined,
    now,
  );
}

/**
 * Money a bank confirmed above what was owed (a receipt's credit, decision 059) becomes a refund a pagar
 * in the queue of the policy's generation (decision 074), inside the transaction that records the
 * receipt — a new receipt, so nothing else can refund it meanwhile; the same notice again finds the
 * receipt and records nothing (charges.ts). It goes to the insured's own CPF/CNPJ Pix key (decision 056);
 * no commission is clawed back, and the receipt is marked as given back by it.
 */
export async function refundReceiptCredit(
  trx: DB,
  receipt: { id: number; policyId: number; insuredDocument: string; credito: number },
  now: Date,
): Promise<number> {
  const { id } = await trx
    .insertInto('refunds')
    .values({
      endorsement_id: null,
      receipt_id: receipt.id,
      policy_id: receipt.policyId,
      valor: receipt.credito,
      estorno_comissao: 0,
      destino: JSON.stringify(ownDocumentPixKey(receipt.insuredDocument)),
      prevista_para: refundDueDay(brasiliaDay(now)),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('receipts').set({ refund_id: id }).where('id', '=', receipt.id).execute();
  return id;
}
