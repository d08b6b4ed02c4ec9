import type { APIRoute } from 'astro';
import { paymentsExport } from '../../features/payments/payments.server';

/**
 * The payments report as CSV: under /relatorio-pagamento, so the menu's guard of the page covers it
 * too (lib/route-guards.ts: a section prefix covers its subpaths).
 */
export const GET: APIRoute = ({ locals, url }) => paymentsExport(locals.session, url.searchParams, locals.client.ip);
