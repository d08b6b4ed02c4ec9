import type { APIRoute } from 'astro';
import { templateResponse } from '../../features/user-import/import.server';

/** The template of the import file: its header and one example line that validates for the viewer; who may not import gets the 404 page. */
export const GET: APIRoute = async ({ locals, rewrite }) => (await templateResponse('v1', locals.session)) ?? rewrite('/404');
