import { type Kysely, sql } from 'kysely';

/**
 * Issue 29: a payment carries whose sale it paid — the policy's company and seller — so the pages that
 * read payments of a beneficiary or of a period reach them through an index on the payments themselves.
 *
 * Before, the commission statement found a company's payments of a month through its policies → their
 * installments → the payments, and the planner, seeing thousands of policies behind a company at
 * 1000×, read all of `installments` (a parallel sequential scan of 213k rows) to keep 124 lines. With
 * (company_id, pago_em, id) a month's lines are the index's range in the page's own order, their
 * count an index-only range, and the beneficiary's monthly sums read that company's payments alone.
 * A person who sold without a company is found by (user_id, pago_em, id) where company_id is null —
 * the same condition the statement names.
 *
 * The database keeps the two columns, whoever writes (the services, the demo seed, the scale
 * generator's bulk copies, an operator's SQL): a row trigger fills them from the installment's policy
 * on insert (and if a payment is moved to another installment), and a policy given to another company
 * or seller moves its payments with it. An installment never moves to another policy (nothing writes
 * installments.policy_id after the sale).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments add column company_id integer, add column user_id integer,
    add column generation text, add column simulator_code text`.execute(db);
  await sql`update payments pg set company_id = a.company_id, user_id = a.user_id, generation = a.generation,
      simulator_code = a.simulator_code
    from installments i join policies a on a.id = i.policy_id
    where i.id = pg.installment_id`.execute(db);

  await sql`create function payments_beneficiary_trigger() returns trigger language plpgsql as $$
    begin
      select a.company_id, a.user_id, a.generation, a.simulator_code
        into new.company_id, new.user_id, new.generation, new.simulator_code
        from installments i join policies a on a.id = i.policy_id
        where i.id = new.installment_id;
      return new;
    end $$`.execute(db);
  await sql`create trigger payments_beneficiary before insert or update of installment_id on payments
    for each row execute function payments_beneficiary_trigger()`.execute(db);

  await sql`create function policies_payments_beneficiary_trigger() returns trigger language plpgsql as $$
    begin
      update payments pg set company_id = new.company_id, user_id = new.user_id, generation = new.generation,
          simulator_code = new.simulator_code
        from installments i
        where i.policy_id = new.id and pg.installment_id = i.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger policies_payments_beneficiary after update of company_id, user_id, generation, simulator_code on policies
    for each row when (old.company_id is distinct from new.company_id or old.user_id is distinct from new.user_id
      or old.generation is distinct from new.generation or old.simulator_code is distinct from new.simulator_code)
    execute function policies_payments_beneficiary_trigger()`.execute(db);

  await sql`create index payments_company_paid on payments (company_id, pago_em, id)`.execute(db);
  await sql`create index payments_own_paid on payments (user_id, pago_em, id) where company_id is null`.execute(db);
  // The payments report: a period's payments of a generation in (pago_em, id) order, carrying what its
  // totals per product and its scope's condition read — the totals are an index-only range.
  await sql`create index payments_generation_paid on payments (generation, pago_em, id)
    include (simulator_code, valor, company_id, user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists policies_payments_beneficiary on policies`.execute(db);
  await sql`drop function if exists policies_payments_beneficiary_trigger()`.execute(db);
  await sql`drop trigger if exists payments_beneficiary on payments`.execute(db);
  await sql`drop function if exists payments_beneficiary_trigger()`.execute(db);
  await sql`drop index if exists payments_generation_paid`.execute(db);
  await sql`drop index if exists payments_own_paid`.execute(db);
  await sql`drop index if exists payments_company_paid`.execute(db);
  await sql`alter table payments drop column if exists user_id, drop column if exists company_id,
    drop column if exists generation, drop column if exists simulator_code`.execute(db);
}
