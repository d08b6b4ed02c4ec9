import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import type { Scope } from '../../../lib/scope';
import { nextMonth } from '../../../lib/commissions';
import {
  funnelOf,
  lastMonths,
  METRICS_MESSAGES,
  monthlySeries,
  productBreakdown,
  projectionOf,
  rankingOf,
  attainmentOf,
  type FunnelStage,
  type MetricsFilters,
  type MonthSales,
  type ProductSales,
  type RankingEntry,
  type RankingKind,
  type TargetInput,
  type TargetLevel,
} from '../../../lib/metrics';
import type { Cents } from '../../../lib/products/types';
import { soldWithin } from '../identity/scope';
import { pointOfSaleByCode } from '../../../lib/points-of-sale';
import { renewalMonths, renewalSeries, type MonthRenewals } from '../../../lib/renewals';

/*
 * Sales metrics and targets (issue 15, decision 043): a year of what the scope sold, read through the
 * one scoping rule (services/identity/scope.ts soldWithin), and the targets the admins set. The sales
 * are read from the rollup sales_monthly (issue 29, migration 028: per Brasília month, company, point of
 * sale, seller and product, kept by the database's triggers as the sales are written), never by
 * aggregating all history per request; its rows carry the columns saleMatches filters on.
 */

/** A rollup row's month is its first day: a window of months [from, to) is one of first days. */
const firstDayOf = (month: string) => `${month}-01`;
const monthsOf = (first: string, last: string) => ({ from: firstDayOf(first), to: firstDayOf(nextMonth(last)) });

/* ---------- What a viewer may filter by ---------- */

export interface MetricsOptions {
  companies: { id: number; cnpj: string; name: string }[];
  /** Inactive ones too: their history stays in the figures (decision 051). */
  pointsOfSale: { id: number; code: string; name: string; companyId: number; active: boolean }[];
  sellers: { id: number; name: string; companyId: number }[];
}

/**
 * The companies, points of sale and sellers a scope counts: the choices of the filters and of the targets.
 * A page of one generation lists that generation's sellers (a sale's seller is of its generation).
 */
export async function metricsOptions(db: DB, scope: Scope, generation?: Generation): Promise<MetricsOptions> {
  if (scope.kind === 'none' || scope.kind === 'own') return { companies: [], pointsOfSale: [], sellers: [] };
  const ids = scope.kind === 'companies' ? scope.companyIds : undefined;
  if (ids?.length === 0) return { companies: [], pointsOfSale: [], sellers: [] };
  // One round trip for the three lists (this runs at every request of both pages).
  const within = (column: string) => (ids === undefined ? sql`true` : sql`${sql.ref(column)} in (${sql.join(ids)})`);
  const { rows } = await sql<MetricsOptions>`select
    coalesce((select json_agg(json_build_object('id', c.id, 'cnpj', c.cnpj, 'name', c.nome_fantasia) order by c.nome_fantasia)
      from companies c where ${within('c.id')}), '[]') as "companies",
    coalesce((select json_agg(json_build_object('id', p.id, 'code', p.codigo, 'name', p.nome, 'companyId', p.company_id, 'active', p.status = 'ATIVO') order by p.codigo)
      from points_of_sale p where ${within('p.company_id')}), '[]') as "pointsOfSale",
    coalesce((select json_agg(json_build_object('id', u.id, 'name', u.nome, 'companyId', u.company_id) order by u.nome)
      from users u where u.company_id is not null and u.status <> 'INATIVO' and ${within('u.company_id')}
        and ${generation === undefined ? sql`true` : sql`u.generation = ${generation}`}), '[]') as "sellers"`.execute(db);
  return rows[0]!;
}

/** The filters as ids, each checked against the viewer's options: one outside them is a field error. */
export interface ResolvedFilters {
  companyId?: number;
  pointOfSaleId?: number;
  sellerId?: number;
  product?: string;
  /** Several products at once (the sales reports). */
  products?: string[];
}

export function resolveFilters(
  options: MetricsOptions,
  filters: MetricsFilters,
): { ok: true; value: ResolvedFilters } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const company = filters.empresa ? options.companies.find((c) => c.cnpj === filters.empresa) : undefined;
  if (filters.empresa && !company) errors.empresa = [METRICS_MESSAGES.empresa];
  const point = filters.pontoVenda ? pointOfSaleByCode(options.pointsOfSale, filters.pontoVenda, company?.id) : undefined;
  if (point === 'ambiguous') errors.pontoVenda = [METRICS_MESSAGES.pontoVendaAmbiguo];
  else if (filters.pontoVenda && !point) errors.pontoVenda = [METRICS_MESSAGES.pontoVenda];
  const seller = filters.vendedor ? options.sellers.find((s) => s.id === filters.vendedor) : undefined;
  if (filters.vendedor && !seller) errors.vendedor = [METRICS_MESSAGES.vendedor];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const pointOfSaleId = point === 'ambiguous' ? undefined : point?.id;
  return { ok: true, value: { companyId: company?.id, pointOfSaleId, sellerId: seller?.id, product: filters.produto } };
}

