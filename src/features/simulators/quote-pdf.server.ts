import type { APIRoute } from 'astro';
import type { DB } from '../../server/db';
import { database } from '../../server/boot/database';
import { renderQuotePdf, quotePdfFileName } from '../../server/pdf/quote-pdf';
import { pdfResponse } from '../../server/api/download';
import { quoteDocument } from '../../server/services/selling/quote-document';
import { findQuote, type Seller } from '../../server/services/selling/quotes';
import { productFor } from '../../lib/products/catalog';
import { viewerOf, type PortalSession } from '../../lib/session';
import { recordDataAccess } from '../../server/services/identity/access-log';

/**
 * The quote or proposal PDF of either generation — /v2/relatorios/pdf/{type}/{nrCotation} and the
 * legacy /relatorios/{type}/{nrCotation} (SPEC §2) — generated on request for whoever may see the
 * quote (each one handed out is logged, decision 049); 404 for anyone else, so numbers cannot be
 * probed. Each page names its seller.
 */
const TYPES = ['cotacao', 'proposta'] as const;

export function quotePdfRoute(sellerOf: (db: DB, session: PortalSession) => Promise<Seller> | undefined): APIRoute {
  return async ({ params, locals, rewrite }) => {
    const type = TYPES.find((t) => t === params.type);
    if (!type || !/^\d{1,12}$/.test(params.nrCotation ?? '')) return rewrite('/404');
    const db = await database();
    const seller = await sellerOf(db, locals.session);
    if (!seller) return rewrite('/404');
    const quote = await findQuote(db, seller, params.nrCotation!);
    const product = quote && productFor(quote.code);
    if (!quote || !product || (type === 'proposta' && !quote.proposta)) return rewrite('/404');
    const document = quoteDocument(quote, product, type);
    const pdf = await renderQuotePdf(document);
    const viewer = viewerOf(locals.session, seller.generation)!;
    if (type === 'proposta')
      await recordDataAccess(db, viewer, locals.client.ip, 'proposta.pdf', quote.proposta!.nrProposta, `cotação ${quote.nrCotacao}`);
    else await recordDataAccess(db, viewer, locals.client.ip, 'cotacao.pdf', quote.nrCotacao);
    return pdfResponse(pdf, quotePdfFileName(document));
  };
}
