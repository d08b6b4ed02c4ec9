import type { APIRoute } from 'astro';
import { notaDownload } from '../../../../../features/commissions/commissions.server';

/** A nota's file, for whoever sees its company; any other id, existing or not, is the same 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) => (await notaDownload(locals.session, params.id)) ?? rewrite('/404');
