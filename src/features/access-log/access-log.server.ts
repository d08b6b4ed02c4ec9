import { csvResponse } from '../../server/api/download';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { config } from '../../server/config';
import { exportAccessLog, listAccessLog } from '../../server/services/identity/access-log';
import {
  ACCESS_LOG_EXPORT_PATH,
  ACCESS_LOG_FIELDS,
  ACCESS_LOG_PAGE_SIZE,
  accessLogCsvFileName,
  accessLogHref,
  filterValues,
  parseAccessLogQuery,
  type AccessLogField,
  type AccessLogRow,
} from '../../lib/access-log';
import { brasiliaDay } from '../../lib/format';
import { withReadablePage } from '../../lib/list-query';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { viewerOf, type PortalSession, type SessionViewer } from '../../lib/session';
import type { Routed } from '../controller.server';

/*
 * What /v2/log-acesso and its CSV need (issue 17, decision 049): a plain GET form of filters, a page
 * of rows newest first with the page in the address, and the same rows as CSV. Only the insurer's
 * ADMIN reads the log: the menu's guard already refuses everyone else, and this asks again.
 */

export interface AccessLogPageProps {
  values: Record<AccessLogField, string>;
  errors?: Record<string, string[]>;
  result?: KeysetPage<AccessLogRow>;
  /** The CSV of the filters shown (absent while they are refused). */
  exportHref?: string;
  retentionDays: number;
}

/** The signed-in insurer's ADMIN, or undefined for anyone else. */
function admin(session: PortalSession): SessionViewer | undefined {
  const viewer = viewerOf(session, 'v2');
  return viewer?.user.profile === 'ADMIN' ? viewer : undefined;
}

const typed = (params: URLSearchParams) =>
  Object.fromEntries(ACCESS_LOG_FIELDS.map((field) => [field, params.get(field) ?? ''])) as Record<AccessLogField, string>;

export async function accessLogPage(session: PortalSession, url: URL): Promise<Routed<AccessLogPageProps, 'forbidden'>> {
  if (!admin(session)) return { kind: 'forbidden' };
  const retentionDays = config().ACCESS_LOG_RETENTION_DAYS;
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const query = parseAccessLogQuery(withReadablePage(url.searchParams, 'pagina'), brasiliaDay(now()));
  if (!query.ok) return { kind: 'page', status: 400, props: { values: typed(url.searchParams), errors: query.errors, retentionDays } };
  const db = await database();
  // Past page 1 a link's cursor says where the page starts (lib/keyset-pages.ts).
  const result = await listAccessLog(db, query.filters, pageRequestOf(query.page, url.searchParams.get('cursor')), ACCESS_LOG_PAGE_SIZE);
  const values = filterValues(query.filters);
  return {
    kind: 'page',
    status: 200,
    props: { values, result, exportHref: accessLogHref(values, 1, ACCESS_LOG_EXPORT_PATH), retentionDays },
  };
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** /v2/log-acesso/exportar.csv: every row of the filters (no page), streamed; the export is itself logged. */
export async function accessLogExport(session: PortalSession, url: URL, ip: string): Promise<Response> {
  const viewer = admin(session);
  if (!viewer) return new Response('Apenas o administrador da seguradora exporta o log de acesso.', { status: 403, headers: TEXT });
  const query = parseAccessLogQuery(url.searchParams, brasiliaDay(now()));
  if (!query.ok) return new Response(`Filtros inválidos: ${Object.values(query.errors).flat().join(' ')}`, { status: 400, headers: TEXT });
  const csv = await exportAccessLog(await database(), viewer, ip, query.filters);
  return csvResponse(csv, accessLogCsvFileName(query.filters));
}
