import type { Cents } from '../../lib/products/types';
import { INSURER, PUBLIC_CHANNELS, type ProductRegistration } from '../../lib/insurer';
import {
  brokerRegistration,
  money,
  openDocument,
  withWinAnsiText,
  type Beneficiary,
  type Column,
  type CoverageLine,
  type Insured,
  type Partner,
  type PremiumComposition,
} from './writer';

/**
 * The policy (apólice) as a PDF, with what Circular SUSEP 642/2021 asks of a policy document: who
 * insures (name, CNPJ, SUSEP code), the contract's numbers, branch, the product's SUSEP process, plan
 * and term, the insured and the insured risk, the broker with its SUSEP registration and its
 * remuneration (CNSP 382/2020), coverages with sums insured and deductibles, the beneficiaries of a
 * life policy, the premium with IOF apart, the installments, the Condições Gerais and where to read
 * them, a glossary and the consumer's channels (decisions 034 and 062). Every text arrives formatted
 * for pt-BR except money and percentages, which are formatted here.
 */
export interface PolicyDocument {
  nrApolice: string;
  idContratacao: number;
  nrProposta: string;
  nrCotacao: string;
  status: string; // 'Vigente', 'Cancelada', 'Vencida'
  product: string;
  /** 'Ramo 0114 — Compreensivo residencial'. */
  branch: string;
  /** The product's SUSEP process and where its Condições Gerais are read (lib/insurer.ts). */
  registration: ProductRegistration;
  plan: string;
  /** 'dd/mm/aaaa': the term runs from 24h of the first day to 24h of the last. */
  term: { start: string; end: string };
  insured: Insured;
  partner: Partner & { commission: Cents };
  seller: string;
  pointOfSale: string;
  /** The insured risk as it was sold: the cadastro and risco answers, formatted (lib/quote-summary answerLines). */
  answers: { label: string; value: string }[];
  /** A life policy's beneficiaries. */
  beneficiaries?: Beneficiary[];
  coverages: CoverageLine[];
  premium: PremiumComposition;
  paymentMethod: string;
  /** They sum to `installmentsTotal`, which exceeds the premium by any installment interest. */
  installments: { number: number; dueDate: string; value: Cents; status: string }[];
  installmentsTotal: Cents;
  /** 'dd/mm/aaaa hh:mm': when the policy was issued (also the PDF's dates: one policy, one set of bytes). */
  issuedAt: string;
}

/** The words of a policy a consumer may not know, as SUSEP asks them explained. */
export const GLOSSARY: readonly [string, string][] = [
  ['Apólice', 'Documento que formaliza o contrato de seguro entre a seguradora e o segurado.'],
  ['Segurado', 'Pessoa física ou jurídica cujo interesse está protegido pelo seguro.'],
  ['Prêmio', 'Valor pago pelo segurado à seguradora pela cobertura contratada.'],
  ['Importância segurada', 'Valor máximo que a seguradora pagará por cobertura em caso de sinistro.'],
  ['Franquia', 'Parte do prejuízo que fica a cargo do segurado em cada sinistro, quando prevista na cobertura.'],
  ['Vigência', 'Período em que o seguro está em vigor: das 24h do dia de início às 24h do dia de fim.'],
  ['IOF', 'Imposto sobre Operações Financeiras, cobrado sobre o prêmio e repassado à União pela seguradora.'],
  ['Endosso', 'Documento que altera a apólice durante a vigência (dados, coberturas ou cancelamento).'],
  ['Sinistro', 'Ocorrência do evento coberto que dá direito à indenização.'],
  ['Indenização', 'Valor pago pela seguradora ao segurado ou beneficiário quando ocorre um sinistro coberto.'],
];

const INSTALLMENT_COLUMNS: Column[] = [
  { header: 'Parcela', width: 0.2, align: 'left' },
  { header: 'Vencimento', width: 0.3, align: 'left' },
  { header: 'Valor', width: 0.25, align: 'right' },
  { header: 'Situação', width: 0.25, align: 'left' },
];
const GLOSSARY_COLUMNS: Column[] = [
  { header: 'Termo', width: 0.25, align: 'left' },
  { header: 'Significado', width: 0.75, align: 'left' },
];

