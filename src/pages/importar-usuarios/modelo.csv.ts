import type { APIRoute } from 'astro';
import { templateResponse } from '../../features/user-import/import-route';

/** The template of the import file: its header and one example line. */
export const GET: APIRoute = () => templateResponse('v1');
