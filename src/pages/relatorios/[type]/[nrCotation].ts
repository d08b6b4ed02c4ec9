import { quotePdfRoute } from '../../../features/simulators/quote-pdf.server';
import { sellerFromV1 } from '../../../server/services/selling/sellers';

/** The legacy quote or proposal PDF (SPEC §2 /relatorios/{type}/{nrCotation}): the same document as v2's. */
export const GET = quotePdfRoute((db, session) => session.v1 && sellerFromV1(db, session.v1));
