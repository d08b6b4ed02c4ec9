import { quotePdfRoute } from '../../../../../server/pdf/quote-pdf-route';
import { sellerFromV2 } from '../../../../../server/services/sellers';

/** The v2 quote or proposal PDF (SPEC §2 /v2/relatorios/pdf/{type}/{nrCotation}): server/pdf/quote-pdf-route.ts. */
export const GET = quotePdfRoute((db, session) => session.v2 && sellerFromV2(db, session.v2));
