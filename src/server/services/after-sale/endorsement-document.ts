import type { DB } from '../../db';
import type { EndorsementKind, Generation } from '../../db/schema';
import { formatDateTime, formatIsoDate } from '../../../lib/format';
import { contactChanges } from '../../../lib/endorsement-contact';
import { ENDORSEMENT_LABELS, REQUESTER_LABELS, reasonText, type InsuredContact } from '../../../lib/endorsements';
import { RULE_LABELS } from '../../../lib/refund';
import type { CancellationRecord } from '../../../lib/cancellation';
import type { EndorsementDocument } from '../../pdf/endorsement-pdf';
import type { ScopedEndorsement } from './endorsements';
import type { PolicyDetail } from './policies';
import { partiesOf } from './policy-document';

/*
 * An endorsement's PDF content (decision 039) from an endorsement and its policy the viewer's scope
 * already found (endorsementInScope, findPolicy). What changed is read from the endorsement's own
 * `dados`, written when it was issued, so the document says what was decided then.
 */

type Details = Pick<EndorsementDocument, 'contact' | 'cancellation'>;

function contactDetails(e: ScopedEndorsement): Details {
  const { antes, depois } = e.dados as { antes: InsuredContact; depois: InsuredContact };
  return { contact: contactChanges(antes, depois) };
}

function cancellationDetails(e: ScopedEndorsement): Details {
  const data = e.dados as unknown as CancellationRecord;
  const requester = e.solicitante ?? 'SEGURADO';
  return {
    cancellation: {
      requester: REQUESTER_LABELS[requester],
      reason: reasonText(requester, e.motivo),
      rule: RULE_LABELS[data.refund.rule],
      daysUsed: data.refund.daysUsed,
      termDays: data.refund.termDays,
      percentKept: data.refund.percentKept,
      coverages: data.coberturas.map((c) => ({ name: c.name, premium: c.premium })),
      refundLines: data.refund.lines,
      refundTotal: e.restituicao ?? data.refund.total,
      expectedDate: e.prevista_para && (e.restituicao ?? 0) > 0 ? formatIsoDate(e.prevista_para) : null,
      destination: data.destino,
      installmentsCancelled: data.parcelasCanceladas,
      installmentsReduced: data.parcelasReduzidas.map((i) => ({ number: i.numero, from: i.de, to: i.para })),
      clawback: e.estorno_comissao ?? data.refund.clawback,
    },
  };
}

/** What each kind of endorsement prints besides what they all share. */
const DETAILS: Record<EndorsementKind, (e: ScopedEndorsement) => Details> = {
  CONTATO: contactDetails,
  CANCELAMENTO: cancellationDetails,
  CANCELAMENTO_PARCIAL: cancellationDetails,
};

export async function endorsementDocument(
  db: DB,
  generation: Generation,
  policy: PolicyDetail,
  endorsement: ScopedEndorsement,
): Promise<EndorsementDocument> {
  const { insured } = await partiesOf(db, generation, policy);
  return {
    nrEndosso: endorsement.nr_endosso,
    kind: ENDORSEMENT_LABELS[endorsement.tipo],
    nrApolice: policy.nrApolice,
    idContratacao: policy.idContratacao,
    product: policy.productName,
    insured: { name: insured.name, document: insured.document },
    effectiveDate: formatIsoDate(endorsement.efetiva_em),
    issuedAt: formatDateTime(new Date(endorsement.created_at)),
    issuedBy: endorsement.by,
    premium: { before: endorsement.premio_anterior, after: endorsement.premio_novo },
    ...DETAILS[endorsement.tipo](endorsement),
  };
}
