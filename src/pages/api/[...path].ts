import type { APIRoute } from 'astro';
import { api } from '../../server/api';
import { database } from '../../server/boot/database';

/**
 * Every /api/* request goes to the API router (src/server/api), which owns parsing, auth and envelopes,
 * with the client as the middleware worked it out behind any trusted proxy (address, https, origins).
 */
export const ALL: APIRoute = ({ request, locals }) => api.handle(request, { ...locals.client, db: database });
