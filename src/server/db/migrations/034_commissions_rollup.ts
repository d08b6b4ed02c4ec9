import { type Kysely, sql } from 'kysely';

/**
 * Issue 29: the commission statement's monthly sums read a rollup instead of every payment of the
 * beneficiary's history with its policy and quote, per request.
 *
 * - `payments.comissao`: the commission owed on the paid installment, in cents — lib/commissions.ts
 *   installmentNetPremium and commissionOf, the expression services/earnings/commissions.ts evaluated
 *   per request until now (COMMISSION below): the installment's share of the net premium at the sale
 *   (the quote's priced netPremium, else the policy's) over the total at the sale (the policy's first
 *   endorsement's premio_anterior, else its premio_total), × the quote's rate, half a cent up.
 * - `commissions_monthly`: per beneficiary — a company, or a seller who sold for none (company_id null,
 *   user_id theirs; a company's row has no user) — and Brasília month, the count and sum of the
 *   commissions of the payments made in it (`payments`, `commissions`) and of the clawbacks of the
 *   cancellations confirmed in it (`refunds`, `clawbacks`: refunds.estorno_comissao > 0 by its
 *   endorsement's created_at, filed under the refunded policy's company or seller). The counts say
 *   whether a month had any movement (a month of payments at a 0 % rate is still a month of the
 *   statement), as a GROUP BY over the rows did.
 *
 * The database keeps both, in the transaction of every write, whoever writes (the services, the demo
 * seed, an operator's SQL): a payment's commission is computed by a BEFORE trigger when it is inserted
 * (or moved to another installment, or its commission written by hand), and recomputed — an UPDATE of
 * the policy's payments — when anything it derives from changes after the sale: the quote's rate or
 * priced net premium, the policy's quote or premiums, the installment's amount, an endorsement added,
 * removed or changed (the first one's premio_anterior is the total at the sale). A row trigger on
 * payments files each payment's commission under its beneficiary and month and moves it when its
 * commission, month or beneficiary changes (migration 033 moves a policy's payments to its new company
 * or seller; that UPDATE moves their commissions here too); triggers on refunds, on an endorsement's
 * date and on a policy's company or seller keep the clawbacks. rebuild_commissions_monthly() recomputes
 * the payments' commissions that differ and the whole rollup (the backfill; a TRUNCATE; a repair).
 *
 * Bulk copies (the scale generator) turn the triggers off for their transaction with
 * `set local portal.commissions_monthly_off = 'on'` (as migration 028's `portal.sales_monthly_off`):
 * they write each payment's comissao themselves (a copy's is its original's: the same installment,
 * premiums, endorsements and quote) and add the batch at once with add_commissions_monthly(payments
 * lo..hi, refunds lo..hi).
 */

/** Brasília's month of a timestamptz, as its first day (the statement's competência). */
const month = (column: string) => `date_trunc('month', ${column} at time zone 'America/Sao_Paulo')::date`;
const KEY = `((coalesce(company_id, 0)), (coalesce(user_id, 0)), mes)`;
const ROLLUP_ON = `current_setting('portal.commissions_monthly_off', true) is distinct from 'on'`;
const COUNTERS = ['payments', 'commissions', 'refunds', 'clawbacks'];
const UPSERT_SET = COUNTERS.map((c) => `${c} = commissions_monthly.${c} + excluded.${c}`).join(', ');
/** A seller is the beneficiary only of a sale made for no company. */
const sellerOf = (company: string, user: string) => `case when ${company} is null then ${user} end`;

/**
 * The net premium of installment `i` of policy `a` sold by quote `q` — its share of the net premium at
 * the sale (the quote's priced one, else the policy's) over the total at the sale (before the first
 * endorsement) — and its commission at the quote's rate: lib/commissions.ts installmentNetPremium and
 * commissionOf (round() on numeric is half away from zero, as lib's roundHalfUp on positive cents).
 * Written once here; the statement's lines read the net premium through installment_net_premium().
 */
const NET_PREMIUM = `coalesce(round(i.valor::numeric * coalesce((q.precificacao->>'netPremium')::numeric, a.premio_liquido)
    / nullif(coalesce((select e0.premio_anterior from endorsements e0 where e0.policy_id = a.id order by e0.id limit 1), a.premio_total), 0)), 0)`;
const COMMISSION = `round(${NET_PREMIUM} * q.comissao_centesimos / 10000.0)::integer`;
const SALE_OF_INSTALLMENT = 'installments i join policies a on a.id = i.policy_id join quotes q on q.id = a.quote_id';

