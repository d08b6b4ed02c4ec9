import { incomePdfRoute } from '../../../../../../../server/pdf/income-pdf-route';

/** The v2 income statement PDF (SPEC §2 /v2/relatorios/pdf/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno}): server/pdf/income-pdf-route.ts. */
export const GET = incomePdfRoute('v2');
