import { type Kysely, sql } from 'kysely';

/**
 * Issue 31: renewals (services/selling/renewals.ts, lib/renewals.ts).
 *
 * - `quotes.renova_policy_id`: the policy a quote renews (the "Renovar" button makes it). The policy
 *   issued from it carries `policies.renova_policy_id` (the one it renews; one renewal per policy, a
 *   unique index) and the renewed one `policies.renovada_por_id` (the one that renewed it): both links
 *   written by issuePolicy in the acceptance's transaction. The second is the first read backwards,
 *   kept on the row so the renewals list and the rollup below read one row, not a join per policy.
 * - The renewals list (policies in force ending within 60 days, soonest first, keyset-paged by
 *   (fim_vigencia, id)): one partial index per branch of the scope (a company's, a seller's own,
 *   everyone's) and per filter that narrows a page (point of sale, product) — each in the page's order.
 * - `renewals_monthly`: per month of the end of term (its first day), company, point of sale, seller and
 *   product — the keys sales_monthly has, so the metrics' filters and scope read it the same way — how
 *   many policies ended (`ending`: not cancelled) and how many of them were renewed (`renewed`). A row
 *   trigger on policies keeps it in the transaction of every write: a policy's contribution is its own
 *   row's (status, renovada_por_id), so an update takes away the old row's and adds the new one's.
 *   Bulk copies (scripts/scale.mjs) turn it off for their transaction with
 *   `set local portal.renewals_monthly_off = 'on'` (as migration 028) and add the batch with
 *   add_renewals_monthly(policies lo..hi); rebuild_renewals_monthly() recomputes it (the backfill, a
 *   TRUNCATE, a repair).
 */

const KEY = `(mes, (coalesce(company_id, 0)), (coalesce(point_of_sale_id, 0)), user_id, simulator_code)`;
const ROLLUP_ON = `current_setting('portal.renewals_monthly_off', true) is distinct from 'on'`;
const MONTH = (row: string) => `date_trunc('month', ${row}.fim_vigencia)::date`;
const ENDING = (row: string) => `(${row}.status <> 'CANCELADA')::int`;
const RENEWED = (row: string) => `(${row}.status <> 'CANCELADA' and ${row}.renovada_por_id is not null)::int`;

const LIST_INDEXES = {
  policies_renewals_company: '(company_id, generation, fim_vigencia, id)',
  policies_renewals_user: '(user_id, generation, fim_vigencia, id)',
  policies_renewals_all: '(generation, fim_vigencia, id)',
  policies_renewals_point: '(point_of_sale_id, generation, fim_vigencia, id)',
  policies_renewals_product: '(simulator_code, generation, fim_vigencia, id)',
};

const contributionInsert = (
  where: string,
) => `insert into renewals_monthly (mes, company_id, point_of_sale_id, user_id, simulator_code, ending, renewed)
    select ${MONTH('a')}, a.company_id, a.point_of_sale_id, a.user_id, a.simulator_code, sum(${ENDING('a')}), sum(${RENEWED('a')})
    from policies a ${where}
    group by 1, 2, 3, 4, 5
    on conflict ${KEY} do update set ending = renewals_monthly.ending + excluded.ending, renewed = renewals_monthly.renewed + excluded.renewed`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table quotes add column renova_policy_id integer references policies (id)`.execute(db);
  await sql`create index quotes_renewing on quotes (renova_policy_id) where renova_policy_id is not null`.execute(db);
  await sql`alter table policies add column renova_policy_id integer references policies (id)`.execute(db);
  await sql`alter table policies add column renovada_por_id integer references policies (id)`.execute(db);
  await sql`create unique index policies_renewing on policies (renova_policy_id) where renova_policy_id is not null`.execute(db);
  for (const [name, columns] of Object.entries(LIST_INDEXES))
    await sql`create index ${sql.id(name)} on policies ${sql.raw(columns)} where status = 'VIGENTE'`.execute(db);

  await sql`create table renewals_monthly (
      mes date not null,
      company_id integer,
      point_of_sale_id integer,
      user_id integer not null,
      simulator_code text not null,
      ending integer not null default 0,
      renewed integer not null default 0
    )`.execute(db);
  await sql.raw(`create unique index renewals_monthly_key on renewals_monthly ${KEY}`).execute(db);
  await sql`create index renewals_monthly_company on renewals_monthly (company_id, mes)`.execute(db);
  await sql`create index renewals_monthly_user on renewals_monthly (user_id, mes)`.execute(db);

  await sql
    .raw(`create function renewals_monthly_add(a policies, sign integer) returns void language plpgsql as $$
    begin
      if ${ENDING('a')} = 0 then
        return;
      end if;
      insert into renewals_monthly (mes, company_id, point_of_sale_id, user_id, simulator_code, ending, renewed)
      values (${MONTH('a')}, a.company_id, a.point_of_sale_id, a.user_id, a.simulator_code, sign * ${ENDING('a')}, sign * ${RENEWED('a')})
      on conflict ${KEY} do update set ending = renewals_monthly.ending + excluded.ending, renewed = renewals_monthly.renewed + excluded.renewed;
    end $$`)
    .execute(db);
  await sql
    .raw(`create function renewals_monthly_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform renewals_monthly_add(old, -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform renewals_monthly_add(new, 1);
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create function rebuild_renewals_monthly() returns void language plpgsql as $$
    begin
      truncate renewals_monthly;
      ${contributionInsert('')};
    end $$`)
    .execute(db);
  await sql
    .raw(`create function add_renewals_monthly(lo integer, hi integer) returns void language plpgsql as $$
    begin
      ${contributionInsert('where a.id between lo and hi')};
    end $$`)
    .execute(db);
  await sql`create function renewals_monthly_truncate_trigger() returns trigger language plpgsql as $$
    begin
      perform rebuild_renewals_monthly();
      return null;
    end $$`.execute(db);
  await sql
    .raw(`create trigger renewals_monthly_policies after insert or delete
      or update of fim_vigencia, company_id, point_of_sale_id, user_id, simulator_code, status, renovada_por_id on policies
      for each row when (${ROLLUP_ON}) execute function renewals_monthly_trigger()`)
    .execute(db);
  await sql`create trigger renewals_monthly_policies_truncate after truncate on policies
      for each statement execute function renewals_monthly_truncate_trigger()`.execute(db);
  await sql`select rebuild_renewals_monthly()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists renewals_monthly_policies on policies`.execute(db);
  await sql`drop trigger if exists renewals_monthly_policies_truncate on policies`.execute(db);
  await sql`drop function if exists renewals_monthly_truncate_trigger()`.execute(db);
  await sql`drop function if exists add_renewals_monthly(integer, integer)`.execute(db);
  await sql`drop function if exists rebuild_renewals_monthly()`.execute(db);
  await sql`drop function if exists renewals_monthly_trigger()`.execute(db);
  await sql`drop function if exists renewals_monthly_add(policies, integer)`.execute(db);
  await sql`drop table if exists renewals_monthly`.execute(db);
  for (const name of Object.keys(LIST_INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  await sql`drop index if exists policies_renewing`.execute(db);
  await sql`alter table policies drop column if exists renovada_por_id`.execute(db);
  await sql`alter table policies drop column if exists renova_policy_id`.execute(db);
  await sql`drop index if exists quotes_renewing`.execute(db);
  await sql`alter table quotes drop column if exists renova_policy_id`.execute(db);
}
