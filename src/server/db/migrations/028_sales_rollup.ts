import { type Kysely, sql } from 'kysely';

/**
 * Issue 29: the sales metrics read a rollup instead of aggregating all history per request.
 *
 * sales_monthly holds, per Brasília month, company, point of sale, seller and product, additive counters:
 * - by the policy's emission month (and the policy's own company/point/seller/product): `policies`,
 *   `premium` (sum of premio_total, cents) and `cancelled` (status CANCELADA);
 * - by the quote's creation month (the funnel's cohort, the quote's own company/point/seller/product):
 *   `quotes`, `proposals` (of those quotes), `converted` (their policies) and `paid` (their policies
 *   whose installment number 1 is PAGA).
 *
 * The database keeps it, in the transaction of every write, whoever writes (the services, the demo
 * seed, an operator's SQL): row triggers on quotes, proposals, policies and installments add a row's
 * own contribution on insert, take it away on delete, and on an update take away the old and add the
 * new. A child's contribution is filed under its parent's key as the parent is now (a proposal under
 * its quote's month and seller, an installment under its policy's quote); so moving a quote (or a
 * policy to another quote) moves what hangs from it too. rebuild_sales_monthly() recomputes the whole
 * table from the sales (the backfill below; a TRUNCATE of a sales table; an operator's repair), and
 * add_sales_monthly(lo, hi) adds the sales of the quotes lo..hi written with the triggers off (the
 * scale generator's bulk copies, which turn the row triggers off for their transaction with
 * `set local portal.sales_monthly_off = 'on'` — a setting, not ALTER TABLE … DISABLE TRIGGER: no catalog
 * change, nothing left off if the process dies, and PGlite's catalog broke under the repeated DDL).
 *
 * Null company/point of sale: the unique key is on coalesce(…, 0) expressions (no NULLS NOT
 * DISTINCT, which PostgreSQL 15 would take but the portal's one dialect should not lean on), and
 * every upsert names the same expressions in its ON CONFLICT.
 */

/** Brasília's month of a timestamptz, as its first day: every reader asks for months (a year's series, a month's ranking). */
const month = (column: string) => `date_trunc('month', ${column} at time zone 'America/Sao_Paulo')::date`;
const KEY = `(mes, (coalesce(company_id, 0)), (coalesce(point_of_sale_id, 0)), user_id, simulator_code)`;
/** The rollup's row triggers fire unless a transaction turned them off (the scale generator's bulk copies). */
const ROLLUP_ON = `current_setting('portal.sales_monthly_off', true) is distinct from 'on'`;
const COUNTERS = ['policies', 'premium', 'cancelled', 'quotes', 'proposals', 'converted', 'paid'];
const UPSERT_SET = COUNTERS.map((c) => `${c} = sales_monthly.${c} + excluded.${c}`).join(', ');

/** A policy whose first installment is paid (the funnel's last stage). */
const FIRST_PAID = `exists (select 1 from installments i where i.policy_id = a.id and i.numero = 1 and i.status = 'PAGA')`;

/**
 * The same as a scalar lookup of the policy's first installment (installments_policy_number, one row
 * at most): an EXISTS in a WHERE may become a hash semi-join that scans all installments once per
 * quote when the planner has no statistics (PGlite has no autovacuum: a grown table is never analyzed
 * until the scale generator's last step).
 */
const FIRST_PAID_LOOKUP = `(select i.status from installments i where i.policy_id = a.id and i.numero = 1) = 'PAGA'`;

/**
 * The contribution of every sale (or of the quotes between lo and hi and what hangs from them),
 * grouped by the rollup's key: the insert the rebuild and the bulk add share. The whole table joins
 * the per-quote counts by hash; a range reads them per quote through the indexes, a plan that does
 * not depend on statistics (the scale generator calls it on tables that grew since the last ANALYZE:
 * with a join, an estimate of 4 paid installments made a nested loop of 175 million rows).
 */
