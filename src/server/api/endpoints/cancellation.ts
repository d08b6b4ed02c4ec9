import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { contractParams as params } from './endorsements';
import { viewerOf } from './policies';
import type { Generation } from '../../../lib/quote-flow';
import { brasiliaDay } from '../../../lib/format';
import { now } from '../../clock';
import { cancellationContext, confirmCancellation, saveCoverages, saveReason } from '../../services/cancellation';
import { scopeFor } from '../../services/scope';

/**
 * The cancellation of a policy (issue 14), both generations: each step's answer is kept in the
 * user's draft (PUT), the confirmation issues the endorsement once (POST). Whoever's APOLICES scope
 * holds the policy may cancel it; any other contract is a 404 (lib/scope.ts).
 */
async function contextOf(ctx: Context & { params: { idContratacao: number } }, generation: Generation) {
  const scope = await scopeFor(ctx.db, await viewerOf(ctx, generation), 'APOLICES');
  const instant = now();
  const context = await cancellationContext(ctx.db, scope, generation, ctx.params.idContratacao, ctx.auth.user.id, brasiliaDay(instant));
  return { context, instant };
}

export function cancellationEndpoints(generation: Generation) {
  const auth: ('v1' | 'v2' | 'simulador')[] = generation === 'v2' ? ['v2', 'simulador'] : ['v1'];
  return [
    endpoint({
      method: 'PUT',
      path: '/v1/apolices/:idContratacao/cancelamento/motivo',
      auth,
      params,
      body: z.unknown(),
      async handle(ctx) {
        const { context, instant } = await contextOf(ctx, generation);
        await saveReason(ctx.db, context, ctx.auth.user.id, ctx.body, instant);
        return { ok: true };
      },
    }),
    endpoint({
      method: 'PUT',
      path: '/v1/apolices/:idContratacao/cancelamento/coberturas',
      auth,
      params,
      body: z.unknown(),
      async handle(ctx) {
        const { context, instant } = await contextOf(ctx, generation);
        await saveCoverages(ctx.db, context, ctx.auth.user.id, ctx.body, instant);
        return { ok: true };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/apolices/:idContratacao/cancelamento',
      auth,
      params,
      body: z.object({ chave: z.uuid('Cancelamento inválido: recomece pelo motivo.'), conta: z.unknown().optional() }),
      async handle(ctx) {
        const scope = await scopeFor(ctx.db, await viewerOf(ctx, generation), 'APOLICES');
        return confirmCancellation(ctx.db, scope, generation, ctx.params.idContratacao, ctx.auth.user.id, ctx.body, now());
      },
    }),
  ];
}
