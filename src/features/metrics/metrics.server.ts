import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { salesDataScopeFor } from '../../server/services/identity/scope';
import {
  metricsOptions,
  resolveFilters,
  saveTarget,
  salesAttainment,
  salesEvolution,
  type MetricsOptions,
  type SalesAttainment,
  type SalesEvolution,
} from '../../server/services/reporting/metrics';
import { brasiliaDay } from '../../lib/format';
import { METRICS_FIELDS, parseAttainmentView, parseMetricsFilters, parseTarget } from '../../lib/metrics';
import { PRODUCTS } from '../../lib/products/catalog';
import { viewerOf, type PortalSession } from '../../lib/session';

/** What the metrics pages need (issue 15, decision 043), for both generations: thin pages, this does the work. */

export const METRICS_PAGES = {
  v1: { evolucao: '/evolucao-vendas', meta: '/atingir-meta' },
  v2: { evolucao: '/v2/metricas/evolucao-vendas', meta: '/v2/metricas/atingimento-meta' },
} as const;

export const PRODUCT_OPTIONS = Object.values(PRODUCTS).map((p) => ({ code: p.code, name: p.name }));

/** The fields of the attainment page's form: the filters, the ranking's month and what it ranks. */
export const ATTAINMENT_FIELDS = ['empresa', 'pontoVenda', 'vendedor', 'mes', 'ranking'] as const;

async function context(generation: 'v1' | 'v2', session: PortalSession) {
  // The middleware's guard let only a viewer the menu rule allows reach these pages.
  const viewer = viewerOf(session, generation)!;
  const db = await database();
  const { scope, editsTargets } = await salesDataScopeFor(db, viewer, 'METRICAS');
  return { db, viewer, scope, editsTargets, options: await metricsOptions(db, scope, generation), today: brasiliaDay(now()) };
}

const valuesOf = (params: URLSearchParams, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, params.get(field)?.trim() || undefined])) as Record<string, string | undefined>;

export interface EvolutionPageProps {
  status: number;
  generation: 'v1' | 'v2';
  values: Record<string, string | undefined>;
  errors?: Record<string, string[]>;
  options: MetricsOptions;
  evolution?: SalesEvolution;
  today: string;
}

export async function evolutionPage(generation: 'v1' | 'v2', session: PortalSession, params: URLSearchParams): Promise<EvolutionPageProps> {
  const { db, scope, options, today } = await context(generation, session);
  const values = valuesOf(params, METRICS_FIELDS);
  const parsed = parseMetricsFilters(params);
  const resolved = parsed.ok ? resolveFilters(options, parsed.value) : parsed;
  if (!resolved.ok) return { status: 400, generation, values, errors: resolved.errors, options, today };
  return { status: 200, generation, values, options, evolution: await salesEvolution(db, scope, resolved.value, today), today };
}

export interface AttainmentPageProps {
  status: number;
  generation: 'v1' | 'v2';
  values: Record<string, string | undefined>;
  errors?: Record<string, string[]>;
  options: MetricsOptions;
  attainment?: SalesAttainment;
  /** Whether the viewer sets targets, and the target form's values and messages. */
  editsTargets: boolean;
  target: { values: Record<string, string | undefined>; errors?: Record<string, string[]>; saved?: boolean };
  today: string;
}

/**
 * /atingir-meta and /v2/metricas/atingimento-meta. A POST sets a target (a plain form: the page ships
 * no JavaScript) and answers 303 to the same address, or the page again with the form's messages.
 */
export async function attainmentPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  request: Request,
  url: URL,
): Promise<AttainmentPageProps | { redirect: string }> {
  const { db, viewer, scope, editsTargets, options, today } = await context(generation, session);
  const params = url.searchParams;
  const values = valuesOf(params, ATTAINMENT_FIELDS);
  let target: AttainmentPageProps['target'] = { values: { mes: today.slice(0, 7) }, saved: params.get('meta') === 'salva' };
  let status = 200;

  if (request.method === 'POST') {
    const form = Object.fromEntries([...(await request.formData())].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
    const parsed = editsTargets ? parseTarget(form, today) : { ok: false as const, errors: { alvo: ['Você não pode definir metas.'] } };
    const saved = parsed.ok ? await saveTarget(db, options, viewer.user.idUsuario, parsed.value, now()) : parsed;
    if (saved.ok) {
      const back = new URLSearchParams(params);
      back.set('meta', 'salva');
      return { redirect: `${url.pathname}?${back}` };
    }
    status = editsTargets ? 400 : 403;
    target = { values: { alvo: form.alvo, mes: form.mes, valor: form.valor }, errors: saved.errors };
  }

  const filters = parseMetricsFilters(params);
  const view = parseAttainmentView(params, today);
  const resolved = filters.ok ? resolveFilters(options, filters.value) : filters;
  if (!resolved.ok || !view.ok) {
    const errors = { ...(resolved.ok ? {} : resolved.errors), ...(view.ok ? {} : view.errors) };
    return { status: 400, generation, values, errors, options, editsTargets, target, today };
  }
  const attainment = await salesAttainment(db, scope, options, resolved.value, view.value, today);
  return { status, generation, values, options, attainment, editsTargets, target, today };
}
