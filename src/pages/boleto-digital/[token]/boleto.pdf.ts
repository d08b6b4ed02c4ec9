import type { APIRoute } from 'astro';
import { boletoLinkPdf } from '../../../features/insured/insured-links.server';

/** The boleto's PDF through the insured's link (issue 31): the same token, the same 404 and 410. */
export const GET: APIRoute = async ({ params, locals, rewrite }) => {
  const outcome = await boletoLinkPdf(params.token ?? '', locals.client.ip);
  if (outcome instanceof Response) return outcome;
  if (outcome.kind === 'not-found') return rewrite('/404');
  locals.gone = outcome.gone;
  return rewrite('/410');
};
