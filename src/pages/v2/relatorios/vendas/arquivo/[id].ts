import type { APIRoute } from 'astro';
import { reportDownload } from '../../../../../features/reports/reports.server';

/** A ready sales report, for whoever asked for it (or sees every sale), logged; any other id is the same 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) =>
  (await reportDownload('v2', locals.session, params.id, locals.client.ip)) ?? rewrite('/404');
