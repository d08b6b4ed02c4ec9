import { stepPath as portalStepPath, type Action, type Generation, type QuoteStep } from '../../../lib/quote-flow';
import { embeddedStepPath } from '../../../lib/embedded-apps';
import type { ProductLine } from '../../../lib/simulators';

/**
 * lib/quote-flow as the embedded apps' bundles see it (scripts/build-embedded-apps.mjs swaps it in
 * for the simulator step components): the same flow, but a step's address is the app's own
 * `{base}/cotacao/{nr}/{step}[/{action}]`, so saving a step stays inside the app. The portal's
 * pages keep the real module.
 */
export * from '../../../lib/quote-flow';

let appBase: string | undefined;

/** Set by the app when it mounts: the base path its steps live under. */
export function setEmbeddedBase(basePath: string): void {
  appBase = basePath;
}

export function stepPath(
  generation: Generation,
  line: ProductLine,
  step: QuoteStep,
  nrCotacao: string,
  options: { action?: Action; sent?: boolean; pinned?: boolean } = {},
): string {
  if (!appBase) return portalStepPath(generation, line, step, nrCotacao, options);
  return embeddedStepPath({ basePath: appBase }, nrCotacao, step, options.action);
}
