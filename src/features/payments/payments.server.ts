import { csvResponse } from '../../server/api/download';
import { database } from '../../server/boot/database';
import { brasiliaDay, formatIsoDate } from '../../lib/format';
import { secondCopyWindow } from '../../lib/charges';
import {
  boletoOffer,
  csvFileName,
  isBlankSearch,
  parsePaymentSearch,
  parsePeriodQuery,
  REPORT_FIELDS,
  SEARCH_FIELDS,
  type BoletoOffer,
} from '../../lib/payments';
import { withReadablePage } from '../../lib/list-query';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { qrSvg } from '../../server/qr';
import {
  listInstallments,
  paymentsCsv,
  paymentsReport,
  receiptsToReview,
  type InstallmentLine,
  type ReceiptLine,
} from '../../server/services/after-sale/payments';
import { parseReceiptsQuery, type ReceiptsTab } from '../../lib/receipts';
import { pageRequestOf } from '../../lib/keyset-pages';
import type { Paged } from '../../lib/list-query';
import { scopeFor } from '../../server/services/identity/scope';
import { recordDataAccess } from '../../server/services/identity/access-log';

/*
 * What the payment pages need (issue 13): /v2/boleto, /consulta-pagamento and /relatorio-pagamento
 * with its CSV. The pages stay thin; every read goes through the viewer's BOLETOS scope.
 */

async function boletosScope(generation: 'v1' | 'v2', session: PortalSession) {
  const db = await database();
  // The middleware's guard let only a signed-in viewer of this generation, allowed by the menu, in.
  return { db, scope: await scopeFor(db, viewerOf(session, generation)!, 'BOLETOS') };
}

const valuesOf = (fields: readonly string[], params: URLSearchParams) =>
  Object.fromEntries(fields.map((field) => [field, params.get(field) ?? undefined]));

/**
 * A lookup's installments: none before a search, the field errors of a bad one (a 400). A search
 * that finds an insured's installments is a view of their data: logged with the policies it shows
 * and how they were searched for — never the CPF or name typed (decision 049).
 */
async function installmentsPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  params: URLSearchParams,
  ip: string,
  view: 'parcelas.consulta' | 'parcelas.boleto',
) {
  const values = valuesOf(SEARCH_FIELDS, params);
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const query = parsePaymentSearch(withReadablePage(params));
  if (!query.ok) return { status: 400, values, errors: query.errors };
  if (isBlankSearch(query.filters)) return { status: 200, values };
  const { db, scope } = await boletosScope(generation, session);
  const today = brasiliaDay(now());
  // /v2/boleto offers what is still to be paid; the legacy lookup shows every installment.
  // Past page 1 a link's cursor says where the page starts (lib/keyset-pages.ts).
  const result = await listInstallments(db, scope, generation, query.filters, pageRequestOf(query.page, params.get('cursor')), today, {
    openOnly: view === 'parcelas.boleto',
  });
  if (result.content.length > 0) {
    const searched = query.filters.nrApolice ? 'busca por apólice' : 'busca por segurado';
    await recordDataAccess(
      db,
      viewerOf(session, generation)!,
      ip,
      view,
      result.content.map((line) => line.nrApolice),
      searched,
    );
  }
  return { status: 200, values, result, today };
}

export interface BoletoLine extends InstallmentLine {
  offer: BoletoOffer;
  /** The Pix QR code of an issued 2ª via, as SVG markup (server/qr.ts). */
  qr?: string;
}

