import type { APIRoute } from 'astro';
import type { DB } from '../../server/db';
import type { Generation } from '../../server/db/schema';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { isPayableOn } from '../../lib/charges';
import { viewerOf, type SessionViewer } from '../../lib/session';
import { findPolicy } from '../../server/services/after-sale/policies';
import { payableCharges } from '../../server/services/after-sale/charges';
import { scopeFor } from '../../server/services/identity/scope';
import { boletoDocument, policyDocument } from '../../server/services/after-sale/policy-document';
import { endorsementInScope } from '../../server/services/after-sale/endorsements';
import { endorsementDocument } from '../../server/services/after-sale/endorsement-document';
import { endorsementPdfFileName, renderEndorsementPdf } from '../../server/pdf/endorsement-pdf';
import { policyPdfFileName, renderPolicyPdf } from '../../server/pdf/policy-pdf';
import { boletoPdfFileName, renderBoletoPdf } from '../../server/pdf/boleto-pdf';
import { pdfResponse } from '../../server/api/download';
import { recordDataAccess } from '../../server/services/identity/access-log';
import { boletoGone, type BoletoGone } from '../../lib/payments';

/**
 * The policy, the boleto of one of its installments and its endorsements as PDFs, both generations —
 * SPEC §2's /relatorios/{type}/apolice/{nrApolice} and /v2/relatorios/pdf/{type}/apolice/{nrApolice},
 * type 'apolice', 'boleto' (?parcela=N) or 'endosso' (?endosso=N, issue 14). The policy and its
 * endorsements go through the APOLICES scope, the boleto through BOLETOS; whatever the viewer may
 * not see or pay — another company's policy, an unknown or malformed number, an endorsement of
 * another policy, a card or debit policy — is the same 404, so numbers cannot be probed (decision
 * 034). A paid, cancelled or overdue installment of a policy the viewer may charge says why instead,
 * on the 410 page with the policy's link (issue 27 item 12).
 */
export interface PolicyPdfRequest {
  type: string | undefined;
  nrApolice: string | undefined;
  parcela: string | null;
  /** The endorsement's number, for type 'endosso'. */
  endosso?: string | null;
}

/** The PDF for this viewer, or undefined — whatever is not a PDF to hand out (policyPdfOutcome). */
export async function policyPdfResponse(...args: Parameters<typeof policyPdfOutcome>): Promise<Response | undefined> {
  const outcome = await policyPdfOutcome(...args);
  return outcome instanceof Response ? outcome : undefined;
}

/**
 * The PDF for this viewer, or undefined: the route answers the 404 page; or, for an installment of a
 * policy the viewer may charge that has no boleto to pay any more, why (BoletoGone: the 410 page).
 * Each PDF handed out is logged (from `ip`).
 */
export async function policyPdfOutcome(
  db: DB,
  viewer: SessionViewer | undefined,
  { type, nrApolice, parcela, endosso }: PolicyPdfRequest,
  at: Date,
  ip: string,
): Promise<Response | BoletoGone | undefined> {
  if (!viewer || !nrApolice || !/^\d{1,20}$/.test(nrApolice)) return undefined;
  const generation: Generation = viewer.generation;
  const today = brasiliaDay(at);
  if (type === 'apolice') {
    const policy = await findPolicy(db, await scopeFor(db, viewer, 'APOLICES'), generation, nrApolice, today);
    if (!policy) return undefined;
    const pdf = await renderPolicyPdf(await policyDocument(db, generation, policy));
    await recordDataAccess(db, viewer, ip, 'apolice.pdf', nrApolice);
    return pdfResponse(pdf, policyPdfFileName(nrApolice));
  }
  if (type === 'endosso') {
    if (!endosso || !/^\d{1,20}$/.test(endosso)) return undefined;
    const scope = await scopeFor(db, viewer, 'APOLICES');
    const endorsement = await endorsementInScope(db, scope, generation, endosso);
    const policy = endorsement?.nr_apolice === nrApolice ? await findPolicy(db, scope, generation, nrApolice, today) : undefined;
    if (!endorsement || !policy) return undefined;
    const document = await endorsementDocument(db, generation, policy, endorsement);
    const pdf = await renderEndorsementPdf(document);
    await recordDataAccess(db, viewer, ip, 'apolice.endosso-pdf', nrApolice, `endosso ${endosso}`);
    return pdfResponse(pdf, endorsementPdfFileName(nrApolice, endosso));
  }
  if (type !== 'boleto' || !parcela || !/^\d{1,3}$/.test(parcela)) return undefined;
  const numero = Number(parcela);
  const scope = await scopeFor(db, viewer, 'BOLETOS');
  const policy = await findPolicy(db, scope, generation, nrApolice, today);
  const installment = policy?.installments.find((i) => i.numero === numero);
  if (!policy || !installment) return undefined;
  const charge = (await payableCharges(db, scope, generation, nrApolice))?.[numero];
  // Within the scope, a paid, cancelled or expired boleto says why (issue 27 item 12).
  if (!charge || !isPayableOn(charge, today)) return boletoGone(generation, nrApolice, installment, policy.formaPagamento);
  const document = await boletoDocument(db, generation, policy, numero, charge, at);
  const pdf = await renderBoletoPdf(document);
  await recordDataAccess(db, viewer, ip, 'apolice.boleto', nrApolice, `parcela ${numero}`);
  return pdfResponse(pdf, boletoPdfFileName(nrApolice, numero));
}

export function policyPdfRoute(generation: Generation): APIRoute {
  return async ({ params, url, locals, rewrite }) => {
    const request = {
      type: params.type,
      nrApolice: params.nrApolice,
      parcela: url.searchParams.get('parcela'),
      endosso: url.searchParams.get('endosso'),
    };
    const response = await policyPdfOutcome(await database(), viewerOf(locals.session, generation), request, now(), locals.client.ip);
    if (response instanceof Response) return response;
    if (!response) return rewrite('/404');
    locals.gone = response;
    return rewrite('/410');
  };
}
