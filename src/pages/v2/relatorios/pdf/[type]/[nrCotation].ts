import { quotePdfRoute } from '../../../../../features/simulators/quote-pdf.server';
import { sellerFromV2 } from '../../../../../server/services/selling/sellers';

/** The v2 quote or proposal PDF (SPEC §2 /v2/relatorios/pdf/{type}/{nrCotation}): features/simulators/quote-pdf.server.ts. */
export const GET = quotePdfRoute((db, session) => session.v2 && sellerFromV2(db, session.v2));
