import { database } from '../../server/boot/database';
import { brasiliaDay } from '../../lib/format';
import { parsePolicyQuery, POLICY_FIELDS } from '../../lib/policies';
import { PRODUCTS } from '../../lib/products/catalog';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { findPolicy, listPolicies } from '../../server/services/after-sale/policies';
import { payableCharges, type ChargeView } from '../../server/services/after-sale/charges';
import { qrSvg } from '../../server/qr';
import { isPayableOn, secondCopyWindow } from '../../lib/charges';
import { sendableInstallments } from '../../lib/insured-messages';
import { scopeFor } from '../../server/services/identity/scope';
import { endorsementHistory } from '../../server/services/after-sale/endorsements';
import { scheduledCancellationOf } from '../../server/services/after-sale/cancellation';
import { recordDataAccess } from '../../server/services/identity/access-log';
import { config } from '../../server/config';
import { pageAccess } from '../../lib/route-guards';
import { withReadablePage } from '../../lib/list-query';
import { pageRequestOf } from '../../lib/keyset-pages';

/** The legacy lookup of a policy's installments and payments (CLIENTES_CONSULTA_PAGAMENTO), linked from the policy. */
const PAYMENTS_LOOKUP = '/consulta-pagamento';

/** What the pages of Apólices need, for both generations: thin pages, this does the work. */
const PRODUCT_OPTIONS = Object.values(PRODUCTS).map((p) => ({ code: p.code, name: p.name }));

function viewer(generation: 'v1' | 'v2', session: PortalSession) {
  // The middleware's guard let only a signed-in viewer of this generation reach the page.
  return viewerOf(session, generation)!;
}

export async function policiesListPage(generation: 'v1' | 'v2', session: PortalSession, params: URLSearchParams) {
  const values = Object.fromEntries(POLICY_FIELDS.map((field) => [field, params.get(field) ?? undefined]));
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts); past
  // page 1 a link's cursor says where the page starts (lib/keyset-pages.ts).
  const query = parsePolicyQuery(withReadablePage(params));
  if (!query.ok) return { generation, values, errors: query.errors, products: PRODUCT_OPTIONS };
  const db = await database();
  const scope = await scopeFor(db, viewer(generation, session), 'APOLICES');
  const today = brasiliaDay(now());
  const result = await listPolicies(db, scope, generation, query.filters, pageRequestOf(query.page, params.get('cursor')), today);
  return { generation, values, result, products: PRODUCT_OPTIONS };
}

export interface PayableCharge extends ChargeView {
  /** The Pix QR code as SVG markup (server/qr.ts). */
  qr: string;
}

/**
 * A policy of the viewer's scope (each view logged), and — where the viewer may charge it (BOLETOS) — the boleto with
 * Pix of each open installment still payable, whether an overdue one may get a 2ª via, and what may be sent to the insured.
 */
export async function policyPage(generation: 'v1' | 'v2', session: PortalSession, nrApolice: string, ip: string) {
  if (!/^\d{1,20}$/.test(nrApolice)) return undefined;
  const db = await database();
  const who = viewer(generation, session);
  const today = brasiliaDay(now());
  const policy = await findPolicy(db, await scopeFor(db, who, 'APOLICES'), generation, nrApolice, today);
  if (!policy) return undefined;
  // The insured's data is about to be shown: the access log says who saw it (decision 049).
  await recordDataAccess(db, who, ip, 'apolice.pagina', policy.nrApolice);
  const open = await payableCharges(db, await scopeFor(db, who, 'BOLETOS'), generation, nrApolice);
  const charges: Record<number, PayableCharge> = {};
  for (const [numero, charge] of Object.entries(open ?? {}))
    if (isPayableOn(charge, today))
      charges[Number(numero)] = { ...charge, qr: await qrSvg(charge.pixCopiaECola, `QR code Pix da parcela ${numero}`) };
  const mayCharge = open !== undefined && Object.keys(open).length > 0;
  // What "Enviar ao segurado" offers: each open installment, an overdue one with the 2ª via its send issues.
  const sendable = open === undefined ? [] : sendableInstallments(open, today);
  // The refunds a cancellation left, owed or paid: the endorsements carry them.
  const refunds = (await endorsementHistory(db, policy.id)).filter((e) => e.restituicao !== null);
  const scheduledCancellation = await scheduledCancellationOf(db, policy.id);
  const paymentsHref =
    generation === 'v1' && pageAccess(PAYMENTS_LOOKUP, who, config().PORTAL_ENV) === 'allowed'
      ? `${PAYMENTS_LOOKUP}?nrApolice=${policy.nrApolice}`
      : undefined;
  return { policy, charges, mayCharge, sendable, dueWindow: secondCopyWindow(today), refunds, scheduledCancellation, paymentsHref };
}
