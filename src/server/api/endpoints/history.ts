import { endpoint, type Context } from '../router';
import { badRequest, forbidden } from '../errors';
import { z } from '../../../lib/zod';
import { parseHistoryQuery } from '../../../lib/history';
import { pageAccess } from '../../../lib/route-guards';
import { config } from '../../config';
import { loadV2User } from '../../services/principals';
import { listQuotes } from '../../services/quote-history';
import { sellerFromV2 } from '../../services/sellers';

/**
 * GET /api/bff/v1/cotacoes: the quote and proposal history of /v2/historico as JSON (SPEC §7 leaves
 * it "not shown"). The same sessions as the quote calls, the same guard as the page, the same
 * filters as the page's form (lib/history.ts).
 */
const QUOTE_AUTH = ['simulador', 'v2'] as const;

// As in endpoints/quotes.ts: the provider admin quotes with the v2 token alone.
async function v2Seller(ctx: Context) {
  const fullyAuthenticated = ctx.auth.session.kind === 'simulador' || ctx.auth.user.profile === 'admin';
  const user = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated });
  return { user, seller: await sellerFromV2(ctx.db, user) };
}

export const historyEndpoints = [
  // The query is read as it comes and parsed after the guard: whoever may not open the history
  // gets 403 whatever they send.
  endpoint({
    method: 'GET', path: '/v1/cotacoes', auth: QUOTE_AUTH, query: z.record(z.string(), z.string()),
    async handle(ctx) {
      const { user, seller } = await v2Seller(ctx);
      if (pageAccess('/v2/historico', { generation: 'v2', user }, config().PORTAL_ENV) !== 'allowed') {
        throw forbidden('Você não tem acesso ao histórico de cotações e propostas.');
      }
      const query = parseHistoryQuery(ctx.query);
      if (!query.ok) throw badRequest(Object.values(query.errors)[0]![0]!, query.errors);
      return listQuotes(ctx.db, seller, query.filters, query.page);
    },
  }),
];
