import { database } from '../../server/boot/database';
import { brasiliaDay } from '../../lib/format';
import { isInsurerStaff, viewerOf, type PortalSession, type SessionViewer } from '../../lib/session';
import type { DB } from '../../server/db';
import { recordDataAccess } from '../../server/services/identity/access-log';
import {
  CANCELLATION_STEPS,
  cancellationPath,
  effectiveDayWindow,
  type CancellationPreview,
  type CancellationStep,
  type EffectiveDayRules,
} from '../../lib/cancellation';
import { contractIdOf } from '../../lib/endorsement-home';
import { now } from '../../server/clock';
import { DomainError } from '../../server/errors';
import {
  cancellationBlocked,
  cancellationContext,
  effectiveDayRules,
  pendingStep,
  previewOf,
  type CancellationContext,
} from '../../server/services/after-sale/cancellation';
import { endorsementInScope, type ScopedEndorsement } from '../../server/services/after-sale/endorsements';
import { scopeFor } from '../../server/services/identity/scope';

/*
 * What the cancellation's pages need (issue 14), both generations: which step the address names,
 * the policy and the draft behind it, and where a step whose earlier ones are missing sends the
 * partner instead (a reload, a bookmark, a step typed ahead). Thin pages; this does the work.
 */

export type CancellationRouting =
  | { kind: 'not-found' }
  | { kind: 'redirect'; to: string }
  | { kind: 'blocked'; context: CancellationContext; reason: string; step: CancellationStep }
  | {
      kind: 'step';
      step: Exclude<CancellationStep, 'sucesso'>;
      context: CancellationContext;
      /** The effective day's rules for this viewer, and the days they leave (decision 055). */
      rules: EffectiveDayRules;
      window: { min: string; max: string };
      /** The resumo, once the draft has both answers. */
      preview: CancellationPreview | undefined;
    }
  | { kind: 'done'; context: CancellationContext; endorsement: ScopedEndorsement }
  | { kind: 'scheduled'; context: CancellationContext; scheduled: NonNullable<CancellationContext['scheduled']> };

const STEP_BY_PATH = new Map<string, CancellationStep>(CANCELLATION_STEPS.map((s) => [s.path, s.id]));
const ORDER = CANCELLATION_STEPS.map((s) => s.id);

/**
 * The step a page shows, and — each step shows the insured's name and document, the resumo and the
 * account step their refund and bank account — a row on the access log for each one shown (decision 049).
 */
export async function routeCancellation(
  generation: 'v1' | 'v2',
  session: PortalSession,
  passo: string,
  query: URLSearchParams,
  ip: string,
): Promise<CancellationRouting> {
  const db = await database();
  // The middleware's guard let only a signed-in viewer of this generation reach the page.
  const viewer = viewerOf(session, generation)!;
  const routing = await routed(db, viewer, passo, query);
  if (routing.kind !== 'not-found' && routing.kind !== 'redirect') {
    const step = routing.kind === 'done' || routing.kind === 'scheduled' ? 'sucesso' : routing.step;
    const label = CANCELLATION_STEPS.find((s) => s.id === step)!.label;
    await recordDataAccess(db, viewer, ip, 'apolice.cancelamento', routing.context.policy.nrApolice, `etapa ${label}`);
  }
  return routing;
}

async function routed(db: DB, viewer: SessionViewer, passo: string, query: URLSearchParams): Promise<CancellationRouting> {
  const { generation } = viewer;
  const step = STEP_BY_PATH.get(passo);
  const idContratacao = contractIdOf(query.get('contratacao'));
  if (!step || idContratacao === undefined) return { kind: 'not-found' };
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const today = brasiliaDay(now());
  const actor = { userId: viewer.user.idUsuario, insurerStaff: isInsurerStaff(viewer) };
  let context: CancellationContext;
  try {
    context = await cancellationContext(db, scope, generation, idContratacao, actor, today);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not-found') return { kind: 'not-found' };
    throw error;
  }

  if (step === 'sucesso') {
    // A schedule's page (no endorsement yet) shows the one the policy has, while it has one.
    if (!query.has('endosso'))
      return context.scheduled ? { kind: 'scheduled', context, scheduled: context.scheduled } : { kind: 'not-found' };
    const endorsement = await endorsementInScope(db, scope, generation, query.get('endosso') ?? '');
    if (!endorsement || endorsement.id_contratacao !== idContratacao || endorsement.tipo === 'CONTATO') return { kind: 'not-found' };
    return { kind: 'done', context, endorsement };
  }
  const reason = cancellationBlocked(context);
  if (reason) return { kind: 'blocked', context, reason, step };
  // A step ahead of the draft goes back to the first one it lacks.
  const pending = pendingStep(context.draft?.dados);
  if (ORDER.indexOf(step) > ORDER.indexOf(pending))
    return { kind: 'redirect', to: cancellationPath(generation, pending, { contratacao: idContratacao }) };
  const rules = effectiveDayRules(context);
  return { kind: 'step', step, context, rules, window: effectiveDayWindow(rules), preview: previewOf(context) };
}

/** The stepper's steps: those before the current one link back. */
export const stepperSteps = (generation: 'v1' | 'v2', idContratacao: number) =>
  CANCELLATION_STEPS.map((s) => ({ id: s.id, label: s.label, href: cancellationPath(generation, s.id, { contratacao: idContratacao }) }));
