import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import type { Generation } from '../../../lib/quote-flow';
import { now } from '../../clock';
import { secondCopy } from '../../services/after-sale/charges';
import { scopeFor } from '../../services/identity/scope';
import { loadV1User, loadV2User } from '../../services/identity/principals';
import type { SessionViewer } from '../../../lib/session';
import type { Context } from '../router';

/**
 * The installments of a policy (issue 13): a 2ª via of an overdue one with a new due date, in both
 * generations (the BFF with the v2 session, the platform API with the legacy one). The scope of
 * BOLETOS decides which policies a user may charge (lib/scope.ts).
 */
const params = z.object({
  nrApolice: z.string().regex(/^\d{1,20}$/, 'Apólice inválida.'),
  numero: z.coerce.number().int().min(1, 'Parcela inválida.').max(99, 'Parcela inválida.'),
});
const isoDay = z.string('Escolha o novo vencimento.').regex(/^\d{4}-\d{2}-\d{2}$/, 'Escolha o novo vencimento.');

/** The signed-in user as the scopes read them, from the API's session of either generation. */
export async function viewerOf(ctx: Context, generation: Generation): Promise<SessionViewer> {
  return generation === 'v2'
    ? { generation, user: await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false }) }
    : { generation, user: await loadV1User(ctx.db, ctx.auth.user) };
}

export function policyEndpoints(generation: Generation) {
  return [
    endpoint({
      method: 'POST',
      path: '/v1/apolices/:nrApolice/parcelas/:numero/segunda-via',
      auth: generation === 'v2' ? ['v2', 'simulador'] : ['v1'],
      params,
      body: z.object({ vencimento: isoDay }),
      async handle(ctx) {
        const viewer = await viewerOf(ctx, generation);
        const scope = await scopeFor(ctx.db, viewer, 'BOLETOS');
        const boleto = await secondCopy(
          ctx.db,
          scope,
          generation,
          ctx.params.nrApolice,
          ctx.params.numero,
          ctx.body.vencimento,
          ctx.auth.user.id,
          now(),
        );
        return { boleto };
      },
    }),
  ];
}
