import { database } from '../../server/database';
import { brasiliaDay } from '../../lib/format';
import { parsePolicyQuery, POLICY_FIELDS } from '../../lib/policies';
import { PRODUCTS } from '../../lib/products/catalog';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { findPolicy, listPolicies } from '../../server/services/policies';
import { scopeFor } from '../../server/services/scope';

/** What the pages of Apólices need, for both generations: thin pages, this does the work. */
const PRODUCT_OPTIONS = Object.values(PRODUCTS).map((p) => ({ code: p.code, name: p.name }));
const PRODUCT_CODES = PRODUCT_OPTIONS.map((p) => p.code);

function viewer(generation: 'v1' | 'v2', session: PortalSession) {
  // The middleware's guard let only a signed-in viewer of this generation reach the page.
  return viewerOf(session, generation)!;
}

export async function policiesListPage(generation: 'v1' | 'v2', session: PortalSession, params: URLSearchParams) {
  const values = Object.fromEntries([...POLICY_FIELDS, 'page'].map((field) => [field, params.get(field) ?? undefined]));
  const query = parsePolicyQuery(values, PRODUCT_CODES);
  if (!query.ok) return { generation, values, errors: query.errors, products: PRODUCT_OPTIONS };
  const db = await database();
  const scope = await scopeFor(db, viewer(generation, session), 'APOLICES');
  const result = await listPolicies(db, scope, generation, query.filters, query.page, brasiliaDay(now()));
  return { generation, values, result, products: PRODUCT_OPTIONS };
}

export async function policyPage(generation: 'v1' | 'v2', session: PortalSession, nrApolice: string) {
  if (!/^\d{1,20}$/.test(nrApolice)) return undefined;
  const db = await database();
  const scope = await scopeFor(db, viewer(generation, session), 'APOLICES');
  return findPolicy(db, scope, generation, nrApolice, brasiliaDay(now()));
}
