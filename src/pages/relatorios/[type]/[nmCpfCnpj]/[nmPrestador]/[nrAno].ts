import { incomePdfRoute } from '../../../../../features/commissions/income-pdf.server';

/** The legacy income statement PDF (SPEC §2 /relatorios/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno}): features/commissions/income-pdf.server.ts. */
export const GET = incomePdfRoute('v1');
