import { incomePdfRoute } from '../../../../../server/pdf/income-pdf-route';

/** The legacy income statement PDF (SPEC §2 /relatorios/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno}): server/pdf/income-pdf-route.ts. */
export const GET = incomePdfRoute('v1');