const contributionInsert = (range: boolean) => {
  const funnel = range
    ? `(select count(*) from proposals p where p.quote_id = q.id)::int,
        (select count(*) from policies a where a.quote_id = q.id)::int,
        (select count(*) from policies a where a.quote_id = q.id and ${FIRST_PAID_LOOKUP})::int
      from quotes q
      where q.id between lo and hi`
    : `coalesce(p.n, 0), coalesce(a.n, 0), coalesce(a.paid, 0)
      from quotes q
      left join (select quote_id, count(*)::int as n from proposals group by quote_id) p on p.quote_id = q.id
      left join (
        select a.quote_id, count(*)::int as n, (count(*) filter (where ${FIRST_PAID}))::int as paid
        from policies a group by a.quote_id
      ) a on a.quote_id = q.id`;
  return `insert into sales_monthly (mes, company_id, point_of_sale_id, user_id, simulator_code, ${COUNTERS.join(', ')})
    select mes, company_id, point_of_sale_id, user_id, simulator_code,
      sum(policies), sum(premium), sum(cancelled), sum(quotes), sum(proposals), sum(converted), sum(paid)
    from (
      select ${month('a.emitida_em')} as mes, a.company_id, a.point_of_sale_id, a.user_id, a.simulator_code,
        1 as policies, a.premio_total::bigint as premium, (a.status = 'CANCELADA')::int as cancelled,
        0 as quotes, 0 as proposals, 0 as converted, 0 as paid
      from policies a ${range ? 'where a.quote_id between lo and hi' : ''}
      union all
      select ${month('q.created_at')}, q.company_id, q.point_of_sale_id, q.user_id, q.simulator_code,
        0, 0, 0, 1, ${funnel}
    ) x
    group by mes, company_id, point_of_sale_id, user_id, simulator_code
    on conflict ${KEY} do update set ${UPSERT_SET}`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table sales_monthly (
      mes date not null,
      company_id integer,
      point_of_sale_id integer,
      user_id integer not null,
      simulator_code text not null,
      policies integer not null default 0,
      premium bigint not null default 0,
      cancelled integer not null default 0,
      quotes integer not null default 0,
      proposals integer not null default 0,
      converted integer not null default 0,
      paid integer not null default 0
    )`.execute(db);
  // The key (also the window scans by month of a viewer who sees every sale) and the scopes' branches:
  // a company's sales, a seller's own.
  await sql.raw(`create unique index sales_monthly_key on sales_monthly ${KEY}`).execute(db);
  await sql`create index sales_monthly_company on sales_monthly (company_id, mes)`.execute(db);
  await sql`create index sales_monthly_user on sales_monthly (user_id, mes)`.execute(db);
  // A quote moved to another month, seller or product moves its policies' funnel stage: found by quote.
  await sql`create index if not exists policies_quote on policies (quote_id)`.execute(db);

  await sql
    .raw(`create function sales_monthly_add(p_mes date, p_company integer, p_point integer, p_user integer, p_code text,
      d_policies integer, d_premium bigint, d_cancelled integer,
      d_quotes integer, d_proposals integer, d_converted integer, d_paid integer) returns void
    language plpgsql as $$
    begin
      if d_policies = 0 and d_premium = 0 and d_cancelled = 0 and d_quotes = 0 and d_proposals = 0
        and d_converted = 0 and d_paid = 0 then
        return;
      end if;
      insert into sales_monthly (mes, company_id, point_of_sale_id, user_id, simulator_code, ${COUNTERS.join(', ')})
      values (p_mes, p_company, p_point, p_user, p_code,
        d_policies, d_premium, d_cancelled, d_quotes, d_proposals, d_converted, d_paid)
      on conflict ${KEY} do update set ${UPSERT_SET};
    end $$`)
    .execute(db);

  // A quote's funnel counters (sign ±1) under its key: the quote itself only (on insert and delete its
  // proposals and policies are not there, or are counted by their own triggers), or with all that
  // hangs from it (a move to another key).
  await sql
    .raw(`create function sales_monthly_quote(q quotes, sign integer, whole boolean) returns void
    language plpgsql as $$
    declare
      n_proposals integer := 0;
      n_converted integer := 0;
      n_paid integer := 0;
    begin
      if whole then
        select count(*) into n_proposals from proposals where quote_id = q.id;
        select count(*), count(*) filter (where ${FIRST_PAID_LOOKUP}) into n_converted, n_paid
          from policies a
          where a.quote_id = q.id;
      end if;
      perform sales_monthly_add(${month('q.created_at')}, q.company_id, q.point_of_sale_id, q.user_id, q.simulator_code,
        0, 0, 0, sign, sign * n_proposals, sign * n_converted, sign * n_paid);
    end $$`)
    .execute(db);

  // Counters of the funnel filed under a quote's key, by the quote's id (nothing if it is gone).
  await sql
    .raw(`create function sales_monthly_of_quote(p_quote integer, d_proposals integer, d_converted integer, d_paid integer)
      returns void language plpgsql as $$
    declare
      q quotes;
    begin
      select * into q from quotes where id = p_quote;
      if found then
        perform sales_monthly_add(${month('q.created_at')}, q.company_id, q.point_of_sale_id, q.user_id, q.simulator_code,
          0, 0, 0, 0, d_proposals, d_converted, d_paid);
      end if;
    end $$`)
    .execute(db);

  // A policy's own counters (by emission) and its stage in its quote's funnel (with its paid first
  // installment when `whole`: a move to another quote).
  await sql
    .raw(`create function sales_monthly_policy(a policies, sign integer, emission boolean, funnel boolean, whole boolean)
      returns void language plpgsql as $$
    declare
      n_paid integer := 0;
    begin
      if emission then
        perform sales_monthly_add(${month('a.emitida_em')}, a.company_id, a.point_of_sale_id, a.user_id, a.simulator_code,
          sign, sign * a.premio_total::bigint, sign * (a.status = 'CANCELADA')::int, 0, 0, 0, 0);
      end if;
      if funnel then
        if whole then
          select count(*) into n_paid from installments i where i.policy_id = a.id and i.numero = 1 and i.status = 'PAGA';
        end if;
        perform sales_monthly_of_quote(a.quote_id, 0, sign, sign * n_paid);
      end if;
    end $$`)
    .execute(db);

  await sql
    .raw(`create function sales_monthly_quotes_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform sales_monthly_quote(new, 1, false);
      elsif tg_op = 'DELETE' then
        perform sales_monthly_quote(old, -1, false);
      elsif (${month('old.created_at')}, old.company_id, old.point_of_sale_id, old.user_id, old.simulator_code)
          is distinct from (${month('new.created_at')}, new.company_id, new.point_of_sale_id, new.user_id, new.simulator_code) then
        perform sales_monthly_quote(old, -1, true);
        perform sales_monthly_quote(new, 1, true);
      end if;
      return null;
    end $$`)
    .execute(db);

  await sql
    .raw(`create function sales_monthly_proposals_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform sales_monthly_of_quote(old.quote_id, -1, 0, 0);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform sales_monthly_of_quote(new.quote_id, 1, 0, 0);
      end if;
      return null;
    end $$`)
    .execute(db);

  await sql
    .raw(`create function sales_monthly_policies_trigger() returns trigger language plpgsql as $$
    declare
      emission boolean;
      funnel boolean;
    begin
      if tg_op = 'INSERT' then
        perform sales_monthly_policy(new, 1, true, true, false);
      elsif tg_op = 'DELETE' then
        perform sales_monthly_policy(old, -1, true, true, false);
      else
        emission := (${month('old.emitida_em')}, old.company_id, old.point_of_sale_id, old.user_id, old.simulator_code,
            old.premio_total, old.status = 'CANCELADA')
          is distinct from (${month('new.emitida_em')}, new.company_id, new.point_of_sale_id, new.user_id, new.simulator_code,
            new.premio_total, new.status = 'CANCELADA');
        funnel := old.quote_id is distinct from new.quote_id;
        if emission or funnel then
          perform sales_monthly_policy(old, -1, emission, funnel, true);
          perform sales_monthly_policy(new, 1, emission, funnel, true);
        end if;
      end if;
      return null;
    end $$`)
    .execute(db);

  // An installment counts only as its policy's first one paid, in the funnel of the policy's quote.
  await sql
    .raw(`create function sales_monthly_installments_trigger() returns trigger language plpgsql as $$
    declare
      was boolean := tg_op in ('DELETE', 'UPDATE') and old.numero = 1 and old.status = 'PAGA';
      is_now boolean := tg_op in ('INSERT', 'UPDATE') and new.numero = 1 and new.status = 'PAGA';
      q_id integer;
    begin
      if was and is_now and old.policy_id = new.policy_id then
        return null;
      end if;
      if was then
        select a.quote_id into q_id from policies a where a.id = old.policy_id;
        if found then
          perform sales_monthly_of_quote(q_id, 0, 0, -1);
        end if;
      end if;
      if is_now then
        select a.quote_id into q_id from policies a where a.id = new.policy_id;
        if found then
          perform sales_monthly_of_quote(q_id, 0, 0, 1);
        end if;
      end if;
      return null;
    end $$`)
    .execute(db);

  await sql
    .raw(`create function rebuild_sales_monthly() returns void language plpgsql as $$
    begin
      truncate sales_monthly;
      ${contributionInsert(false)};
    end $$`)
    .execute(db);
  await sql
    .raw(`create function add_sales_monthly(lo integer, hi integer) returns void language plpgsql as $$
    begin
      ${contributionInsert(true)};
    end $$`)
    .execute(db);
  await sql`create function sales_monthly_truncate_trigger() returns trigger language plpgsql as $$
    begin
      perform rebuild_sales_monthly();
      return null;
    end $$`.execute(db);

  // Row triggers only on the columns that count (a quote saved at each step of the wizard fires none),
  // and not while a bulk copy has turned the rollup off for its transaction.
  const triggers: [string, string][] = [
    ['quotes', 'created_at, company_id, point_of_sale_id, user_id, simulator_code'],
    ['proposals', 'quote_id'],
    ['policies', 'emitida_em, company_id, point_of_sale_id, user_id, simulator_code, premio_total, status, quote_id'],
    ['installments', 'policy_id, numero, status'],
  ];
  for (const [table, columns] of triggers) {
    await sql
      .raw(`create trigger sales_monthly_${table} after insert or delete or update of ${columns} on ${table}
        for each row when (${ROLLUP_ON}) execute function sales_monthly_${table}_trigger()`)
      .execute(db);
    await sql
      .raw(`create trigger sales_monthly_${table}_truncate after truncate on ${table}
        for each statement execute function sales_monthly_truncate_trigger()`)
      .execute(db);
  }

  await sql`select rebuild_sales_monthly()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['quotes', 'proposals', 'policies', 'installments']) {
    await sql.raw(`drop trigger if exists sales_monthly_${table} on ${table}`).execute(db);
    await sql.raw(`drop trigger if exists sales_monthly_${table}_truncate on ${table}`).execute(db);
    await sql.raw(`drop function if exists sales_monthly_${table}_trigger()`).execute(db);
  }
  await sql`drop function if exists sales_monthly_truncate_trigger()`.execute(db);
  await sql`drop function if exists add_sales_monthly(integer, integer)`.execute(db);
  await sql`drop function if exists rebuild_sales_monthly()`.execute(db);
  await sql`drop function if exists sales_monthly_policy(policies, integer, boolean, boolean, boolean)`.execute(db);
  await sql`drop function if exists sales_monthly_of_quote(integer, integer, integer, integer)`.execute(db);
  await sql`drop function if exists sales_monthly_quote(quotes, integer, boolean)`.execute(db);
  await sql`drop function if exists sales_monthly_add(date, integer, integer, integer, text, integer, bigint, integer, integer, integer, integer, integer)`.execute(
    db,
  );
  await sql`drop index if exists policies_quote`.execute(db);
  await sql`drop table if exists sales_monthly`.execute(db);
}
