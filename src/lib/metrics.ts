import * as z from 'zod/mini';
import type { Cents } from './products/types';
import { PRODUCTS } from './products/catalog';
import { optionalField, oneOf } from './list-query';
import { cnpjField, monthLabel, nextMonth, previousMonth } from './commissions';
import { daysBetween } from './calendar';
import { messagesByField } from './field-errors';

/*
 * Sales metrics and targets (issue 15, decision 043), pure: the filters of both metrics pages, the
 * series a year of sales makes, the funnel, the target rules (attainment, the current month's
 * projection, a ranking) and the scales of the server-rendered charts. Months are 'YYYY-MM' in
 * Brasília; money is integer cents.
 */

/* ---------- Filters ---------- */

export const METRICS_FIELDS = ['empresa', 'pontoVenda', 'vendedor', 'produto'] as const;
export type MetricsField = (typeof METRICS_FIELDS)[number];

export const METRICS_MESSAGES = {
  empresa: 'Empresa inválida: escolha uma das suas empresas.',
  pontoVenda: 'Ponto de venda inválido: escolha um da lista.',
  pontoVendaAmbiguo: 'Há pontos de venda com este código em mais de uma empresa: escolha também a empresa.',
  vendedor: 'Vendedor inválido: escolha um da lista.',
  produto: 'Produto inválido: escolha um da lista.',
  mes: 'Mês inválido: use o formato AAAA-MM, entre os últimos 12 meses e os próximos 12.',
  ranking: 'Ranking inválido: por ponto de venda ou por vendedor.',
  alvo: 'Escolha a empresa, o ponto de venda ou o vendedor da meta, entre os da lista.',
  valor: 'Informe a meta em reais, como R$ 150.000,00.',
  valorNegativo: 'A meta não pode ser negativa.',
  valorZero: 'A meta deve ser maior que zero.',
  valorGrande: 'A meta pode ser de no máximo R$ 1.000.000.000,00.',
} as const;

const idField = (message: string) =>
  z.pipe(
    z.string({ error: message }).check(
      z.regex(/^[1-9]\d{0,9}$/, message),
      z.refine((v) => Number(v) <= 2_000_000_000, message),
    ),
    z.transform(Number),
  );
const pointOfSaleCode = z
  .string({ error: METRICS_MESSAGES.pontoVenda })
  .check(z.regex(/^[A-Za-z0-9-]{1,20}$/, METRICS_MESSAGES.pontoVenda));

const filtersSchema = z.object({
  empresa: optionalField(cnpjField(METRICS_MESSAGES.empresa)),
  pontoVenda: optionalField(
    z.pipe(
      pointOfSaleCode,
      z.transform((v) => v.toUpperCase()),
    ),
  ),
  vendedor: optionalField(idField(METRICS_MESSAGES.vendedor)),
  produto: optionalField(oneOf(Object.keys(PRODUCTS), METRICS_MESSAGES.produto, (v) => v.toUpperCase())),
});

export type MetricsFilters = z.output<typeof filtersSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> };

const fieldsOf = (params: URLSearchParams, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, params.get(f) ?? undefined]));

/** The filters of an address: a blank field is no filter; a bad one a pt-BR message, never a guess. */
export function parseMetricsFilters(params: URLSearchParams): Parsed<MetricsFilters> {
  const result = z.safeParse(filtersSchema, fieldsOf(params, METRICS_FIELDS));
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, errors: messagesByField(result.error.issues, (issue) => String(issue.path[0] ?? 'query')) };
}

/* ---------- Months ---------- */

/** The last `count` months up to today's, oldest first. */
export function lastMonths(today: string, count = 12): string[] {
  const months = [today.slice(0, 7)];
  while (months.length < count) months.unshift(previousMonth(months[0]!));
  return months;
}

/** How far from today's month a target may be set or a month shown: a year back, a year ahead. */
export const TARGET_MONTHS_AROUND = 12;

/** A month within a year of today's. */
export function isMonthNearToday(month: string, today: string): boolean {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return false;
  let earliest = today.slice(0, 7);
  let latest = earliest;
  for (let i = 0; i < TARGET_MONTHS_AROUND; i++) {
    earliest = previousMonth(earliest);
    latest = nextMonth(latest);
  }
  return month >= earliest && month <= latest;
}

