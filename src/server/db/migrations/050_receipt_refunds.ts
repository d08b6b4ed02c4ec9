import { type Kysely, sql } from 'kysely';
import { REFUND_BUSINESS_DAYS } from '../../../lib/endorsements';

/**
 * Issue 42, item 6 (decision 074): money a bank confirmed above what was owed — a second payment, an
 * excess, a payment of a closed installment — is refunded through the same queue as a cancellation's
 * refund, and a receipt says which refund gave its money back.
 *
 *   refunds.receipt_id    the receipt whose money this refund gives back (its credit; for a partial
 *                         payment of an installment cancelled before this migration, what it applied).
 *                         Unique: one refund per receipt. A refund comes from an endorsement or from a
 *                         receipt, never both (refunds_origin).
 *   receipts.refund_id    the refund that gave this receipt's money back: its own (receipt_id), or the
 *                         cancellation's that took in a partial payment of an installment it cancelled.
 *                         No foreign key, as refund_events.refund_id (migration 041): a TRUNCATE of
 *                         refunds must not fail; nothing deletes a refund a receipt points at.
 *
 * The credits already recorded become refunds a pagar to the insured's own CPF/CNPJ Pix key (decision
 * 056: the one destination that needs nobody's word), due REFUND_BUSINESS_DAYS business days from the
 * migration's day in Brasília. A credit of an unidentified code (no installment) names no insured: it
 * stays on the receipts' list to be identified. The commission rollup ignores them (estorno_comissao 0).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refunds
    alter column endorsement_id drop not null,
    add column receipt_id integer unique references receipts (id),
    add constraint refunds_origin check ((endorsement_id is null) <> (receipt_id is null))`.execute(db);
  await sql`alter table receipts add column refund_id integer`.execute(db);
  await sql`create index receipts_refund on receipts (refund_id) where refund_id is not null`.execute(db);

  const today = sql`(now() at time zone 'America/Sao_Paulo')::date`;
  await sql`
    with owed as (
      select r.id, i.policy_id, a.documento_segurado as doc,
             r.credito + case when r.situacao = 'PARCIAL' and i.status = 'CANCELADA' then r.aplicado else 0 end as valor
        from receipts r
        join installments i on i.id = r.installment_id
        join policies a on a.id = i.policy_id
       where r.refund_id is null and (r.credito > 0 or (r.situacao = 'PARCIAL' and i.status = 'CANCELADA'))
    ), made as (
      insert into refunds (receipt_id, policy_id, valor, estorno_comissao, destino, prevista_para, created_at)
      select o.id, o.policy_id, o.valor, 0,
             jsonb_build_object('tipo', 'PIX', 'chave',
               jsonb_build_object('type', case when length(o.doc) = 11 then 'CPF' else 'CNPJ' end, 'key', o.doc)),
             (select d::date from generate_series(${today} + 1, ${today} + 30, interval '1 day') d
               where extract(isodow from d) < 6 order by d offset ${sql.lit(REFUND_BUSINESS_DAYS - 1)} limit 1),
             now()
        from owed o
       order by o.id
      returning id, receipt_id
    )
    update receipts r set refund_id = made.id from made where made.receipt_id = r.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from refund_events e using refunds r where r.id = e.refund_id and r.receipt_id is not null`.execute(db);
  await sql`delete from refunds where receipt_id is not null`.execute(db);
  await sql`drop index receipts_refund`.execute(db);
  await sql`alter table receipts drop column refund_id`.execute(db);
  await sql`alter table refunds drop constraint refunds_origin, drop column receipt_id, alter column endorsement_id set not null`.execute(
    db,
  );
}