/** A sale (a policy or a quote, by its alias) within the scope and the filters. */
export function saleMatches(scope: Scope, filters: ResolvedFilters, alias: 'a' | 'q'): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const conditions: Expression<SqlBool>[] = [soldWithin(scope, sql.ref(`${alias}.user_id`), sql.ref(`${alias}.company_id`))];
  if (filters.companyId !== undefined) conditions.push(sql<SqlBool>`${column('company_id')} = ${filters.companyId}`);
  if (filters.pointOfSaleId !== undefined) conditions.push(sql<SqlBool>`${column('point_of_sale_id')} = ${filters.pointOfSaleId}`);
  if (filters.sellerId !== undefined) conditions.push(sql<SqlBool>`${column('user_id')} = ${filters.sellerId}`);
  if (filters.product !== undefined) conditions.push(sql<SqlBool>`${column('simulator_code')} = ${filters.product}`);
  if (filters.products?.length) conditions.push(sql<SqlBool>`${column('simulator_code')} in (${sql.join(filters.products)})`);
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/* ---------- Evolução de vendas ---------- */

export interface SalesEvolution {
  months: MonthSales[];
  products: ProductSales[];
  funnel: FunnelStage[];
  totals: { premium: Cents; policies: number; cancelled: number };
  /** The renewal rate per month of the end of term (issue 31): the year's months and the two ahead. */
  renewals: { months: MonthRenewals[]; total: MonthRenewals };
}

/** The policies issued per month and product (cancelled ones counted in the month they were sold, and apart). */
function salesRows(db: DB, scope: Scope, filters: ResolvedFilters, months: string[]) {
  const { from, to } = monthsOf(months[0]!, months[months.length - 1]!);
  return (
    db
      .selectFrom('sales_monthly as a')
      .select([
        sql<string>`to_char(a.mes, 'YYYY-MM')`.as('month'),
        'a.simulator_code as code',
        sql<string>`coalesce(sum(a.premium), 0)`.as('premium'),
        sql<string>`sum(a.policies)`.as('policies'),
        sql<string>`sum(a.cancelled)`.as('cancelled'),
      ])
      .where('a.mes', '>=', from)
      .where('a.mes', '<', to)
      // Rows of the funnel alone (a month with quotes and no policy) make no (month, product) of sales.
      .where('a.policies', '>', 0)
      .where(saleMatches(scope, filters, 'a'))
      .groupBy(['month', 'a.simulator_code'])
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          month: r.month,
          code: r.code,
          premium: Number(r.premium),
          policies: Number(r.policies),
          cancelled: Number(r.cancelled),
        })),
      )
  );
}

/** Rows of (month, product) added up per month. */
function byMonth(months: string[], rows: { month: string; premium: number; policies: number; cancelled: number }[]): MonthSales[] {
  const totals = new Map<string, MonthSales>();
  for (const r of rows) {
    const month = totals.get(r.month) ?? { month: r.month, premium: 0, policies: 0, cancelled: 0 };
    totals.set(r.month, {
      month: r.month,
      premium: month.premium + r.premium,
      policies: month.policies + r.policies,
      cancelled: month.cancelled + r.cancelled,
    });
  }
  return monthlySeries(months, [...totals.values()]);
}

/** Rows of (month, product) added up per product. */
function byProduct(rows: { code: string; premium: number; policies: number }[]) {
  const totals = new Map<string, { code: string; premium: number; policies: number }>();
  for (const r of rows) {
    const product = totals.get(r.code) ?? { code: r.code, premium: 0, policies: 0 };
    totals.set(r.code, { code: r.code, premium: product.premium + r.premium, policies: product.policies + r.policies });
  }
  return productBreakdown([...totals.values()]);
}

