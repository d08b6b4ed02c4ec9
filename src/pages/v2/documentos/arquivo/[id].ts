import type { APIRoute } from 'astro';
import { downloadPage } from '../../../../features/documents/documents.server';

/** A document's file, for whoever's scope holds it (logged); any other id, existing or not, is the same 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) =>
  (await downloadPage('v2', locals.session, params.id, locals.client.ip)) ?? rewrite('/404');