/* ---------- Series ---------- */

export interface MonthSales {
  month: string;
  /** Prêmio total of the policies issued in the month. */
  premium: Cents;
  policies: number;
  /** Of them, how many are cancelled today. */
  cancelled: number;
}

/** One row per month asked for, zero where nothing was sold: a chart has no holes. */
export function monthlySeries(months: readonly string[], rows: readonly MonthSales[]): MonthSales[] {
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  return months.map((month) => byMonth.get(month) ?? { month, premium: 0, policies: 0, cancelled: 0 });
}

export interface ProductSales {
  code: string;
  name: string;
  premium: Cents;
  policies: number;
  /** Its share of the period's premium, 0 to 1. */
  share: number;
}

/** The period's sales per product, largest first, with each one's share of the premium. */
export function productBreakdown(rows: readonly { code: string; premium: Cents; policies: number }[]): ProductSales[] {
  const total = rows.reduce((sum, r) => sum + r.premium, 0);
  return rows
    .map((r) => ({ ...r, name: PRODUCTS[r.code]?.name ?? r.code, share: total > 0 ? r.premium / total : 0 }))
    .sort((a, b) => b.premium - a.premium || a.name.localeCompare(b.name, 'pt-BR'));
}

/* ---------- Funnel ---------- */

export const FUNNEL_STAGES = [
  { key: 'quotes', label: 'Cotações' },
  { key: 'proposals', label: 'Propostas' },
  { key: 'policies', label: 'Apólices' },
  { key: 'paid', label: '1ª parcela paga' },
] as const;

export type FunnelCounts = Record<(typeof FUNNEL_STAGES)[number]['key'], number>;

export interface FunnelStage {
  key: string;
  label: string;
  count: number;
  /** Of the quotes (the first stage), 0 to 1. */
  ofQuotes: number;
  /** Of the stage before, 0 to 1 (1 for the first). */
  ofPrevious: number;
}

/** The conversion from quote to paid first installment: each stage against the first and the one before. */
export function funnelOf(counts: FunnelCounts): FunnelStage[] {
  return FUNNEL_STAGES.map(({ key, label }, i) => {
    const count = counts[key];
    const previous = i === 0 ? count : counts[FUNNEL_STAGES[i - 1]!.key];
    return {
      key,
      label,
      count,
      ofQuotes: counts.quotes > 0 ? count / counts.quotes : 0,
      ofPrevious: i === 0 ? 1 : previous > 0 ? count / previous : 0,
    };
  });
}

/* ---------- Targets ---------- */

export const TARGET_LEVELS = {
  empresa: 'Empresa',
  ponto_venda: 'Ponto de venda',
  vendedor: 'Vendedor',
} as const;
export type TargetLevel = keyof typeof TARGET_LEVELS;

export const MAX_TARGET: Cents = 1_000_000_000_00;

/** 'R$ 150.000,00', '150000', '150.000,5' → cents; a message for anything else. */
export function parseTargetValue(text: string): { cents: Cents } | { error: string } {
  const value = text.trim().replace(/^R\$\s*/, '');
  if (/^-/.test(value)) return { error: METRICS_MESSAGES.valorNegativo };
  const grouped = /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/;
  const plain = /^\d{1,13}(,\d{1,2})?$/;
  if (!grouped.test(value) && !plain.test(value)) return { error: METRICS_MESSAGES.valor };
  const [units, decimals = ''] = value.replace(/\./g, '').split(',') as [string, string?];
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  if (cents === 0) return { error: METRICS_MESSAGES.valorZero };
  if (cents > MAX_TARGET) return { error: METRICS_MESSAGES.valorGrande };
  return { cents };
}

export interface TargetInput {
  nivel: TargetLevel;
  /** The company's CNPJ, the point of sale's code or the seller's id. */
  alvo: string;
  mes: string;
  valor: Cents;
}

/** The value of a target's subject in the form's one select: 'empresa:11222333000181', 'vendedor:7'. */
export const targetSubjectValue = (nivel: TargetLevel, ref: string | number): string => `${nivel}:${ref}`;

