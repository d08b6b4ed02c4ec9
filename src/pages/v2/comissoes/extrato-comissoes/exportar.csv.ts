import type { APIRoute } from 'astro';
import { statementExport } from '../../../../features/commissions/commissions.server';

/** The statement as CSV: under the page's path, so the menu guard (and "outside production only") covers it. */
export const GET: APIRoute = async ({ locals, url, rewrite }) =>
  (await statementExport(locals.session, url.searchParams, locals.client.ip)) ?? rewrite('/404');
