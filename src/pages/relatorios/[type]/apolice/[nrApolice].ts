import { policyPdfRoute } from '../../../../features/policies/policy-pdf.server';

/** The legacy policy and boleto PDFs (SPEC §2 /relatorios/{type}/apolice/{nrApolice}): features/policies/policy-pdf.server.ts. */
export const GET = policyPdfRoute('v1');