/** A target as the form sends it, checked field by field (whether its subject is the user's is the service's). */
export function parseTarget(form: Record<string, string | undefined>, today: string): Parsed<TargetInput> {
  const errors: Record<string, string[]> = {};
  const [nivel, alvo = ''] = (form.alvo?.trim() ?? '').split(/:(.*)/s) as [string, string?];
  const known = nivel in TARGET_LEVELS && /^[0-9A-Za-z./-]{1,30}$/.test(alvo);
  if (!known) errors.alvo = [METRICS_MESSAGES.alvo];
  const mes = form.mes?.trim() ?? '';
  if (!isMonthNearToday(mes, today)) errors.mes = [METRICS_MESSAGES.mes];
  const valor = parseTargetValue(form.valor ?? '');
  if ('error' in valor) errors.valor = [valor.error];
  if (!known || Object.keys(errors).length > 0 || 'error' in valor) return { ok: false, errors };
  return { ok: true, value: { nivel: nivel as TargetLevel, alvo, mes, valor: valor.cents } };
}

/** How much of the target was sold, 0 and up (1 = 100 %); undefined without a target. */
export const attainmentOf = (sold: Cents, target: Cents | undefined): number | undefined =>
  target === undefined || target <= 0 ? undefined : sold / target;

/**
 * What the current month will have sold at today's pace: sold so far ÷ days gone × days in the month.
 * Calendar days, not business days: partners sell in shops open on Saturdays and online every day.
 * Today counts as a day gone (sales of the morning are in); a month already over projects itself.
 */
export function projectionOf(month: string, soldSoFar: Cents, today: string): Cents {
  const first = `${month}-01`;
  const days = daysBetween(first, `${nextMonth(month)}-01`);
  if (today.slice(0, 7) > month) return soldSoFar;
  if (today.slice(0, 7) < month) return 0;
  const gone = daysBetween(first, today) + 1;
  return Math.round((soldSoFar / gone) * days);
}

export interface RankingEntry {
  id: number;
  name: string;
  /** The point of sale's code, or the seller's company. */
  detail: string;
  premium: Cents;
  policies: number;
  target?: Cents;
  attainment?: number;
}

/** Best first: by premium, then by policies, then by name — a stable order for a tie. */
export function rankingOf(entries: readonly Omit<RankingEntry, 'attainment'>[]): RankingEntry[] {
  return entries
    .map((e) => ({ ...e, attainment: attainmentOf(e.premium, e.target) }))
    .sort((a, b) => b.premium - a.premium || b.policies - a.policies || a.name.localeCompare(b.name, 'pt-BR'));
}

export const RANKINGS = { pontos: 'Pontos de venda', vendedores: 'Vendedores' } as const;
export type RankingKind = keyof typeof RANKINGS;

/** The attainment page's own choices: the month of the ranking and what is ranked. */
export function parseAttainmentView(params: URLSearchParams, today: string): Parsed<{ mes: string; ranking: RankingKind }> {
  const errors: Record<string, string[]> = {};
  const mes = params.get('mes')?.trim() || today.slice(0, 7);
  if (!isMonthNearToday(mes, today) || mes > today.slice(0, 7)) errors.mes = [METRICS_MESSAGES.mes];
  const ranking = (params.get('ranking')?.trim() || 'pontos') as RankingKind;
  if (!(ranking in RANKINGS)) errors.ranking = [METRICS_MESSAGES.ranking];
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { mes, ranking } };
}

/* ---------- Chart scales ---------- */

/**
 * Round axis marks from 0 to at least `max`: steps of 1, 2 or 5 × 10ⁿ, about `count` of them, so an
 * axis reads 0, 50 mil, 100 mil… and not 0, 37.412, 74.824.
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const ticks = [0];
  while (ticks[ticks.length - 1]! < max) ticks.push(ticks.length * step);
  return ticks;
}

const compact = new Intl.NumberFormat('pt-BR', { notation: 'compact', maximumFractionDigits: 1 });

/** Cents as an axis label: 'R$ 150 mil', 'R$ 1,2 mi'. */
export const axisMoney = (cents: Cents): string => `R$ ${compact.format(cents / 100).replace(/\u00a0/g, ' ')}`;

/** A month as a chart's column label: 'nov/26'. */
export function monthTick(month: string): string {
  const label = monthLabel(month);
  return `${label.slice(0, 3)}/${month.slice(2, 4)}`;
}