/** /v2/boleto: the unpaid installments of a search, each with what may be done about its boleto. */
export async function boletoPage(session: PortalSession, params: URLSearchParams, ip: string) {
  const page = await installmentsPage('v2', session, params, ip, 'parcelas.boleto');
  // The insurer's ADMIN (a scope of every sale) also looks at the receipts that did not simply pay (decision 059).
  const reviewsReceipts = (await boletosScope('v2', session)).scope.kind === 'all';
  if (!page.result) return { ...page, reviewsReceipts, dueWindow: secondCopyWindow(brasiliaDay(now())) };
  const today = page.today!;
  const content: BoletoLine[] = [];
  for (const line of page.result.content) {
    const offer = boletoOffer(line, today)!;
    const qr =
      offer === 'segunda-via-emitida'
        ? await qrSvg(line.charge!.pixCopiaECola, `QR code Pix da 2ª via da parcela ${line.numero} da apólice ${line.nrApolice}`)
        : undefined;
    content.push({ ...line, offer, qr });
  }
  return { ...page, reviewsReceipts, result: { ...page.result, content }, dueWindow: secondCopyWindow(today) };
}

/** /consulta-pagamento: every installment of a search, paid or not. */
export const paymentsLookupPage = (session: PortalSession, params: URLSearchParams, ip: string) =>
  installmentsPage('v1', session, params, ip, 'parcelas.consulta');

/** /relatorio-pagamento: the payments of a period (the current month by default). */
export async function paymentsReportPage(session: PortalSession, params: URLSearchParams) {
  const values = valuesOf(REPORT_FIELDS, params);
  const query = parsePeriodQuery(withReadablePage(params), brasiliaDay(now()));
  if (!query.ok) return { status: 400, values, errors: query.errors };
  const { db, scope } = await boletosScope('v1', session);
  // Past page 1 a link's cursor says where the page starts (lib/keyset-pages.ts); a page past the
  // last shows the last. The totals are the period's either way.
  const report = await paymentsReport(db, scope, 'v1', query.filters, pageRequestOf(query.page, params.get('cursor')));
  return { status: 200, values, period: query.filters, ...report };
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** /relatorio-pagamento/exportar.csv: the same period and scope as the page, as a CSV download. */
export async function paymentsExport(session: PortalSession, params: URLSearchParams, ip: string): Promise<Response> {
  const query = parsePeriodQuery(params, brasiliaDay(now()));
  if (!query.ok) {
    const messages = Object.values(query.errors).flat();
    return new Response(`Período inválido: ${messages.join(' ')}`, { status: 400, headers: TEXT });
  }
  const { db, scope } = await boletosScope('v1', session);
  // Names of insureds leave the portal in this file: the export is on the access log (decision 049).
  const period = `${formatIsoDate(query.filters.de)} a ${formatIsoDate(query.filters.ate)}`;
  await recordDataAccess(db, viewerOf(session, 'v1')!, ip, 'pagamentos.csv', [], `de ${period}`);
  const csv = paymentsCsv(db, scope, 'v1', query.filters);
  return csvResponse(csv, csvFileName(query.filters));
}

/**
 * /v2/boleto/recebimentos: the receipts the insurer looks at — partial payments, money to give back
 * (decision 059). The menu guard of /v2/boleto lets in whoever holds BOLETOS_*; only a viewer whose
 * scope is every sale (the insurer's ADMIN) gets the list, anyone else the 403 page.
 */
export async function receiptsPage(
  session: PortalSession,
  params: URLSearchParams,
): Promise<{ kind: 'forbidden' } | { kind: 'page'; status: number; props: ReceiptsPageProps }> {
  const { db, scope } = await boletosScope('v2', session);
  const query = parseReceiptsQuery(params);
  const page = query.ok ? query.page : 1;
  const tab = (query.ok && query.filters.situacao) || 'a-conferir';
  const found = await receiptsToReview(db, scope, page, tab);
  if (!found) return { kind: 'forbidden' };
  return { kind: 'page', status: query.ok ? 200 : 400, props: { ...found, tab, errors: query.ok ? undefined : query.errors } };
}

export interface ReceiptsPageProps {
  receipts: Paged<ReceiptLine>;
  owedBack: number;
  tab: ReceiptsTab;
  errors?: Record<string, string[]>;
}
