import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import type { Generation } from '../../../lib/quote-flow';
import { insuredSendSchema, whatsappLinkSchema } from '../../../lib/insured-messages';
import { now } from '../../clock';
import { scopeFor } from '../../services/identity/scope';
import { sendToInsured, whatsappLink, type SendContext } from '../../services/after-sale/insured-sends';
import type { Context } from '../router';
import { viewerOf } from './policies';

/**
 * The insured kept informed, from the policy page (issue 31), both generations: send the policy or
 * an installment's boleto and Pix by e-mail, or make a WhatsApp share link. Outside the viewer's
 * scope (APOLICES for the policy, BOLETOS for a boleto) the same 404.
 */
const params = z.object({ nrApolice: z.string().regex(/^\d{1,20}$/, 'Apólice inválida.') });

async function contextOf(ctx: Context, generation: Generation, nrApolice: string): Promise<SendContext> {
  const viewer = await viewerOf(ctx, generation);
  const [policy, charge] = await Promise.all([scopeFor(ctx.db, viewer, 'APOLICES'), scopeFor(ctx.db, viewer, 'BOLETOS')]);
  return { db: ctx.db, viewer, scopes: { policy, charge }, generation, nrApolice, ip: ctx.ip, now: now() };
}

export function insuredMessageEndpoints(generation: Generation) {
  const auth = generation === 'v2' ? (['v2', 'simulador'] as const) : (['v1'] as const);
  return [
    endpoint({
      method: 'POST',
      path: '/v1/apolices/:nrApolice/envios',
      auth: [...auth],
      params,
      body: insuredSendSchema,
      async handle(ctx) {
        return { envio: await sendToInsured(await contextOf(ctx, generation, ctx.params.nrApolice), ctx.body) };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/apolices/:nrApolice/link-whatsapp',
      auth: [...auth],
      params,
      body: whatsappLinkSchema,
      async handle(ctx) {
        return await whatsappLink(await contextOf(ctx, generation, ctx.params.nrApolice), ctx.body);
      },
    }),
  ];
}
