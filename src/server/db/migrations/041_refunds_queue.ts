import { type Kysely, sql } from 'kysely';

/**
 * Issue 31 (slice E): refunds are paid, returned by the bank and put back to be paid from a queue of
 * the insurer's staff (/restituicoes, /v2/restituicoes), and every change is a row of refund_events —
 * the policy's ledger reads them.
 *
 *   status        'DEVIDA' (a pagar) and 'PAGA' keep their meaning; 'DEVOLVIDA' is a payment the
 *                 receiving bank sent back (wrong account, closed account…), owed again once its
 *                 destination is corrected (lib/refund-status.ts is the table of transitions).
 *   situacao_em   when the refund entered its current status (created_at for one owed since the
 *                 cancellation): the queue's order, one index per generation and status.
 *   generation    the policy's, kept by the database like payments' (migration 033): the queue of a
 *                 generation reads its own index range, whoever wrote the row (the cancellation, the
 *                 demo seed, the scale generator's bulk copy).
 *   paga_em, paga_por, comprovante      the last payment: when, by whom, the bank's receipt id.
 *   devolvida_em, devolvida_por, motivo_devolucao      the last return.
 *   tentativas    payments made so far (a returned one, paid again, counts twice).
 *
 * The commission clawback (estorno_comissao, migration 034's rollup) is untouched: an UPDATE of these
 * columns leaves the rollup's sums as they were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refunds drop constraint if exists refunds_status_check`.execute(db);
  await sql`alter table refunds
    add constraint refunds_status_check check (status in ('DEVIDA', 'PAGA', 'DEVOLVIDA')),
    add column generation text,
    add column situacao_em timestamptz,
    add column paga_em timestamptz,
    add column paga_por integer references users (id),
    add column comprovante text,
    add column devolvida_em timestamptz,
    add column devolvida_por integer references users (id),
    add column motivo_devolucao text,
    add column tentativas integer not null default 0`.execute(db);
  await sql`update refunds r set generation = a.generation, situacao_em = r.created_at
    from policies a where a.id = r.policy_id`.execute(db);
  // A refund marked paid before this migration (none in the portal's own code) counts one payment.
  await sql`update refunds set tentativas = 1, paga_em = created_at where status = 'PAGA'`.execute(db);

  await sql`create function refunds_generation_trigger() returns trigger language plpgsql as $$
    begin
      select a.generation into new.generation from policies a where a.id = new.policy_id;
      new.situacao_em := coalesce(new.situacao_em, new.created_at);
      return new;
    end $$`.execute(db);
  await sql`create trigger refunds_generation before insert on refunds
    for each row execute function refunds_generation_trigger()`.execute(db);
  // Only the trigger writes generation; a policy never changes generation after the sale.
  await sql`alter table refunds alter column generation set not null, alter column situacao_em set not null`.execute(db);

  // The queue: a generation's refunds of one status in (situacao_em, id) order — owed ones soonest
  // first, paid and returned ones newest first (the index serves both directions).
  await sql`create index refunds_queue on refunds (generation, status, situacao_em, id)`.execute(db);

  await sql`create table refund_events (
    id serial primary key,
    refund_id integer not null,
    policy_id integer not null references policies (id),
    acao text not null check (acao in ('PAGA', 'DEVOLVIDA', 'REABERTA')),
    valor integer not null,
    detalhe text,
    user_id integer not null references users (id),
    created_at timestamptz not null
  )`.execute(db);
  // refund_id names its refund without a foreign key: one would make a TRUNCATE of refunds (an operator's
  // fix the commissions rollup is tested against, migration 034) fail. Nothing deletes a refund that has events.
  await sql`create index refund_events_policy on refund_events (policy_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table refund_events`.execute(db);
  await sql`drop trigger refunds_generation on refunds`.execute(db);
  await sql`drop function refunds_generation_trigger()`.execute(db);
  await sql`drop index refunds_queue`.execute(db);
  await sql`alter table refunds drop constraint refunds_status_check`.execute(db);
  await sql`update refunds set status = 'DEVIDA' where status = 'DEVOLVIDA'`.execute(db);
  await sql`alter table refunds add constraint refunds_status_check check (status in ('DEVIDA', 'PAGA')),
    drop column generation, drop column situacao_em, drop column paga_em, drop column paga_por, drop column comprovante,
    drop column devolvida_em, drop column devolvida_por, drop column motivo_devolucao, drop column tentativas`.execute(db);
}
