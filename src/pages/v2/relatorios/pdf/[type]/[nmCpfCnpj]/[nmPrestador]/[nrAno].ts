import { incomePdfRoute } from '../../../../../../../features/commissions/income-pdf.server';

/** The v2 income statement PDF (SPEC §2 /v2/relatorios/pdf/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno}): features/commissions/income-pdf.server.ts. */
export const GET = incomePdfRoute('v2');