export async function salesEvolution(db: DB, scope: Scope, filters: ResolvedFilters, today: string): Promise<SalesEvolution> {
  const months = lastMonths(today);
  const window = monthsOf(months[0]!, months[months.length - 1]!);
  const [rows, funnel, renewals] = await Promise.all([
    salesRows(db, scope, filters, months),
    // The quotes of the year and how far each went: a cohort, so each stage is a share of the one before.
    db
      .selectFrom('sales_monthly as a')
      .select([
        sql<string>`coalesce(sum(a.quotes), 0)`.as('quotes'),
        sql<string>`coalesce(sum(a.proposals), 0)`.as('proposals'),
        sql<string>`coalesce(sum(a.converted), 0)`.as('policies'),
        sql<string>`coalesce(sum(a.paid), 0)`.as('paid'),
      ])
      .where('a.mes', '>=', window.from)
      .where('a.mes', '<', window.to)
      .where(saleMatches(scope, filters, 'a'))
      .executeTakeFirstOrThrow(),
    renewalRates(db, scope, filters, renewalMonths(months)),
  ]);
  const series = byMonth(months, rows);
  return {
    months: series,
    products: byProduct(rows),
    funnel: funnelOf({
      quotes: Number(funnel.quotes),
      proposals: Number(funnel.proposals),
      policies: Number(funnel.policies),
      paid: Number(funnel.paid),
    }),
    totals: {
      premium: series.reduce((sum, m) => sum + m.premium, 0),
      policies: series.reduce((sum, m) => sum + m.policies, 0),
      cancelled: series.reduce((sum, m) => sum + m.cancelled, 0),
    },
    renewals,
  };
}

/**
 * Renewed over ending per month of the end of term, from the rollup renewals_monthly (migration 039),
 * whose rows carry the columns saleMatches filters on: the rate reads a few rows per month, not the
 * policies.
 */
export async function renewalRates(db: DB, scope: Scope, filters: ResolvedFilters, months: string[]) {
  const { from, to } = monthsOf(months[0]!, months[months.length - 1]!);
  const rows = await db
    .selectFrom('renewals_monthly as a')
    .select([
      sql<string>`to_char(a.mes, 'YYYY-MM')`.as('month'),
      sql<string>`sum(a.ending)`.as('ending'),
      sql<string>`sum(a.renewed)`.as('renewed'),
    ])
    .where('a.mes', '>=', from)
    .where('a.mes', '<', to)
    .where(saleMatches(scope, filters, 'a'))
    .groupBy('a.mes')
    .execute();
  return renewalSeries(
    months,
    rows.map((r) => ({ month: r.month, ending: Number(r.ending), renewed: Number(r.renewed) })),
  );
}

/* ---------- Atingimento de meta ---------- */

/** Whose targets a selection reads: the narrowest filter's subject, or every company of the scope. */
function targetSubject(options: MetricsOptions, filters: ResolvedFilters): { nivel: TargetLevel; ids: number[]; label: string } {
  if (filters.sellerId !== undefined)
    return { nivel: 'vendedor', ids: [filters.sellerId], label: options.sellers.find((s) => s.id === filters.sellerId)!.name };
  if (filters.pointOfSaleId !== undefined)
    return {
      nivel: 'ponto_venda',
      ids: [filters.pointOfSaleId],
      label: options.pointsOfSale.find((p) => p.id === filters.pointOfSaleId)!.name,
    };
  if (filters.companyId !== undefined)
    return { nivel: 'empresa', ids: [filters.companyId], label: options.companies.find((c) => c.id === filters.companyId)!.name };
  const label = options.companies.length === 1 ? options.companies[0]!.name : 'todas as empresas';
  return { nivel: 'empresa', ids: options.companies.map((c) => c.id), label };
}

async function targetsOf(db: DB, nivel: TargetLevel, ids: number[], months: string[]): Promise<Map<string, Map<number, Cents>>> {
  const byMonth = new Map<string, Map<number, Cents>>();
  if (ids.length === 0) return byMonth;
  const rows = await db
    .selectFrom('sales_targets')
    .select(['mes', 'ref_id', 'valor'])
    .where('nivel', '=', nivel)
    .where('ref_id', 'in', ids)
    .where('mes', 'in', months)
    .execute();
  for (const row of rows) {
    const month = byMonth.get(row.mes) ?? new Map<number, Cents>();
    month.set(row.ref_id, Number(row.valor));
    byMonth.set(row.mes, month);
  }
  return byMonth;
}

const sumOf = (values: Iterable<Cents>) => [...values].reduce((sum, v) => sum + v, 0);

export interface AttainmentMonth {
  month: string;
  sold: Cents;
  target?: Cents;
  attainment?: number;
}

export interface SalesAttainment {
  subject: { nivel: TargetLevel; label: string };
  months: AttainmentMonth[];
  current: { month: string; sold: Cents; projection: Cents; target?: Cents; attainment?: number; projectedAttainment?: number };
  ranking: { kind: RankingKind; month: string; entries: RankingEntry[] };
}