export const policyPdfFileName = (nrApolice: string): string => `apolice-${nrApolice.replace(/[^0-9A-Za-z-]/g, '')}.pdf`;

export async function renderPolicyPdf(input: PolicyDocument): Promise<Uint8Array> {
  const doc = withWinAnsiText(input);
  const title = `Apólice de Seguro — ${doc.product}`;
  const { pdf, bytes, page } = openDocument({
    title: `${title} ${doc.nrApolice}`,
    subject: `${doc.plan} — ${doc.insured.name}`,
    issuedAt: doc.issuedAt,
  });

  page.title(title);
  page.fields(
    [
      { label: 'Nº da apólice', value: doc.nrApolice },
      { label: 'Contrato', value: String(doc.idContratacao) },
      { label: 'Situação', value: doc.status },
      { label: 'Nº da proposta', value: doc.nrProposta },
      { label: 'Nº da cotação', value: doc.nrCotacao },
      { label: 'Emitida em', value: doc.issuedAt },
      { label: 'Produto', value: doc.product },
      { label: 'Ramo', value: doc.branch },
      { label: 'Processo SUSEP', value: doc.registration.process },
      { label: 'Plano', value: doc.plan },
      { label: 'Vigência', value: `Das 24h de ${doc.term.start} às 24h de ${doc.term.end}`, wide: true },
    ],
    3,
  );
  page.insurer();
  page.insured(doc.insured);
  if (doc.answers.length > 0) {
    page.section('Dados do risco');
    page.fields(doc.answers, 2);
  }
  page.section('Parceiro (corretor)');
  page.fields(
    [
      { label: 'Razão social', value: doc.partner.razaoSocial },
      { label: 'CNPJ', value: doc.partner.cnpj },
      { label: 'Registro SUSEP do corretor', value: brokerRegistration(doc.partner.susep) },
      { label: 'Vendedor', value: doc.seller },
      { label: 'Ponto de venda', value: doc.pointOfSale },
    ],
    2,
  );
  page.coverages(doc.coverages, 'Importância segurada', 'Coberturas contratadas');
  page.premiumComposition(doc.premium);
  if (doc.beneficiaries && doc.beneficiaries.length > 0) page.beneficiaries(doc.beneficiaries);
  page.table(
    INSTALLMENT_COLUMNS,
    doc.installments.map((i) => [`${i.number}/${doc.installments.length}`, i.dueDate, money(i.value), i.status]),
    { totalRow: ['Total', '', money(doc.installmentsTotal), ''], heading: `Parcelas — ${doc.paymentMethod}` },
  );
  if (doc.installmentsTotal > doc.premium.total)
    page.note(`O total das parcelas inclui ${money(doc.installmentsTotal - doc.premium.total)} de juros de parcelamento.`);
  page.partnerRemuneration(doc.partner, doc.partner.commission);
  page.productConditions(doc.product, doc.registration, doc.partner.susep);
  page.table(
    GLOSSARY_COLUMNS,
    GLOSSARY.map(([term, meaning]) => [term, meaning]),
    { heading: 'Glossário' },
  );
  page.section('Atendimento ao consumidor');
  for (const line of consumerChannels()) page.paragraph(line);
  page.footers(`Apólice nº ${doc.nrApolice}`, 'Este documento é a apólice do seguro contratado; guarde-o durante a vigência.');

  pdf.end();
  return bytes;
}

/** The consumer's channels every document of the contract ends with. */
export function consumerChannels(): string[] {
  return [
    `SAC ${INSURER.name}: ${INSURER.sac} (24 horas); deficientes auditivos ou de fala: ${INSURER.sacHearingImpaired}. ${INSURER.site}`,
    `Ouvidoria: ${INSURER.ouvidoria}, quando a resposta do SAC não resolver a sua questão.`,
    `SUSEP — Superintendência de Seguros Privados: atendimento ao público ${PUBLIC_CHANNELS.susepPhone} (ligação gratuita), ${PUBLIC_CHANNELS.susepSite}.`,
    `Reclamações também em ${PUBLIC_CHANNELS.consumidor}.`,
  ];
}
