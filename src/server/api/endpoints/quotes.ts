import { endpoint, type Context } from '../router';
import { forbidden, notFound } from '../../errors';
import { z } from '../../../lib/zod';
import type { Generation } from '../../../lib/quote-flow';
import { loadV1User, loadV2User } from '../../services/identity/principals';
import { findSellableOffer, findSellableOfferV1, simulatorCodeOfOffer } from '../../services/network/offers';
import { canSellCodeV1 } from '../../../lib/offers';
import {
  createQuote,
  findQuote,
  priceSelection,
  SAVED_STEPS,
  saveStep,
  sendProposal,
  type OfferToQuote,
  type Seller,
} from '../../services/selling/quotes';
import { sellerFromV1, sellerFromV2 } from '../../services/selling/sellers';
import { documentsSent } from '../../services/after-sale/acceptance';
import { recordDataAccess } from '../../services/identity/access-log';
import { now } from '../../clock';
import { DECISION_TEXT_MAX, DECISION_TEXT_MIN } from '../../../lib/acceptance';
import type { SessionKind } from '../../db/schema';
import type { SessionViewer } from '../../../lib/session';

/**
 * The quote calls (SPEC §7 leaves them "not shown"): one per step of SPEC §4, each validated and
 * priced on the server. Both generations take the same paths and bodies — the BFF for v2, the
 * platform API for legacy — and differ only in the session, the seller and the offers it reaches.
 */
export interface QuoteGeneration {
  generation: Generation;
  auth: readonly SessionKind[];
  /** The signed-in user (as the page guards take them), their seller, and the offer they may start a quote from. */
  seller(ctx: Context): Promise<{ viewer: SessionViewer; seller: Seller; offer(nrOferta: number): Promise<OfferToQuote | undefined> }>;
  /** The page whose guard the history endpoint shares. */
  historyPage: string;
}

/** What the partner says of the documents sent (a text today; the documents' upload comes with issue 14). */
const documentsMessage = z
  .string('Diga quais documentos foram enviados.')
  .trim()
  .min(DECISION_TEXT_MIN, `Diga quais documentos foram enviados (ao menos ${DECISION_TEXT_MIN} caracteres).`)
  .max(DECISION_TEXT_MAX, `No máximo ${DECISION_TEXT_MAX} caracteres.`);

// v2: a quote needs a fully authenticated session (SPEC §4, DESIGN §4): the simulator token, or
// the provider admin's v2 token alone.
const v2User = (ctx: Context) => {
  const fullyAuthenticated = ctx.auth.session.kind === 'simulador' || ctx.auth.user.profile === 'admin';
  return loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated });
};

export const QUOTE_GENERATIONS: Record<Generation, QuoteGeneration> = {
  v2: {
    generation: 'v2',
    auth: ['simulador', 'v2'],
    historyPage: '/v2/historico',
    async seller(ctx) {
      const user = await v2User(ctx);
      return {
        viewer: { generation: 'v2', user },
        seller: await sellerFromV2(ctx.db, user),
        offer: (nr) => findSellableOffer(ctx.db, user, nr),
      };
    },
  },
  v1: {
    generation: 'v1',
    auth: ['v1'],
    historyPage: '/historico',
    async seller(ctx) {
      const user = await loadV1User(ctx.db, ctx.auth.user);
      // A legacy user without the offer permission of a product is refused (403) rather than told
      // the offer does not exist: SPEC §6's permission is the reason (docs/decisions/019-legacy-sell.md).
      const offer = async (nr: number) => {
        const code = await simulatorCodeOfOffer(ctx.db, nr);
        if (code && !canSellCodeV1(user, code)) throw forbidden('Você não tem permissão para vender este produto.');
        return findSellableOfferV1(ctx.db, user, nr);
      };
      return { viewer: { generation: 'v1', user }, seller: await sellerFromV1(ctx.db, user), offer };
    },
  },
};

const nrCotacaoParam = z.object({ nrCotacao: z.string().regex(/^\d{1,12}$/, 'Número de cotação inválido.') });

export function quoteEndpoints(generation: Generation) {
  const { auth, seller: sellerOf } = QUOTE_GENERATIONS[generation];
  return [
    endpoint({
      method: 'POST',
      path: '/v1/cotacoes',
      auth,
      body: z.object({ nrOferta: z.number().int().positive(), segurado: z.unknown(), respostas: z.unknown().optional() }),
      async handle(ctx) {
        const { seller, offer: findOffer } = await sellerOf(ctx);
        const offer = await findOffer(ctx.body.nrOferta);
        if (!offer) throw notFound('Oferta não encontrada ou fora de vigência.');
        return { cotacao: await createQuote(ctx.db, seller, offer, ctx.body) };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/cotacoes/:nrCotacao',
      auth,
      params: nrCotacaoParam,
      async handle(ctx) {
        const { seller, viewer } = await sellerOf(ctx);
        const cotacao = await findQuote(ctx.db, seller, ctx.params.nrCotacao);
        if (!cotacao) throw notFound('Cotação não encontrada.');
        // Another seller's quote is an insured's data read, as on its page (decision 049).
        if (!cotacao.mine) await recordDataAccess(ctx.db, viewer, ctx.ip, 'cotacao.pagina', cotacao.nrCotacao, 'API');
        return { cotacao };
      },
    }),
    endpoint({
      method: 'PUT',
      path: '/v1/cotacoes/:nrCotacao/:etapa',
      auth,
      params: nrCotacaoParam.extend({ etapa: z.enum(SAVED_STEPS, 'Etapa inválida.') }),
      body: z.record(z.string(), z.unknown()),
      async handle(ctx) {
        const { seller } = await sellerOf(ctx);
        return { cotacao: await saveStep(ctx.db, seller, ctx.params.nrCotacao, ctx.params.etapa, ctx.body) };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/cotacoes/:nrCotacao/proposta',
      auth,
      params: nrCotacaoParam,
      body: z.object({ aceiteTermo: z.unknown() }),
      async handle(ctx) {
        const { seller } = await sellerOf(ctx);
        const { nrProposta, quote } = await sendProposal(ctx.db, seller, ctx.params.nrCotacao, ctx.body);
        return { nrProposta, cotacao: quote };
      },
    }),
    // The partner answers the insurer's request for documents: the acceptance clock resumes.
    endpoint({
      method: 'POST',
      path: '/v1/cotacoes/:nrCotacao/proposta/documentos',
      auth,
      params: nrCotacaoParam,
      body: z.object({ mensagem: documentsMessage }),
      async handle(ctx) {
        const { seller } = await sellerOf(ctx);
        const quote = await findQuote(ctx.db, seller, ctx.params.nrCotacao);
        if (!quote?.proposta) throw notFound('Proposta não encontrada.');
        await documentsSent(ctx.db, seller.userId, quote.proposta.nrProposta, ctx.body.mensagem, now());
        return { cotacao: await findQuote(ctx.db, seller, ctx.params.nrCotacao) };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/precificacao',
      auth,
      body: z.object({ cdSimulador: z.string().max(5), respostas: z.unknown(), selecao: z.unknown() }),
      async handle(ctx) {
        const { seller } = await sellerOf(ctx);
        if (!seller.canSell(ctx.body.cdSimulador)) throw forbidden();
        return { precificacao: priceSelection(ctx.body.cdSimulador, ctx.body.respostas, ctx.body.selecao) };
      },
    }),
  ];
}