/**
 * Every payment's and clawback's contribution grouped by the rollup's key (the rebuild), or those of
 * the payments and refunds in two id ranges (the bulk add). A range reads each refund's policy and
 * endorsement by primary key: a plan that does not depend on statistics (the scale generator calls it
 * on tables that grew since the last ANALYZE).
 */
const contributionInsert = (range: boolean) => {
  const refund = range
    ? `select (select a.company_id from policies a where a.id = r.policy_id) as company_id,
        (select a.user_id from policies a where a.id = r.policy_id) as user_id,
        (select ${month('e.created_at')} from endorsements e where e.id = r.endorsement_id) as mes,
        0, 0::bigint, 1, r.estorno_comissao::bigint
      from refunds r where r.estorno_comissao > 0 and r.id between refunds_lo and refunds_hi`
    : `select a.company_id, a.user_id, ${month('e.created_at')}, 0, 0::bigint, 1, r.estorno_comissao::bigint
      from refunds r join endorsements e on e.id = r.endorsement_id join policies a on a.id = r.policy_id
      where r.estorno_comissao > 0`;
  return `insert into commissions_monthly (company_id, user_id, mes, ${COUNTERS.join(', ')})
    select company_id, ${sellerOf('company_id', 'user_id')}, mes, sum(payments), sum(commissions), sum(refunds), sum(clawbacks)
    from (
      select pg.company_id, pg.user_id, ${month('pg.pago_em')} as mes, 1 as payments, pg.comissao::bigint as commissions,
        0 as refunds, 0::bigint as clawbacks
      from payments pg ${range ? 'where pg.id between payments_lo and payments_hi' : ''}
      union all
      ${refund}
    ) x
    group by 1, 2, 3
    on conflict ${KEY} do update set ${UPSERT_SET}`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments add column comissao integer`.execute(db);
  await sql.raw(`update payments pg set comissao = ${COMMISSION} from ${SALE_OF_INSTALLMENT} where i.id = pg.installment_id`).execute(db);
  await sql`alter table payments alter column comissao set not null`.execute(db);

  await sql`create table commissions_monthly (
      company_id integer,
      user_id integer,
      mes date not null,
      payments integer not null default 0,
      commissions bigint not null default 0,
      refunds integer not null default 0,
      clawbacks bigint not null default 0,
      check ((company_id is null) <> (user_id is null))
    )`.execute(db);
  await sql.raw(`create unique index commissions_monthly_key on commissions_monthly ${KEY}`).execute(db);
  // A company's months (the statement, the nota, its informe); a person's own.
  await sql`create index commissions_monthly_company on commissions_monthly (company_id, mes)`.execute(db);
  await sql`create index commissions_monthly_own on commissions_monthly (user_id, mes) where company_id is null`.execute(db);

  await sql
    .raw(`create function installment_net_premium(p_installment integer) returns integer language sql stable as $$
      select (${NET_PREMIUM})::integer from ${SALE_OF_INSTALLMENT} where i.id = p_installment
    $$`)
    .execute(db);
  await sql
    .raw(`create function payment_commission(p_installment integer) returns integer language sql stable as $$
      select ${COMMISSION} from ${SALE_OF_INSTALLMENT} where i.id = p_installment
    $$`)
    .execute(db);

  await sql
    .raw(`create function commissions_monthly_add(p_company integer, p_user integer, p_mes date,
        d_payments integer, d_commissions bigint, d_refunds integer, d_clawbacks bigint) returns void
      language plpgsql as $$
    begin
      if d_payments = 0 and d_commissions = 0 and d_refunds = 0 and d_clawbacks = 0 then
        return;
      end if;
      insert into commissions_monthly (company_id, user_id, mes, ${COUNTERS.join(', ')})
      values (p_company, ${sellerOf('p_company', 'p_user')}, p_mes, d_payments, d_commissions, d_refunds, d_clawbacks)
      on conflict ${KEY} do update set ${UPSERT_SET};
    end $$`)
    .execute(db);

  // The policy's payments whose commission is not what their sale now gives: recomputed (the UPDATE
  // fires the payments' triggers, which move the rollup).
  await sql`create function commissions_refresh_policy(p_policy integer) returns void language plpgsql as $$
    begin
      update payments pg set comissao = payment_commission(pg.installment_id)
        from installments i
        where i.policy_id = p_policy and pg.installment_id = i.id
          and pg.comissao is distinct from payment_commission(pg.installment_id);
    end $$`.execute(db);

  // A refund's clawback (sign ±1) under its policy's beneficiary and its endorsement's month, as they are now.
  await sql
    .raw(`create function commissions_monthly_refund(r refunds, sign integer) returns void language plpgsql as $$
    declare
      a_company integer;
      a_user integer;
      e_mes date;
    begin
      if r.estorno_comissao <= 0 then
        return;
      end if;
      select company_id, user_id into a_company, a_user from policies where id = r.policy_id;
      select ${month('created_at')} into e_mes from endorsements where id = r.endorsement_id;
      perform commissions_monthly_add(a_company, a_user, e_mes, 0, 0, sign, sign * r.estorno_comissao::bigint);
    end $$`)
    .execute(db);

  await sql`create function payments_commission_trigger() returns trigger language plpgsql as $$
    begin
      new.comissao := payment_commission(new.installment_id);
      return new;
    end $$`.execute(db);

  await sql
    .raw(`create function commissions_monthly_payments_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (old.company_id, ${sellerOf('old.company_id', 'old.user_id')}, ${month('old.pago_em')}, old.comissao)
          is not distinct from (new.company_id, ${sellerOf('new.company_id', 'new.user_id')}, ${month('new.pago_em')}, new.comissao) then
        return null;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        perform commissions_monthly_add(old.company_id, old.user_id, ${month('old.pago_em')}, -1, -old.comissao::bigint, 0, 0);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform commissions_monthly_add(new.company_id, new.user_id, ${month('new.pago_em')}, 1, new.comissao::bigint, 0, 0);
      end if;
      return null;
    end $$`)
    .execute(db);

  await sql`create function commissions_monthly_refunds_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform commissions_monthly_refund(old, -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform commissions_monthly_refund(new, 1);
      end if;
      return null;
    end $$`.execute(db);

  // An endorsement added, removed or changed may change its policy's total at the sale; one confirmed
  // on another day moves its refund's clawback to that month.
  await sql
    .raw(`create function commissions_monthly_endorsements_trigger() returns trigger language plpgsql as $$
    declare
      r refunds;
      a policies;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform commissions_refresh_policy(old.policy_id);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and old.policy_id is distinct from new.policy_id) then
        perform commissions_refresh_policy(new.policy_id);
      end if;
      if tg_op = 'UPDATE' and ${month('old.created_at')} is distinct from ${month('new.created_at')} then
        select * into r from refunds where endorsement_id = new.id and estorno_comissao > 0;
        if found then
          select * into a from policies where id = r.policy_id;
          perform commissions_monthly_add(a.company_id, a.user_id, ${month('old.created_at')}, 0, 0, -1, -r.estorno_comissao::bigint);
          perform commissions_monthly_add(a.company_id, a.user_id, ${month('new.created_at')}, 0, 0, 1, r.estorno_comissao::bigint);
        end if;
      end if;
      return null;
    end $$`)
    .execute(db);

  // A policy given another quote or premiums recomputes its payments' commissions; one given another
  // company or seller takes its clawbacks along (its payments move by migration 033's trigger).
  await sql
    .raw(`create function commissions_monthly_policies_trigger() returns trigger language plpgsql as $$
    declare
      x record;
    begin
      if (old.quote_id, old.premio_liquido, old.premio_total) is distinct from (new.quote_id, new.premio_liquido, new.premio_total) then
        perform commissions_refresh_policy(new.id);
      end if;
      if (old.company_id, ${sellerOf('old.company_id', 'old.user_id')}) is distinct from (new.company_id, ${sellerOf('new.company_id', 'new.user_id')}) then
        for x in
          select ${month('e.created_at')} as mes, count(*)::int as n, sum(r.estorno_comissao)::bigint as amount
          from refunds r join endorsements e on e.id = r.endorsement_id
          where r.policy_id = new.id and r.estorno_comissao > 0
          group by 1
        loop
          perform commissions_monthly_add(old.company_id, old.user_id, x.mes, 0, 0, -x.n, -x.amount);
          perform commissions_monthly_add(new.company_id, new.user_id, x.mes, 0, 0, x.n, x.amount);
        end loop;
      end if;
      return null;
    end $$`)
    .execute(db);

  // An installment given to another policy (nothing does it but an operator's fix) makes its payments
  // that sale's: naming installment_id again re-reads their beneficiary (migration 033) and commission,
  // and the payments' row trigger moves them here.
  await sql`create function commissions_monthly_installments_trigger() returns trigger language plpgsql as $$
    begin
      if old.policy_id is distinct from new.policy_id then
        update payments set installment_id = installment_id where installment_id = new.id;
      else
        perform commissions_refresh_policy(new.policy_id);
      end if;
      return null;
    end $$`.execute(db);

  await sql`create function commissions_monthly_quotes_trigger() returns trigger language plpgsql as $$
    begin
      perform commissions_refresh_policy(a.id) from policies a where a.quote_id = new.id;
      return null;
    end $$`.execute(db);

  await sql
    .raw(`create function rebuild_commissions_monthly() returns void language plpgsql as $$
    begin
      update payments pg set comissao = x.comissao
        from (select pg.id, ${COMMISSION} as comissao from payments pg join ${SALE_OF_INSTALLMENT} on i.id = pg.installment_id) x
        where x.id = pg.id and pg.comissao is distinct from x.comissao;
      truncate commissions_monthly;
      ${contributionInsert(false)};
    end $$`)
    .execute(db);
  await sql
    .raw(`create function add_commissions_monthly(payments_lo integer, payments_hi integer, refunds_lo integer, refunds_hi integer)
      returns void language plpgsql as $$
    begin
      ${contributionInsert(true)};
    end $$`)
    .execute(db);
  await sql`create function commissions_monthly_truncate_trigger() returns trigger language plpgsql as $$
    begin
      perform rebuild_commissions_monthly();
      return null;
    end $$`.execute(db);

  // Each trigger only on the columns that count (a quote saved at each step of the wizard fires none
  // unless its rate or priced net premium changed), and not while a bulk copy has turned them off.
  const on = `for each row when (${ROLLUP_ON})`;
  await sql
    .raw(`create trigger payments_commission before insert or update of installment_id, comissao on payments
      ${on} execute function payments_commission_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_payments after insert or delete or update of installment_id, pago_em, company_id, user_id, comissao
      on payments ${on} execute function commissions_monthly_payments_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_refunds after insert or delete or update of endorsement_id, policy_id, estorno_comissao
      on refunds ${on} execute function commissions_monthly_refunds_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_endorsements after insert or delete or update of policy_id, premio_anterior, created_at
      on endorsements ${on} execute function commissions_monthly_endorsements_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_policies after update of quote_id, premio_liquido, premio_total, company_id, user_id
      on policies ${on} execute function commissions_monthly_policies_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_installments after update of valor, policy_id on installments
      for each row when (${ROLLUP_ON} and (old.valor, old.policy_id) is distinct from (new.valor, new.policy_id))
      execute function commissions_monthly_installments_trigger()`)
    .execute(db);
  await sql
    .raw(`create trigger commissions_monthly_quotes after update of precificacao, comissao_centesimos on quotes
      for each row when (${ROLLUP_ON} and ((old.precificacao->>'netPremium'), old.comissao_centesimos)
        is distinct from ((new.precificacao->>'netPremium'), new.comissao_centesimos))
      execute function commissions_monthly_quotes_trigger()`)
    .execute(db);
  for (const table of ['payments', 'refunds'])
    await sql
      .raw(`create trigger commissions_monthly_${table}_truncate after truncate on ${table}
        for each statement execute function commissions_monthly_truncate_trigger()`)
      .execute(db);

  await sql`select rebuild_commissions_monthly()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, trigger] of [
    ['payments', 'payments_commission'],
    ['payments', 'commissions_monthly_payments'],
    ['payments', 'commissions_monthly_payments_truncate'],
    ['refunds', 'commissions_monthly_refunds'],
    ['refunds', 'commissions_monthly_refunds_truncate'],
    ['endorsements', 'commissions_monthly_endorsements'],
    ['policies', 'commissions_monthly_policies'],
    ['installments', 'commissions_monthly_installments'],
    ['quotes', 'commissions_monthly_quotes'],
  ])
    await sql.raw(`drop trigger if exists ${trigger} on ${table}`).execute(db);
  for (const fn of [
    'commissions_monthly_truncate_trigger()',
    'add_commissions_monthly(integer, integer, integer, integer)',
    'rebuild_commissions_monthly()',
    'commissions_monthly_quotes_trigger()',
    'commissions_monthly_installments_trigger()',
    'commissions_monthly_policies_trigger()',
    'commissions_monthly_endorsements_trigger()',
    'commissions_monthly_refunds_trigger()',
    'commissions_monthly_payments_trigger()',
    'payments_commission_trigger()',
    'commissions_monthly_refund(refunds, integer)',
    'commissions_refresh_policy(integer)',
    'commissions_monthly_add(integer, integer, date, integer, bigint, integer, bigint)',
    'payment_commission(integer)',
    'installment_net_premium(integer)',
  ])
    await sql.raw(`drop function if exists ${fn}`).execute(db);
  await sql`drop table if exists commissions_monthly`.execute(db);
  await sql`alter table payments drop column if exists comissao`.execute(db);
}
