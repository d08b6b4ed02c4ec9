import type { APIRoute } from 'astro';
import { resultResponse } from '../../../features/user-import/import.server';

/** The result of one of the viewer's imports (line, e-mail, result, reason); any other is the 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) =>
  (await resultResponse('v1', locals.session, params.id)) ?? rewrite('/404');
