import type { APIRoute } from 'astro';
import { underwriterDownload } from '../../../../../features/proposals/analysis.server';

/** A document from the analysis queue, for the provider's ADMIN (logged); any other id is the 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) =>
  (await underwriterDownload(locals.session, params.id, locals.client.ip)) ?? rewrite('/404');
