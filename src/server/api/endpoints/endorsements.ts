import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import type { Generation } from '../../../lib/quote-flow';
import { contactSchema } from '../../../lib/endorsements';
import { endorsementReportHref } from '../../../lib/simulator-links';
import { now } from '../../clock';
import { scopeFor } from '../../services/identity/scope';
import { endorseContact } from '../../services/after-sale/endorsement-contact';
import { viewerOf } from './policies';

/**
 * Endorsements of a policy (issue 14), both generations: the BFF with the v2 session, the platform
 * API with the legacy one. Whoever's APOLICES scope holds the policy may endorse it; any other
 * contract, existing or not, is the same 404.
 */
/** A contract id in the path (policies.id_contratacao is an integer). */
export const contractParams = z.object({
  idContratacao: z.coerce.number().int().min(1, 'Contrato inválido.').max(2_147_483_647, 'Contrato inválido.'),
});

export function endorsementEndpoints(generation: Generation) {
  return [
    endpoint({
      method: 'POST',
      path: '/v1/apolices/:idContratacao/endossos/contato',
      auth: generation === 'v2' ? ['v2', 'simulador'] : ['v1'],
      params: contractParams,
      body: contactSchema,
      async handle(ctx) {
        const viewer = await viewerOf(ctx, generation);
        const scope = await scopeFor(ctx.db, viewer, 'APOLICES');
        const endorsement = await endorseContact(ctx.db, scope, generation, ctx.params.idContratacao, ctx.body, ctx.auth.user.id, now());
        return { endosso: { ...endorsement, pdf: endorsementReportHref(generation, endorsement.nrApolice, endorsement.nrEndosso) } };
      },
    }),
  ];
}
