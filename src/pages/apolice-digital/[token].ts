import type { APIRoute } from 'astro';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { findPolicy } from '../../server/services/after-sale/policies';
import { policyOfLink } from '../../server/services/after-sale/policy-notices';
import { policyDocument } from '../../server/services/after-sale/policy-document';
import { policyPdfFileName, renderPolicyPdf } from '../../server/pdf/policy-pdf';
import { pdfResponse } from '../../server/api/download';
import { recordInsuredLinkAccess } from '../../server/services/identity/access-log';

/**
 * The policy's PDF for its insured, who has no account: the e-mail of its issuance links here with a
 * token that is the credential (decision 035). The token opens that one policy while it is valid;
 * an unknown, altered or expired one is the 404 page, found with one indexed lookup of its hash.
 */
export const GET: APIRoute = async ({ params, rewrite, locals }) => {
  const db = await database();
  const at = now();
  const link = await policyOfLink(db, params.token ?? '', at);
  // The token stands for the insured's right to their own contract: no viewer scope applies.
  const policy = link && (await findPolicy(db, { kind: 'all' }, link.generation, link.nrApolice, brasiliaDay(at)));
  if (!link || !policy) return rewrite('/404');
  const pdf = await renderPolicyPdf(await policyDocument(db, link.generation, policy));
  // No account opened it: the log names the link, the policy and the address (decision 049).
  await recordInsuredLinkAccess(db, link.generation, policy.nrApolice, locals.client.ip);
  return pdfResponse(pdf, policyPdfFileName(policy.nrApolice));
};
