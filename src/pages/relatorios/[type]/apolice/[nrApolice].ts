import { policyPdfRoute } from '../../../../server/pdf/policy-pdf-route';

/** The legacy policy and boleto PDFs (SPEC §2 /relatorios/{type}/apolice/{nrApolice}): server/pdf/policy-pdf-route.ts. */
export const GET = policyPdfRoute('v1');
