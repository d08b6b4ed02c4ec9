import type { APIRoute } from 'astro';
import { userExportResponse } from '../../../../features/users/users-bulk.server';

/** The users list's filters as CSV (issue 32): under the list's path, so its guard covers it too. */
export const GET: APIRoute = ({ locals, url }) => userExportResponse('v2', locals.session, url, 'csv', locals.client.ip);
