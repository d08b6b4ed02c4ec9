import type { APIRoute } from 'astro';
import { ledgerCsvDownload } from '../../../../features/policies/ledger.server';

/** The policy's ledger as CSV (issue 31), scoped like its page: any other number is the same 404 page. */
export const GET: APIRoute = async ({ locals, params, rewrite }) =>
  (await ledgerCsvDownload('v2', locals.session, params.nrApolice ?? '', locals.client.ip)) ?? rewrite('/404');
