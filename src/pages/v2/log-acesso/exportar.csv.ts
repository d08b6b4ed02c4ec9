import type { APIRoute } from 'astro';
import { accessLogExport } from '../../../features/access-log/access-log.server';

/** The access log as CSV: under the page's path, so the menu guard of Gestão › Log de Acesso covers it too. */
export const GET: APIRoute = ({ locals, url }) => accessLogExport(locals.session, url, locals.client.ip);
