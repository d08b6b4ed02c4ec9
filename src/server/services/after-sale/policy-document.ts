import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { formatDate, formatDateTime, formatIsoDate } from '../../../lib/format';
import { branchOf, productRegistration } from '../../../lib/insurer';
import { productFor } from '../../../lib/products/catalog';
import type { Contracting } from '../../../lib/contracting';
import type { Answers } from '../../../lib/products/types';
import { INSTALLMENT_STATUS_LABELS, POLICY_STATUS_LABELS } from '../../../lib/policies';
import type { StoredPricing } from '../../../lib/products/engine';
import { answerLines, commissionOf, paymentMethodLabel, relationshipLabel } from '../../../lib/quote-summary';
import { barcodeOfLine } from '../../../lib/boleto';
import { nossoNumero } from '../../../lib/charges';
import { formatCnpj } from '../../../lib/validators';
import type { BoletoDocument } from '../../pdf/boleto-pdf';
import type { PolicyDocument } from '../../pdf/policy-pdf';
import type { ChargeView } from './charges';
import type { PolicyDetail } from './policies';
import { insuredOf } from '../../pdf/insured';

/*
 * The policy's and the boleto's PDF content (decision 034) from a policy the viewer's scope already
 * found (findPolicy): these add what only the documents show — the insured's whole document and
 * current address (it is the insured's own contract), the insured risk and the beneficiaries as sold,
 * the partner who sold it with its SUSEP registration, and the IOF rate — in one query.
 */

/** The insured (with their current contact), the risk, the partner who sold and the IOF rate: what only the documents show. */
export async function partiesOf(db: DB, generation: Generation, { nrApolice, contact, code }: PolicyDetail) {
  const row = await db
    .selectFrom('policies as a')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id')
    .innerJoin('offers as o', 'o.id', 'q.offer_id')
    .leftJoin('companies as c', 'c.id', 'o.company_id')
    .select([
      'q.segurado',
      'q.respostas',
      'q.risco',
      'q.contratacao',
      'q.comissao_centesimos',
      'q.precificacao',
      'c.razao_social',
      'c.cnpj',
      'c.susep',
      'a.emitida_em',
    ])
    .where('a.nr_apolice', '=', nrApolice)
    .where('a.generation', '=', generation)
    .executeTakeFirstOrThrow();
  const commissionPercent = row.comissao_centesimos / 100;
  const product = productFor(code);
  const contracting = row.contratacao as Contracting | null;
  return {
    // The insured's contact as it is now: a contact endorsement replaces the quote's (issue 14).
    insured: insuredOf({ ...(row.segurado as Record<string, unknown>), ...contact }),
    // What was insured, as the proposal's PDF described it (services/selling/quote-document.ts).
    answers: product ? answerLines(product, { respostas: row.respostas as Answers, risco: row.risco as Answers | null }) : [],
    beneficiaries: contracting?.beneficiarios?.map((b) => ({
      name: b.nome,
      relationship: relationshipLabel(b.parentesco),
      percent: b.percentual,
    })),
    // The quote's PDF names the same partner (services/selling/quote-document.ts).
    partner: {
      razaoSocial: row.razao_social ?? 'Portal de Parceiros',
      cnpj: row.cnpj ? formatCnpj(row.cnpj) : '',
      susep: row.susep,
      commissionPercent,
    },
    iofRate: (row.precificacao as unknown as StoredPricing).iofRate,
    emitidaEm: new Date(row.emitida_em),
  };
}

export async function policyDocument(db: DB, generation: Generation, policy: PolicyDetail): Promise<PolicyDocument> {
  const { insured, answers, beneficiaries, partner, iofRate, emitidaEm } = await partiesOf(db, generation, policy);
  return {
    nrApolice: policy.nrApolice,
    idContratacao: policy.idContratacao,
    nrProposta: policy.nrProposta,
    nrCotacao: policy.nrCotacao,
    status: POLICY_STATUS_LABELS[policy.status],
    product: policy.productName,
    branch: branchOf(policy.nrApolice),
    // lib/insurer.test.ts keeps a registration for every product of the catalog.
    registration: productRegistration(policy.code)!,
    plan: policy.planName,
    term: { start: formatIsoDate(policy.inicioVigencia), end: formatIsoDate(policy.fimVigencia) },
    insured,
    partner: { ...partner, commission: commissionOf(policy.premioLiquido, partner.commissionPercent) },
    seller: policy.seller,
    pointOfSale: policy.pointOfSale ?? '—',
    answers,
    beneficiaries,
    coverages: policy.coverages,
    premium: {
      net: policy.premioLiquido,
      policyCost: policy.custoApolice,
      iofRate,
      iof: policy.iof,
      total: policy.premioLiquido + policy.custoApolice + policy.iof,
    },
    paymentMethod: paymentMethodLabel(policy.formaPagamento),
    installments: policy.installments.map((i) => ({
      number: i.numero,
      dueDate: formatIsoDate(i.vencimento),
      value: i.valor,
      status: `${INSTALLMENT_STATUS_LABELS[i.status]}${i.pagaEm ? ` em ${formatDate(i.pagaEm)}` : ''}`,
    })),
    installmentsTotal: policy.premioTotal,
    issuedAt: formatDateTime(emitidaEm),
  };
}

/** The boleto of installment `numero` through its active charge (services/after-sale/charges.ts payableCharges). */
export async function boletoDocument(
  db: DB,
  generation: Generation,
  policy: PolicyDetail,
  numero: number,
  charge: ChargeView,
  now: Date,
): Promise<BoletoDocument> {
  const { insured, emitidaEm } = await partiesOf(db, generation, policy);
  return {
    nrApolice: policy.nrApolice,
    installment: { number: numero, count: policy.installments.length },
    charge: {
      vencimento: formatIsoDate(charge.vencimento),
      valor: charge.valor,
      multa: charge.multa,
      juros: charge.juros,
      total: charge.total,
      nossoNumero: nossoNumero(charge.id),
      linhaDigitavel: charge.linhaDigitavel,
      barcode: barcodeOfLine(charge.linhaDigitavel),
      pixCopiaECola: charge.pixCopiaECola,
    },
    payer: { name: insured.name, document: insured.document, address: insured.address },
    documentDate: formatDate(emitidaEm),
    issuedAt: formatDateTime(now),
  };
}
