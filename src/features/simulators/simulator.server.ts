import type { DB } from '../../server/db';
import { findSellableOffer, findSellableOfferV1, sellableOffersV1, type SellableOffer } from '../../server/services/network/offers';
import { findQuote, latestOpenQuote, latestProposal, type Seller } from '../../server/services/selling/quotes';
import { sellerFromV1, sellerFromV2 } from '../../server/services/selling/sellers';
import { recordDataAccess } from '../../server/services/identity/access-log';
import type { ApiBases } from '../../lib/http';
import { canSellLine, canSellLineV1 } from '../../lib/offers';
import { HOME_PATH } from '../../lib/paths';
import { productFor } from '../../lib/products/catalog';
import { lineFlow } from '../../lib/products/flow';
import type { ProductDef } from '../../lib/products/types';
import { parseSimulatorRoute, stepPath, stepsOf, type Generation, type QuoteStep } from '../../lib/quote-flow';
import type { QuoteView } from '../../lib/quotes';
import type { SessionViewer } from '../../lib/session';
import { LEGACY_LINES, V2_SIMULATOR_CODES, type ProductLine } from '../../lib/simulators';

/**
 * Every route of a simulator of either generation (SPEC §2) resolved before anything renders: the
 * start of an offer, each step of a saved quote, or a step without a number (resumes the latest open
 * quote; legacy finalizacao, the latest proposal). In legacy the plain cadastro starts a new
 * simulation: with ?oferta= or a single offer of the line it starts it, with several it lets the
 * user choose. The route names the step; the quote decides whether it is editable; a step the quote
 * has not reached leads back to where it stands. Pages act on the answer (Astro can only redirect
 * from a page itself).
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
  /** Legacy plain cadastro of a line with several offers (or none): the page lists them. */
  | { kind: 'choose'; line: ProductLine; offers: SellableOffer[] }
  | { kind: 'render'; props: SimulatorPageProps };

const refuse = { kind: 'rewrite', path: '/403' } as const;
const notFound = { kind: 'rewrite', path: '/404' } as const;

/** What differs between the generations: lines, who may open them, the seller and the offers reached. */
interface SellingSide {
  lines: readonly ProductLine[];
  mayOpen(line: ProductLine): boolean;
  seller(): Promise<Seller>;
  offer(nrOferta: number): Promise<SellableOffer | undefined>;
  offersOfLine(line: ProductLine): Promise<SellableOffer[]>;
}

const V2_LINES: readonly ProductLine[] = [...new Set(V2_SIMULATOR_CODES.map((s) => s.line))];

function sellingSide(db: DB, viewer: SessionViewer): SellingSide {
  if (viewer.generation === 'v2') {
    const { user } = viewer;
    return {
      lines: V2_LINES,
      mayOpen: (line) => user.fullyAuthenticated && canSellLine(user, line),
      seller: () => sellerFromV2(db, user),
      offer: (nr) => findSellableOffer(db, user, nr),
      offersOfLine: async () => [], // v2 starts at cadastro/iniciar, chosen on /v2/home/{code}
    };
  }
  const { user } = viewer;
  return {
    lines: LEGACY_LINES,
    mayOpen: (line) => canSellLineV1(user, line),
    seller: () => sellerFromV1(db, user),
    offer: (nr) => findSellableOfferV1(db, user, nr),
    // AFS shares the agricultural line but starts elsewhere: only offers sold by these routes.
    offersOfLine: async (line) => (await sellableOffersV1(db, user)).filter((o) => o.line === line && productFor(o.code)),
  };
}

export async function routeSimulator(
  db: DB,
  viewer: SessionViewer,
  params: { linha?: string; passo?: string },
  apis: ApiBases,
  request: { ip: string; query?: URLSearchParams },
): Promise<SimulatorRouting> {
  const query = request.query ?? new URLSearchParams();
  const { generation } = viewer;
  const side = sellingSide(db, viewer);
  const line = params.linha as ProductLine;
  if (!side.lines.includes(line)) return notFound;
  if (!side.mayOpen(line)) return refuse;

  const flow = lineFlow(line);
  const route = parseSimulatorRoute(generation, line, (params.passo ?? '').split('/').filter(Boolean), flow);
  if (!route) return notFound;
  const seller = await side.seller();
  const steps = stepsOf(flow);

  if (route.kind === 'resume') {
    const proposalDone = route.step === 'finalizacao' && generation === 'v1';
    const nrCotacao = proposalDone ? await latestProposal(db, seller, line) : await latestOpenQuote(db, seller, line);
    if (!nrCotacao) return { kind: 'redirect', path: HOME_PATH[generation] };
    // pinned: the redirect names the quote it found, so a reload keeps it.
    const options = proposalDone ? ({ pinned: true, action: 'visualizar', sent: true } as const) : { pinned: true };
    return { kind: 'redirect', path: stepPath(generation, line, route.step, nrCotacao, options) };
  }

  const startOffer = async (offer: SellableOffer | undefined): Promise<SimulatorRouting> => {
    if (!offer || offer.line !== line || !seller.canSell(offer.code)) return refuse;
    return {
      kind: 'render',
      props: {
        generation,
        line,
        code: offer.code,
        product: productFor(offer.code)!,
        steps,
        step: 'cadastro',
        offer,
        readOnly: false,
        apis,
      },
    };
  };

  if (route.kind === 'new') {
    const chosen = query.get('oferta');
    if (chosen !== null) return /^[1-9]\d{0,9}$/.test(chosen) ? startOffer(await side.offer(Number(chosen))) : notFound;
    const offers = await side.offersOfLine(line);
    return offers.length === 1 ? startOffer(offers[0]) : { kind: 'choose', line, offers };
  }

  if (route.kind === 'start') {
    const offer = await side.offer(route.nrOferta);
    if (offer && route.idSimulador !== undefined && offer.idSimulador !== route.idSimulador) return refuse;
    return startOffer(offer);
  }

  const quote = await findQuote(db, seller, route.nrCotacao);
  if (!quote || quote.line !== line) return notFound;
  if (!seller.canSell(quote.code)) return refuse;
  const product = productFor(quote.code)!;
  // Residential's proposal route shows its finalizacao.
  const target = route.step === 'proposta' && product.finalStep === 'finalizacao' ? 'finalizacao' : route.step;
  const sent = Boolean(quote.proposta);
  const reachable = steps.indexOf(target) <= steps.indexOf(quote.etapa) && (target !== product.finalStep || sent);
  if (target !== route.step || !reachable || route.moved) {
    const to = reachable ? target : quote.etapa;
    return {
      kind: 'redirect',
      path: stepPath(generation, line, to, quote.nrCotacao, { action: sent ? 'visualizar' : 'editar', sent, pinned: true }),
    };
  }
  const readOnly = !quote.editable || route.action === 'visualizar';
  // The seller filling in their own quote is collecting its data; anyone else opening it (a manager,
  // the insurer's admin) is reading an insured's data: on the access log (decision 049).
  if (!quote.mine) await recordDataAccess(db, viewer, request.ip, 'cotacao.pagina', quote.nrCotacao, `etapa ${target}`);
  return { kind: 'render', props: { generation, line, code: quote.code, product, steps, step: target, quote, readOnly, apis } };
}
