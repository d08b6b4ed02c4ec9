import { database } from '../../server/database';
import { brasiliaDay } from '../../lib/format';
import { parsePolicyQuery, POLICY_FIELDS } from '../../lib/policies';
import { PRODUCTS } from '../../lib/products/catalog';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { findPolicy, listPolicies } from '../../server/services/policies';
import { CHARGED_METHODS, currentCharge, type ChargeView } from '../../server/services/charges';
import { qrSvg } from '../../server/qr';
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

export interface PayableCharge extends ChargeView {
  /** The Pix QR code as SVG markup (server/qr.ts). */
  qr: string;
}

/**
 * A policy of the viewer's scope, and — where the viewer may charge it (BOLETOS) — the boleto with
 * Pix of each open installment still payable, and whether an overdue one may get a 2ª via.
 */
export async function policyPage(generation: 'v1' | 'v2', session: PortalSession, nrApolice: string) {
  if (!/^\d{1,20}$/.test(nrApolice)) return undefined;
  const db = await database();
  const who = viewer(generation, session);
  const today = brasiliaDay(now());
  const policy = await findPolicy(db, await scopeFor(db, who, 'APOLICES'), generation, nrApolice, today);
  if (!policy) return undefined;
  if (!CHARGED_METHODS.includes(policy.formaPagamento)) return { policy, charges: {}, mayCharge: false };
  const boletos = await scopeFor(db, who, 'BOLETOS');
  const charges: Record<number, PayableCharge> = {};
  let mayCharge = false;
  for (const installment of policy.installments) {
    if (installment.status !== 'ABERTA' && installment.status !== 'VENCIDA') continue;
    const charge = await currentCharge(db, boletos, generation, nrApolice, installment.numero).catch(() => undefined);
    if (!charge) break; // outside the BOLETOS scope: no installment of this policy is charged here
    mayCharge = true;
    if (charge.vencimento >= today)
      charges[installment.numero] = { ...charge, qr: await qrSvg(charge.pixCopiaECola, `QR code Pix da parcela ${installment.numero}`) };
  }
  return { policy, charges, mayCharge };
}
