import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { scopeFor } from '../../server/services/identity/scope';
import { metricsOptions } from '../../server/services/reporting/metrics';
import { listRenewals, renewalSummary, startRenewal, type RenewalRow, type RenewalSummary } from '../../server/services/selling/renewals';
import { brasiliaDay } from '../../lib/format';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { withReadablePage } from '../../lib/list-query';
import { PRODUCTS } from '../../lib/products/catalog';
import { parseRenewalQuery, RENEWAL_FIELDS, RENEWAL_FILTER_MESSAGES } from '../../lib/renewals';
import { viewerOf, type PortalSession, type SessionViewer } from '../../lib/session';
import { readForm, refusalOf } from '../controller.server';

/** What the pages of Renovações need (issue 31), for both generations: thin pages, this does the work. */

export const RENEWALS_BASE = { v1: '/renovacoes', v2: '/v2/renovacoes' } as const;
const PRODUCT_OPTIONS = Object.values(PRODUCTS).map((p) => ({ code: p.code, name: p.name }));

function viewer(generation: 'v1' | 'v2', session: PortalSession): SessionViewer {
  // The middleware's guard let only a signed-in viewer of this generation whom the menu allows reach the page.
  return viewerOf(session, generation)!;
}

export interface RenewalsListProps {
  status: number;
  generation: 'v1' | 'v2';
  values: Record<string, string | undefined>;
  errors?: Record<string, string[]>;
  result?: KeysetPage<RenewalRow>;
  products: { code: string; name: string }[];
  /** Only the sellers and points of sale the viewer's scope sees (none for a seller who sees their own). */
  sellers: { id: number; name: string }[];
  pointsOfSale: { id: number; name: string }[];
}

export async function renewalsListPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  params: URLSearchParams,
): Promise<RenewalsListProps> {
  const values = Object.fromEntries(RENEWAL_FIELDS.map((field) => [field, params.get(field)?.trim() || undefined]));
  const db = await database();
  const scope = await scopeFor(db, viewer(generation, session), 'APOLICES');
  const options = await metricsOptions(db, scope, generation);
  const sellers = options.sellers.map((s) => ({ id: s.id, name: s.name }));
  const pointsOfSale = options.pointsOfSale.map((p) => ({ id: p.id, name: `${p.code} · ${p.name}` }));
  const base = { generation, values, products: PRODUCT_OPTIONS, sellers, pointsOfSale };
  const query = parseRenewalQuery(withReadablePage(params));
  if (!query.ok) return { status: 400, errors: query.errors, ...base };
  // A seller or point of sale the viewer does not see is a field error, as a bad value is.
  const errors: Record<string, string[]> = {};
  if (query.filters.vendedor !== undefined && !sellers.some((s) => s.id === query.filters.vendedor))
    errors.vendedor = [RENEWAL_FILTER_MESSAGES.vendedor];
  if (query.filters.pontoVenda !== undefined && !pointsOfSale.some((p) => p.id === query.filters.pontoVenda))
    errors.pontoVenda = [RENEWAL_FILTER_MESSAGES.pontoVenda];
  if (Object.keys(errors).length > 0) return { status: 400, errors, ...base };
  const at = now();
  const result = await listRenewals(
    db,
    scope,
    generation,
    query.filters,
    pageRequestOf(query.page, params.get('cursor')),
    brasiliaDay(at),
    at,
  );
  return { status: 200, result, ...base };
}

export interface RenewalPageProps {
  status: number;
  generation: 'v1' | 'v2';
  summary: RenewalSummary;
  /** Why "Renovar" was refused just now (pt-BR). */
  failure?: string;
}

/**
 * /renovacoes/<nrApolice> and /v2/renovacoes/<nrApolice>: the policy's summary and the "Renovar" form.
 * Its POST makes (or finds) the renewal quote and answers a 303 to the simulator's step; a refusal
 * shows the page again with its message. Outside the viewer's scope (or no such number): a 404.
 */
export async function renewalPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  nrApolice: string,
  request: Request,
): Promise<RenewalPageProps | { redirect: string } | undefined> {
  if (!/^\d{1,20}$/.test(nrApolice)) return undefined;
  const db = await database();
  const who = viewer(generation, session);
  const scope = await scopeFor(db, who, 'APOLICES');
  const at = now();
  const today = brasiliaDay(at);
  let failure: string | undefined;
  let status = 200;
  if (request.method === 'POST') {
    await readForm(request);
    try {
      const started = await startRenewal(db, scope, who, nrApolice, today, at);
      return { redirect: started.href };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (refusal.status === 404) return undefined;
      status = refusal.status;
      failure = refusal.message;
    }
  }
  const summary = await renewalSummary(db, scope, who, nrApolice, today, at);
  if (!summary) return undefined;
  return { status, generation, summary, failure };
}
