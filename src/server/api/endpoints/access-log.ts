import { endpoint } from '../router';
import { invalid, forbidden } from '../../errors';
import { z } from '../../../lib/zod';
import { ACCESS_LOG_PAGE_SIZE, ACCESS_LOG_PATH, parseAccessLogQuery } from '../../../lib/access-log';
import { brasiliaDay } from '../../../lib/format';
import { keysetAnswer, pageRequestOf } from '../../../lib/keyset-pages';
import { pageAccess } from '../../../lib/route-guards';
import { config } from '../../config';
import { now } from '../../clock';
import { listAccessLog } from '../../services/identity/access-log';
import { loadV2User } from '../../services/identity/principals';

/**
 * GET /api/bff/v1/log-acesso: the access log as JSON (issue 17, decision 049) — the same filters as
 * /v2/log-acesso's form (lib/access-log.ts), the same guard as the page (Gestão › Log de Acesso:
 * the insurer's ADMIN), 20 rows a page newest first, keyset-paged (issue 29, lib/keyset-pages.ts):
 * `{ content, page, totalElements, totalPages, more, nextCursor, previousCursor }` — the totals are null
 * past COUNT_LIMIT rows ("more than 1,000"); `?pagina=N&cursor=…` with a cursor the previous answer gave
 * reads the page next to it, `?pagina=N` alone counts rows from the first (up to the bound).
 * The query is read as it comes and parsed after the guard: whoever may not read the log gets 403
 * whatever they send.
 */
export const accessLogEndpoints = [
  endpoint({
    method: 'GET',
    path: '/v1/log-acesso',
    auth: ['v2'],
    query: z.record(z.string(), z.string()),
    async handle(ctx) {
      const user = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false });
      if (user.profile !== 'ADMIN' || pageAccess(ACCESS_LOG_PATH, { generation: 'v2', user }, config().PORTAL_ENV) !== 'allowed')
        throw forbidden('Apenas o administrador da seguradora consulta o log de acesso.');
      const query = parseAccessLogQuery(ctx.query, brasiliaDay(now()));
      if (!query.ok) throw invalid(Object.values(query.errors)[0]![0]!, query.errors);
      const read = await listAccessLog(ctx.db, query.filters, pageRequestOf(query.page, ctx.query.cursor), ACCESS_LOG_PAGE_SIZE);
      return keysetAnswer(read);
    },
  }),
];
