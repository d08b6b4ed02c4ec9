import type { APIRoute } from 'astro';
import { api } from '../../server/api';
import { database } from '../../server/db';

/** Every /api/* request goes to the API router (src/server/api), which owns parsing, auth and envelopes. */
export const ALL: APIRoute = ({ request, clientAddress }) => api.handle(request, { ip: clientAddress, db: database });
