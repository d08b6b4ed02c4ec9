import { database } from '../../server/boot/database';
import { listQuotes } from '../../server/services/selling/quote-history';
import { sellerFromV1, sellerFromV2 } from '../../server/services/selling/sellers';
import { HISTORY_FIELDS, parseHistoryQuery, withLegacyLine } from '../../lib/history';
import { withReadablePage } from '../../lib/list-query';
import { pageRequestOf } from '../../lib/keyset-pages';
import type { PortalSession } from '../../lib/session';

/**
 * /historico and /v2/historico (docs/decisions/018-history.md): the quotes and proposals the viewer
 * may see, with the same filters in both generations. The route guards let in whoever may open the
 * history; the legacy header sends the line as ?funcionalidade=, read as the line filter. A page that
 * is no number shows the first, one past the last the last (lib/list-query.ts); past page 1 a link's
 * cursor says where the page starts (lib/keyset-pages.ts).
 */
export async function historyPage(generation: 'v1' | 'v2', session: PortalSession, searchParams: URLSearchParams) {
  const readable = Object.fromEntries(withReadablePage(searchParams));
  const params = generation === 'v1' ? withLegacyLine(readable) : readable;
  const query = parseHistoryQuery(params);
  const values = Object.fromEntries(HISTORY_FIELDS.map((field) => [field, params[field]]));
  const db = await database();
  const seller = generation === 'v1' ? await sellerFromV1(db, session.v1!) : await sellerFromV2(db, session.v2!);
  const result = query.ok ? await listQuotes(db, seller, query.filters, pageRequestOf(query.page, searchParams.get('cursor'))) : undefined;
  return { query, values, result, showSeller: seller.scope.kind !== 'own' };
}
