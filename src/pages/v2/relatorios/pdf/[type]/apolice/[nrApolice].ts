import { policyPdfRoute } from '../../../../../../server/pdf/policy-pdf-route';

/** The v2 policy and boleto PDFs (SPEC §2 /v2/relatorios/pdf/{type}/apolice/{nrApolice}): server/pdf/policy-pdf-route.ts. */
export const GET = policyPdfRoute('v2');
