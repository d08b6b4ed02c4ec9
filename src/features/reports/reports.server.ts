import { database } from '../../server/boot/database';
import { notFoundAsUndefined, recordIdOf } from '../controller.server';
import { downloadResponse } from '../../server/api/download';
import { now } from '../../server/clock';
import { config } from '../../server/config';
import { fileStore } from '../../server/files';
import { salesDataScopeFor } from '../../server/services/identity/scope';
import { recordDataAccess } from '../../server/services/identity/access-log';
import { metricsOptions, type MetricsOptions } from '../../server/services/reporting/metrics';
import {
  listReports,
  reportFile,
  requestReport,
  retryReport,
  type Requester,
  type ReportView,
} from '../../server/services/reporting/sales-reports';
import { brasiliaDay } from '../../lib/format';
import { addDays } from '../../lib/calendar';
import { parseReportRequest, REPORT_MESSAGES } from '../../lib/sales-reports';
import { pageWithin, withReadablePage, type Paged } from '../../lib/list-query';
import { viewerOf, type PortalSession } from '../../lib/session';
import { pageAccess } from '../../lib/route-guards';

/** What the sales report pages need (issue 15, decision 042), for both generations: thin pages, this does the work. */

export const REPORT_PAGES = {
  v1: { novo: '/novo-relatorio-vendas', lista: '/relatorio-vendas', arquivo: '/relatorio-vendas/arquivo' },
  v2: { novo: '/v2/relatorios/vendas/cadastro', lista: '/v2/relatorios/vendas/consulta', arquivo: '/v2/relatorios/vendas/arquivo' },
} as const;

async function context(generation: 'v1' | 'v2', session: PortalSession) {
  // The middleware's guard let only a viewer the menu rule allows reach these pages.
  const viewer = viewerOf(session, generation)!;
  const db = await database();
  const { scope } = await salesDataScopeFor(db, viewer, 'RELATORIOS');
  const requester: Requester = { userId: viewer.user.idUsuario, generation, seesAll: scope.kind === 'all' };
  return { db, scope, requester, today: brasiliaDay(now()) };
}

export interface RequestPageProps {
  status: number;
  generation: 'v1' | 'v2';
  options: MetricsOptions;
  /** The form's values (products may be several) and its messages. */
  values: { single: Record<string, string>; produtos: string[] };
  errors?: Record<string, string[]>;
  today: string;
}

/**
 * The request form (GET), and its POST: a request checked and stored answers 303 to the list, where
 * its progress shows; a bad one, the form again with its messages and values.
 */
export async function requestPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  request: Request,
): Promise<RequestPageProps | { redirect: string }> {
  const { db, scope, requester, today } = await context(generation, session);
  const options = await metricsOptions(db, scope, generation);
  const defaults = { single: { de: addDays(today, -29), ate: today, tipo: 'apolices', formato: 'csv' }, produtos: [] };
  if (request.method !== 'POST') return { status: 200, generation, options, values: defaults, today };

  const form = new URLSearchParams();
  for (const [key, value] of await request.formData()) if (typeof value === 'string') form.append(key, value);
  const values = {
    single: Object.fromEntries(['de', 'ate', 'tipo', 'formato', 'empresa', 'pontoVenda', 'vendedor'].map((k) => [k, form.get(k) ?? ''])),
    produtos: form.getAll('produtos'),
  };
  const parsed = parseReportRequest(form, today);
  const stored = parsed.ok ? await requestReport(db, requester, scope, options, parsed.value) : parsed;
  // Over the per-user cap (decision 058) it is 429, too many at once, with the same kind of message.
  if (!stored.ok) return { status: 'busy' in stored ? 429 : 400, generation, options, values, errors: stored.errors, today };
  return { redirect: `${REPORT_PAGES[generation].lista}?novo=${stored.id}` };
}

export interface ReportsPageProps {
  status: number;
  generation: 'v1' | 'v2';
  result: Paged<ReportView>;
  /** The report just asked for (?novo=), or asked again. */
  highlight?: number;
  /** Whether the page refreshes itself while a report is being made (?atualizar=nao stops it). */
  refresh: boolean;
  message?: string;
  /** Whether the viewer may open the request page: the list links it in every environment (issue 27). */
  canRequest: boolean;
}

const RETRY_MESSAGES: Record<string, string> = {
  recusado: 'Só um relatório seu que terminou em erro pode ser pedido de novo.',
  cheia: REPORT_MESSAGES.fila,
};

/** The reports of the requester (every one for whoever sees every sale); a POST asks again for one in error. */
export async function reportsPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  request: Request,
  url: URL,
): Promise<ReportsPageProps | { redirect: string }> {
  const { db, requester } = await context(generation, session);
  if (request.method === 'POST') {
    const id = Number((await request.formData()).get('refazer'));
    const again = Number.isInteger(id) && id > 0 && id < 2_000_000_000 ? await retryReport(db, requester, id) : 'recusado';
    return { redirect: `${REPORT_PAGES[generation].lista}${again === 'fila' ? `?novo=${id}` : `?refazer=${again}`}` };
  }
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const page = Number(withReadablePage(url.searchParams).get('page') ?? 1);
  const result = await pageWithin(page, (p) => listReports(db, requester, p));
  const pending = result.content.some((r) => r.status === 'NA_FILA' || r.status === 'GERANDO');
  const highlight = Number(url.searchParams.get('novo'));
  return {
    status: 200,
    generation,
    result,
    highlight: Number.isInteger(highlight) && highlight > 0 ? highlight : undefined,
    refresh: pending && url.searchParams.get('atualizar') !== 'nao',
    message: RETRY_MESSAGES[url.searchParams.get('refazer') ?? ''],
    canRequest: pageAccess(REPORT_PAGES[generation].novo, viewerOf(session, generation)!, config().PORTAL_ENV) === 'allowed',
  };
}

/** A ready report's file, or undefined (the 404 page) for anyone else's or one not ready. */
export async function reportDownload(
  generation: 'v1' | 'v2',
  session: PortalSession,
  id: string | undefined,
  ip: string,
): Promise<Response | undefined> {
  const recordId = recordIdOf(id);
  if (recordId === undefined) return undefined;
  const { db, requester } = await context(generation, session);
  const file = await notFoundAsUndefined(reportFile(db, fileStore(), requester, recordId));
  if (!file) return undefined;
  // A report lists insureds' names: each download is on the access log (decision 049).
  await recordDataAccess(db, viewerOf(session, generation)!, ip, 'relatorio-vendas.arquivo', String(recordId));
  return downloadResponse(file);
}
