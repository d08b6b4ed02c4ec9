import { endpoint, type Context } from '../router';
import { forbidden, notFound } from '../errors';
import { z } from '../../../lib/zod';
import { loadV2User } from '../../services/principals';
import { findSellableOffer } from '../../services/offers';
import { createQuote, findQuote, priceSelection, SAVED_STEPS, saveStep, sendProposal } from '../../services/quotes';
import { sellerFromV2 } from '../../services/sellers';

/**
 * The v2 quote calls of the BFF (SPEC §7 leaves them "not shown"): one per step of SPEC §4, each
 * validated and priced on the server. They take the simulator token (or the provider admin's v2
 * token): a quote needs a fully authenticated session (SPEC §4, DESIGN §4).
 */
const QUOTE_AUTH = ['simulador', 'v2'] as const;

async function v2Seller(ctx: Context) {
  const fullyAuthenticated = ctx.auth.session.kind === 'simulador' || ctx.auth.user.profile === 'admin';
  const user = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated });
  return { user, seller: await sellerFromV2(ctx.db, user) };
}

const nrCotacaoParam = z.object({ nrCotacao: z.string().regex(/^\d{1,12}$/, 'Número de cotação inválido.') });

export const quoteEndpoints = [
  endpoint({
    method: 'POST', path: '/v1/cotacoes', auth: QUOTE_AUTH,
    body: z.object({ nrOferta: z.number().int().positive(), segurado: z.unknown(), respostas: z.unknown().optional() }),
    async handle(ctx) {
      const { user, seller } = await v2Seller(ctx);
      const offer = await findSellableOffer(ctx.db, user, ctx.body.nrOferta);
      if (!offer) throw notFound('Oferta não encontrada ou fora de vigência.');
      return { cotacao: await createQuote(ctx.db, seller, offer, ctx.body) };
    },
  }),
  endpoint({
    method: 'GET', path: '/v1/cotacoes/:nrCotacao', auth: QUOTE_AUTH, params: nrCotacaoParam,
    async handle(ctx) {
      const { seller } = await v2Seller(ctx);
      const cotacao = await findQuote(ctx.db, seller, ctx.params.nrCotacao);
      if (!cotacao) throw notFound('Cotação não encontrada.');
      return { cotacao };
    },
  }),
  endpoint({
    method: 'PUT', path: '/v1/cotacoes/:nrCotacao/:etapa', auth: QUOTE_AUTH,
    params: nrCotacaoParam.extend({ etapa: z.enum(SAVED_STEPS, 'Etapa inválida.') }),
    body: z.record(z.string(), z.unknown()),
    async handle(ctx) {
      const { seller } = await v2Seller(ctx);
      return { cotacao: await saveStep(ctx.db, seller, ctx.params.nrCotacao, ctx.params.etapa, ctx.body) };
    },
  }),
  endpoint({
    method: 'POST', path: '/v1/cotacoes/:nrCotacao/proposta', auth: QUOTE_AUTH, params: nrCotacaoParam,
    body: z.object({ aceiteTermo: z.unknown() }),
    async handle(ctx) {
      const { seller } = await v2Seller(ctx);
      const { nrProposta, quote } = await sendProposal(ctx.db, seller, ctx.params.nrCotacao, ctx.body);
      return { nrProposta, cotacao: quote };
    },
  }),
  endpoint({
    method: 'POST', path: '/v1/precificacao', auth: QUOTE_AUTH,
    body: z.object({ cdSimulador: z.string().max(5), respostas: z.unknown(), selecao: z.unknown() }),
    async handle(ctx) {
      const { seller } = await v2Seller(ctx);
      if (!seller.canSell(ctx.body.cdSimulador)) throw forbidden();
      return { precificacao: priceSelection(ctx.body.cdSimulador, ctx.body.respostas, ctx.body.selecao) };
    },
  }),
];
