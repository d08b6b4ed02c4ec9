import { policyPdfRoute } from '../../../../../../features/policies/policy-pdf.server';

/** The v2 policy and boleto PDFs (SPEC §2 /v2/relatorios/pdf/{type}/apolice/{nrApolice}): features/policies/policy-pdf.server.ts. */
export const GET = policyPdfRoute('v2');
