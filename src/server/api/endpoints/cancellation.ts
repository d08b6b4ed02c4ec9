import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { contractParams as params } from './endorsements';
import { viewerOf } from './policies';
import type { Generation } from '../../../lib/quote-flow';
import { brasiliaDay } from '../../../lib/format';
import { now } from '../../clock';
import {
  cancellationContext,
  confirmCancellation,
  saveCoverages,
  saveReason,
  undoScheduledCancellation,
  type CancellationActor,
} from '../../services/after-sale/cancellation';
import { scopeFor } from '../../services/identity/scope';
import { isInsurerStaff } from '../../../lib/session';

/**
 * The cancellation of a policy (issue 14), both generations: each step's answer is kept in the
 * user's draft (PUT), the confirmation issues the endorsement once — or schedules it, for a day
 * ahead (POST); a scheduled one may be undone before its day (DELETE). Whoever's APOLICES scope holds
 * the policy may cancel it; any other contract is a 404 (lib/scope.ts).
 */
async function actorOf(ctx: Context, generation: Generation) {
  const viewer = await viewerOf(ctx, generation);
  const actor: CancellationActor = { userId: ctx.auth.user.id, insurerStaff: isInsurerStaff(viewer) };
  return { actor, scope: await scopeFor(ctx.db, viewer, 'APOLICES') };
}

async function contextOf(ctx: Context & { params: { idContratacao: number } }, generation: Generation) {
  const { actor, scope } = await actorOf(ctx, generation);
  const instant = now();
  const context = await cancellationContext(ctx.db, scope, generation, ctx.params.idContratacao, actor, brasiliaDay(instant));
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
        await saveReason(ctx.db, context, ctx.body, instant);
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
        await saveCoverages(ctx.db, context, ctx.body, instant);
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
        const { actor, scope } = await actorOf(ctx, generation);
        return confirmCancellation(ctx.db, scope, generation, ctx.params.idContratacao, actor, ctx.body, now());
      },
    }),
    endpoint({
      method: 'DELETE',
      path: '/v1/apolices/:idContratacao/cancelamento/agendado',
      auth,
      params,
      async handle(ctx) {
        const { actor, scope } = await actorOf(ctx, generation);
        return undoScheduledCancellation(ctx.db, scope, generation, ctx.params.idContratacao, actor, now());
      },
    }),
  ];
}
