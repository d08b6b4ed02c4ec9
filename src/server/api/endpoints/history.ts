import { endpoint } from '../router';
import { invalid, forbidden } from '../../errors';
import { z } from '../../../lib/zod';
import { parseHistoryQuery, withLegacyLine } from '../../../lib/history';
import type { Generation } from '../../../lib/quote-flow';
import { pageAccess } from '../../../lib/route-guards';
import { config } from '../../config';
import { listQuotes } from '../../services/selling/quote-history';
import { QUOTE_GENERATIONS } from './quotes';
import { pageRequestOf } from '../../../lib/keyset-pages';
import { keysetAnswer } from '../../../lib/keyset-answer';

/**
 * GET /v1/cotacoes: the quote and proposal history as JSON (SPEC §7 leaves it "not shown") — of
 * /v2/historico on the BFF, of /historico on the platform API. The same sessions as the quote calls,
 * the same guard as the page, the same filters as the page's form (lib/history.ts). Keyset-paged
 * (issue 29): `page` and the `cursor` of an answer's `next`/`previous`; totals only up to 1,000
 * (lib/keyset-answer.ts).
 */
export function historyEndpoints(generation: Generation) {
  const { auth, historyPage, seller: sellerOf } = QUOTE_GENERATIONS[generation];
  return [
    // The query is read as it comes and parsed after the guard: whoever may not open the history
    // gets 403 whatever they send.
    endpoint({
      method: 'GET',
      path: '/v1/cotacoes',
      auth,
      query: z.record(z.string(), z.string()),
      async handle(ctx) {
        const { viewer, seller } = await sellerOf(ctx);
        if (pageAccess(historyPage, viewer, config().PORTAL_ENV) !== 'allowed') {
          throw forbidden('Você não tem acesso ao histórico de cotações e propostas.');
        }
        const query = parseHistoryQuery(generation === 'v1' ? withLegacyLine(ctx.query) : ctx.query);
        if (!query.ok) throw invalid(Object.values(query.errors)[0]![0]!, query.errors);
        return keysetAnswer(await listQuotes(ctx.db, seller, query.filters, pageRequestOf(query.page, ctx.query.cursor)));
      },
    }),
  ];
}