export async function salesAttainment(
  db: DB,
  scope: Scope,
  options: MetricsOptions,
  filters: ResolvedFilters,
  view: { mes: string; ranking: RankingKind },
  today: string,
): Promise<SalesAttainment> {
  const months = lastMonths(today);
  const subject = targetSubject(options, filters);
  const [sales, targets, ranking] = await Promise.all([
    salesRows(db, scope, filters, months).then((rows) => byMonth(months, rows)),
    targetsOf(db, subject.nivel, subject.ids, months),
    rankingFor(db, scope, options, filters, view),
  ]);
  const rows = sales.map(({ month, premium }) => {
    const monthTargets = targets.get(month);
    const target = monthTargets ? sumOf(monthTargets.values()) : undefined;
    return { month, sold: premium, target, attainment: attainmentOf(premium, target) };
  });
  const now = rows[rows.length - 1]!;
  const projection = projectionOf(now.month, now.sold, today);
  return {
    subject: { nivel: subject.nivel, label: subject.label },
    months: rows,
    current: { ...now, projection, projectedAttainment: attainmentOf(projection, now.target) },
    ranking,
  };
}

/** The month's points of sale or sellers of the selection, with what each sold and its target. */
async function rankingFor(
  db: DB,
  scope: Scope,
  options: MetricsOptions,
  filters: ResolvedFilters,
  view: { mes: string; ranking: RankingKind },
): Promise<SalesAttainment['ranking']> {
  const { from, to } = monthsOf(view.mes, view.mes);
  const byPoint = view.ranking === 'pontos';
  const key = byPoint ? 'a.point_of_sale_id' : 'a.user_id';
  const sold = await db
    .selectFrom('sales_monthly as a')
    .select([sql<number>`${sql.ref(key)}`.as('id'), sql<string>`sum(a.premium)`.as('premium'), sql<string>`sum(a.policies)`.as('policies')])
    .where('a.mes', '>=', from)
    .where('a.mes', '<', to)
    .where('a.policies', '>', 0)
    .where(saleMatches(scope, filters, 'a'))
    .where(sql.ref(key), 'is not', null)
    .groupBy(sql.ref(key))
    .execute();
  const soldById = new Map(sold.map((r) => [Number(r.id), { premium: Number(r.premium), policies: Number(r.policies) }]));
  const companyName = new Map(options.companies.map((c) => [c.id, c.name]));
  const inSelection = (companyId: number, id: number) =>
    (filters.companyId === undefined || companyId === filters.companyId) &&
    (byPoint
      ? filters.pointOfSaleId === undefined || id === filters.pointOfSaleId
      : filters.sellerId === undefined || id === filters.sellerId);
  const candidates = byPoint
    ? options.pointsOfSale.map((p) => ({ id: p.id, name: p.name, detail: p.code, companyId: p.companyId }))
    : options.sellers.map((s) => ({ id: s.id, name: s.name, detail: companyName.get(s.companyId) ?? '', companyId: s.companyId }));
  const chosen = candidates.filter((c) => inSelection(c.companyId, c.id));
  const targets = (
    await targetsOf(
      db,
      byPoint ? 'ponto_venda' : 'vendedor',
      chosen.map((c) => c.id),
      [view.mes],
    )
  ).get(view.mes);
  const entries = rankingOf(
    chosen.map((c) => ({
      id: c.id,
      name: c.name,
      detail: c.detail,
      premium: soldById.get(c.id)?.premium ?? 0,
      policies: soldById.get(c.id)?.policies ?? 0,
      target: targets?.get(c.id),
    })),
  ).filter((e) => e.premium > 0 || e.target !== undefined);
  return { kind: view.ranking, month: view.mes, entries };
}

/* ---------- Setting a target ---------- */

/**
 * Sets (or replaces) a month's target of a company, point of sale or seller the viewer's scope counts;
 * a subject outside it is a field error and nothing is written.
 */
export async function saveTarget(
  db: DB,
  options: MetricsOptions,
  actorId: number,
  input: TargetInput,
  now: Date,
): Promise<{ ok: true } | { ok: false; errors: Record<string, string[]> }> {
  const subjects: Record<TargetLevel, () => { id: number; companyId: number } | undefined> = {
    empresa: () => {
      const company = options.companies.find((c) => c.cnpj === input.alvo.replace(/[./-]/g, '').toUpperCase());
      return company && { id: company.id, companyId: company.id };
    },
    ponto_venda: () => {
      const point = pointOfSaleByCode(options.pointsOfSale, input.alvo);
      return point === 'ambiguous' ? undefined : point;
    },
    vendedor: () => options.sellers.find((s) => String(s.id) === input.alvo),
  };
  const subject = subjects[input.nivel]();
  if (!subject) return { ok: false, errors: { alvo: [METRICS_MESSAGES.alvo] } };
  await db
    .insertInto('sales_targets')
    .values({
      nivel: input.nivel,
      ref_id: subject.id,
      company_id: subject.companyId,
      mes: input.mes,
      valor: input.valor,
      definida_por: actorId,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['nivel', 'ref_id', 'mes'])
        .doUpdateSet({ valor: input.valor, definida_por: actorId, updated_at: now, company_id: subject.companyId }),
    )
    .execute();
  return { ok: true };
}
