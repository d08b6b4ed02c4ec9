import { stringify } from 'csv-stringify/sync';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import type { Scope } from '../../../lib/scope';
import { buildLedger, ledgerCsvRecord, LEDGER_CSV_COLUMNS, type Ledger } from '../../../lib/ledger';
import { CSV_OPTIONS } from '../../../lib/csv';
import { policyIdInScope } from './policies';

/*
 * The money ledger of a policy (issue 31; lib/ledger.ts shapes it): its installments, their charges
 * (boletos and 2ª vias), every receipt the banks confirmed for them, the refunds its cancellations and
 * its receipts' credits owe (decision 074) and what happened to each (refund_events, migration 041). Five small reads by the policy's id,
 * each through an index on policy_id (or on the installment): the cost of a policy, not of the book.
 * The caller found the policy through the scoping function (findPolicy, policyIdInScope).
 */

/** The ledger of a policy the caller already found in the viewer's scope. */
export async function ledgerOfPolicy(db: DB, policyId: number, today: string): Promise<Ledger> {
  const [installments, charges, receipts, refunds, events, cancellation] = await Promise.all([
    db
      .selectFrom('installments')
      .select(['id', 'numero', 'vencimento', 'valor', 'status'])
      .where('policy_id', '=', policyId)
      .orderBy('numero')
      .execute(),
    db
      .selectFrom('charges as c')
      .innerJoin('installments as i', 'i.id', 'c.installment_id')
      .select(['c.id', 'c.installment_id', 'c.vencimento', 'c.multa', 'c.juros', 'c.created_at'])
      .where('i.policy_id', '=', policyId)
      .orderBy('c.id')
      .execute(),
    db
      .selectFrom('receipts as r')
      .innerJoin('installments as i', 'i.id', 'r.installment_id')
      .select([
        'r.id',
        'r.installment_id',
        'r.valor',
        'r.devido',
        'r.aplicado',
        'r.credito',
        'r.situacao',
        'r.meio',
        'r.recebido_em',
        'r.refund_id',
      ])
      .where('i.policy_id', '=', policyId)
      .orderBy('r.id')
      .execute(),
    db
      .selectFrom('refunds as r')
      .leftJoin('endorsements as e', 'e.id', 'r.endorsement_id')
      .select(['r.id', 'r.receipt_id', 'r.valor', 'r.prevista_para', 'r.created_at', 'e.nr_endosso', 'e.tipo'])
      .where('r.policy_id', '=', policyId)
      .orderBy('r.id')
      .execute(),
    db
      .selectFrom('refund_events')
      .select(['id', 'refund_id', 'acao', 'valor', 'detalhe', 'created_at'])
      .where('policy_id', '=', policyId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('endorsements')
      .select('created_at')
      .where('policy_id', '=', policyId)
      .where('tipo', '=', 'CANCELAMENTO')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return buildLedger({
    installments,
    charges: charges.map((c) => ({
      id: c.id,
      installmentId: c.installment_id,
      vencimento: c.vencimento,
      multa: c.multa,
      juros: c.juros,
      criadaEm: c.created_at,
    })),
    receipts: receipts.map((r) => ({
      id: r.id,
      installmentId: r.installment_id,
      valor: r.valor,
      devido: r.devido,
      aplicado: r.aplicado,
      credito: r.credito,
      situacao: r.situacao,
      meio: r.meio,
      recebidoEm: r.recebido_em,
      refundId: r.refund_id,
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      nrEndosso: r.nr_endosso,
      receiptId: r.receipt_id,
      parcial: r.tipo === 'CANCELAMENTO_PARCIAL',
      valor: r.valor,
      previstaPara: r.prevista_para,
      criadaEm: r.created_at,
    })),
    refundEvents: events.map((e) => ({
      id: e.id,
      refundId: e.refund_id,
      acao: e.acao,
      valor: e.valor,
      detalhe: e.detalhe,
      em: e.created_at,
    })),
    cancelledAt: cancellation?.created_at ?? null,
    today,
  });
}

/** The ledger as CSV (lib/csv.ts options: ';', BOM, formulas escaped) of a policy of the scope; undefined outside it (a 404). */
export async function ledgerCsv(
  db: DB,
  scope: Scope,
  generation: Generation,
  nrApolice: string,
  today: string,
): Promise<string | undefined> {
  if (!/^\d{1,20}$/.test(nrApolice)) return undefined;
  const policyId = await policyIdInScope(db, scope, generation, nrApolice);
  if (policyId === undefined) return undefined;
  const ledger = await ledgerOfPolicy(db, policyId, today);
  return stringify([[...LEDGER_CSV_COLUMNS], ...ledger.lines.map(ledgerCsvRecord)], CSV_OPTIONS);
}
