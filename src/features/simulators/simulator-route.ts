import type { DB } from '../../server/db';
import { findSellableOffer, type SellableOffer } from '../../server/services/offers';
import { findQuote, latestOpenQuote } from '../../server/services/quotes';
import { sellerFromV2 } from '../../server/services/sellers';
import type { ApiBases } from '../../lib/http';
import { canSellLine } from '../../lib/offers';
import { productFor } from '../../lib/products/catalog';
import { lineFlow } from '../../lib/products/flow';
import type { ProductDef } from '../../lib/products/types';
import { parseSimulatorRoute, stepPath, stepsOf, type Generation, type QuoteStep } from '../../lib/quote-flow';
import type { QuoteView } from '../../lib/quotes';
import type { V2SessionUser } from '../../lib/session';
import { V2_SIMULATOR_CODES, type ProductLine } from '../../lib/simulators';

/**
 * Every route of a v2 simulator (SPEC §2) resolved before anything renders: the start of an offer,
 * each step of a saved quote, or a step without a number (resumes the latest open quote). The route
 * names the step; the quote decides whether it is editable; a step the quote has not reached leads
 * back to where it stands. Pages act on the answer (Astro can only redirect from a page itself).
 */
export interface SimulatorPageProps {
  generation: Generation;
  line: ProductLine;
  code: string;
  product: ProductDef;
  steps: QuoteStep[];
  step: QuoteStep;
  quote?: QuoteView;
  offer?: SellableOffer;
  readOnly: boolean;
  apis: ApiBases;
}

export type SimulatorRouting =
  | { kind: 'rewrite'; path: '/403' | '/404' }
  | { kind: 'redirect'; path: string }
  | { kind: 'render'; props: SimulatorPageProps };

const refuse = { kind: 'rewrite', path: '/403' } as const;
const notFound = { kind: 'rewrite', path: '/404' } as const;

export async function routeSimulator(db: DB, user: V2SessionUser, params: { linha?: string; passo?: string }, apis: ApiBases): Promise<SimulatorRouting> {
  const generation = 'v2';
  const line = params.linha as ProductLine;
  if (!V2_SIMULATOR_CODES.some((s) => s.line === line)) return notFound;
  if (!user.fullyAuthenticated || !canSellLine(user, line)) return refuse;

  const flow = lineFlow(line);
  const route = parseSimulatorRoute(line, (params.passo ?? '').split('/').filter(Boolean), flow);
  if (!route) return notFound;
  const seller = await sellerFromV2(db, user);

  if (route.kind === 'resume') {
    const nrCotacao = await latestOpenQuote(db, seller, line);
    return { kind: 'redirect', path: nrCotacao ? stepPath(generation, line, route.step, nrCotacao) : '/v2/home' };
  }

  const steps = stepsOf(flow);
  if (route.kind === 'start') {
    const offer = await findSellableOffer(db, user, route.nrOferta);
    const matches = offer && offer.line === line && (route.idSimulador === undefined || offer.idSimulador === route.idSimulador);
    if (!matches) return refuse;
    return { kind: 'render', props: { generation, line, code: offer.code, product: productFor(offer.code)!, steps, step: 'cadastro', offer, readOnly: false, apis } };
  }

  const quote = await findQuote(db, seller, route.nrCotacao);
  if (!quote || quote.line !== line) return notFound;
  if (!seller.canSell(quote.code)) return refuse;
  const product = productFor(quote.code)!;
  // Residential's proposal route shows its finalizacao.
  const target = route.step === 'proposta' && product.finalStep === 'finalizacao' ? 'finalizacao' : route.step;
  const sent = Boolean(quote.proposta);
  const reachable = steps.indexOf(target) <= steps.indexOf(quote.etapa) && (target !== product.finalStep || sent);
  if (target !== route.step || !reachable) {
    return { kind: 'redirect', path: stepPath(generation, line, reachable ? target : quote.etapa, quote.nrCotacao, { action: sent ? 'visualizar' : 'editar', sent }) };
  }
  const readOnly = !quote.editable || route.action === 'visualizar';
  return { kind: 'render', props: { generation, line, code: quote.code, product, steps, step: target, quote, readOnly, apis } };
}
