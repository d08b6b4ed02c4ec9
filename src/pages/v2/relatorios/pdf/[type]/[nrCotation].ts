import type { APIRoute } from 'astro';
import { database } from '../../../../../server/db';
import { renderQuotePdf, quotePdfFileName } from '../../../../../server/pdf/quote-pdf';
import { quoteDocument } from '../../../../../server/services/quote-document';
import { findQuote } from '../../../../../server/services/quotes';
import { sellerFromV2 } from '../../../../../server/services/sellers';
import { productFor } from '../../../../../lib/products/catalog';

/**
 * The quote or proposal PDF (SPEC §2 /v2/relatorios/pdf/{type}/{nrCotation}), generated on request
 * for whoever may see the quote; 404 for anyone else, so numbers cannot be probed.
 */
const TYPES = ['cotacao', 'proposta'] as const;

export const GET: APIRoute = async ({ params, locals, rewrite }) => {
  const type = TYPES.find((t) => t === params.type);
  const user = locals.session.v2;
  if (!type || !user || !/^\d{1,12}$/.test(params.nrCotation ?? '')) return rewrite('/404');
  const db = await database();
  const quote = await findQuote(db, await sellerFromV2(db, user), params.nrCotation!);
  const product = quote && productFor(quote.code);
  if (!quote || !product || (type === 'proposta' && !quote.proposta)) return rewrite('/404');
  const document = quoteDocument(quote, product, type);
  const bytes = await renderQuotePdf(document);
  return new Response(bytes as BodyInit, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${quotePdfFileName(document)}"`,
      'cache-control': 'private, no-store',
    },
  });
};
