import type { Cents } from '../../lib/products/types';
import type { ProductRegistration } from '../../lib/insurer';
import { consumerChannels } from './policy-pdf';
import {
  brokerRegistration,
  money,
  openDocument,
  withWinAnsiText,
  type Beneficiary,
  type Column,
  type CoverageLine,
  type Field,
  type Insured,
  type Partner,
  type PremiumComposition,
} from './writer';

/**
 * The quote (cotação) and proposal (proposta) as PDF documents, drawn on the server with pdfkit and
 * its standard Helvetica fonts (docs/decisions/015-pdf-library.md). Every text arrives already
 * formatted for pt-BR except money, percentages and the page furniture, which are formatted here.
 * What Circular SUSEP 642/2021 asks of a policy that a proposal can already say — the insurer, the
 * branch and the product's SUSEP process, the broker's registration, the Condições Gerais, the
 * consumer's channels — it says, and a proposal the day the insurer received it and its 25-day
 * acceptance clock (decision 062).
 */
export interface QuoteDocument {
  kind: 'cotacao' | 'proposta';
  nrCotacao: string;
  nrProposta?: string; // required when kind === 'proposta'
  status: string; // pt-BR label, e.g. 'Em elaboração', 'Em análise', 'Vencida'
  product: string; // 'Residencial'
  offer: string; // offer name
  /** 'Ramo 0114 — Compreensivo residencial': the branch the policy will be issued in. */
  branch: string;
  /** The product's SUSEP process and where its Condições Gerais are read (lib/insurer.ts). */
  registration: ProductRegistration;
  partner: Partner & { commission: Cents };
  seller: string; // who quoted
  insured: Insured;
  answers: { label: string; value: string }[]; // the cadastro/risco answers, already formatted
  /** The plan and its price; absent while the quote has not reached a chosen plan (no R$ 0,00 then). */
  pricing?: {
    plan: string;
    coverages: CoverageLine[];
    premium: PremiumComposition;
  };
  /** `lines`: method, due date and (debit) account, already formatted — the resumo's payment lines. */
  payment?: { lines: Field[]; installments: { number: number; dueDate: string; value: Cents }[]; total: Cents };
  beneficiaries?: Beneficiary[];
  /** A proposal's receipt ('dd/mm/aaaa hh:mm') and its acceptance clock in words while undecided (lib/acceptance clockPhrase). */
  acceptance?: { receivedAt: string; clock?: string };
  createdAt: string; // 'dd/mm/aaaa'
  validUntil: string; // 'dd/mm/aaaa'
  issuedAt: string; // 'dd/mm/aaaa hh:mm'
}

const NO_PLAN_YET = 'O plano ainda não foi escolhido: coberturas e prêmio aparecem quando a cotação passar pela etapa de planos.';

const KIND_TEXT = {
  cotacao: { title: 'Cotação de Seguro', fileName: 'cotacao', numberLabel: 'Cotação nº' },
  proposta: { title: 'Proposta de Seguro', fileName: 'proposta', numberLabel: 'Proposta nº' },
} as const satisfies Record<QuoteDocument['kind'], { title: string; fileName: string; numberLabel: string }>;

const FOOTER_NOTICE: Record<QuoteDocument['kind'], (doc: QuoteDocument) => string> = {
  proposta: () => 'Documento sem valor de apólice. Sujeito à análise de aceitação da seguradora.',
  cotacao: (doc) => `Cotação válida até ${doc.validUntil}; valores sujeitos a alteração após essa data.`,
};

/** 'proposta-202600012.pdf' or 'cotacao-202600012.pdf'. */
export function quotePdfFileName(doc: QuoteDocument): string {
  const safeNumber = documentNumber(doc).replace(/[^0-9A-Za-z-]/g, '');
  return `${KIND_TEXT[doc.kind].fileName}-${safeNumber}.pdf`;
}

export async function renderQuotePdf(input: QuoteDocument): Promise<Uint8Array> {
  const doc = withWinAnsiText(input);
  if (doc.kind === 'proposta' && !doc.nrProposta) throw new TypeError('Uma proposta precisa do número da proposta (nrProposta).');
  const title = `${KIND_TEXT[doc.kind].title} — ${doc.product}`;
  const { pdf, bytes, page } = openDocument({
    title: `${title} ${documentNumber(doc)}`,
    subject: `${doc.offer} — ${doc.insured.name}`,
    issuedAt: doc.issuedAt,
  });

  page.title(title);
  page.fields(headerFields(doc), 3);
  if (doc.acceptance) {
    page.section('Aceitação');
    page.fields([{ label: 'Recebida pela seguradora em', value: doc.acceptance.receivedAt }], 3);
    if (doc.acceptance.clock) page.paragraph(doc.acceptance.clock);
  }
  page.insurer();
  page.insured(doc.insured);
  if (doc.answers.length > 0) {
    page.section('Dados do risco');
    page.fields(doc.answers, 2);
  }
  // A proposal contracts its plan; a quote only proposes one.
  page.section(doc.kind === 'proposta' ? 'Plano contratado' : 'Plano escolhido');
  const { pricing } = doc;
  if (pricing) {
    page.paragraph(`Plano: ${pricing.plan}`, { bold: true });
    page.coverages(pricing.coverages, 'Capital segurado');
    page.premiumComposition(pricing.premium);
  } else {
    page.paragraph(NO_PLAN_YET);
  }
  if (doc.payment) {
    const { payment } = doc;
    page.section('Pagamento');
    const count = { label: 'Parcelas', value: `${payment.installments.length}x` };
    page.fields([...payment.lines.filter((l) => !l.wide), count, ...payment.lines.filter((l) => l.wide)], 3);
    page.table(
      INSTALLMENT_COLUMNS,
      payment.installments.map((installment) => [
        `${installment.number}/${payment.installments.length}`,
        installment.dueDate,
        money(installment.value),
      ]),
      { totalRow: ['Total', '', money(payment.total)] },
    );
  }
  if (doc.beneficiaries && doc.beneficiaries.length > 0) page.beneficiaries(doc.beneficiaries);
  page.partnerRemuneration(doc.partner, doc.pricing ? doc.partner.commission : undefined);
  page.productConditions(doc.product, doc.registration, doc.partner.susep);
  page.section('Atendimento ao consumidor');
  for (const line of consumerChannels()) page.paragraph(line);
  page.footers(`${KIND_TEXT[doc.kind].numberLabel} ${documentNumber(doc)}`, FOOTER_NOTICE[doc.kind](doc));

  pdf.end();
  return bytes;
}

function documentNumber(doc: QuoteDocument): string {
  return doc.kind === 'proposta' && doc.nrProposta ? doc.nrProposta : doc.nrCotacao;
}

function headerFields(doc: QuoteDocument): Field[] {
  return [
    ...(doc.kind === 'proposta' ? [{ label: 'Nº da proposta', value: doc.nrProposta ?? '' }] : []),
    { label: 'Nº da cotação', value: doc.nrCotacao },
    { label: 'Situação', value: doc.status },
    { label: 'Produto', value: doc.product },
    { label: 'Ramo', value: doc.branch },
    { label: 'Processo SUSEP', value: doc.registration.process },
    { label: 'Oferta', value: doc.offer },
    { label: 'Criada em', value: doc.createdAt },
    { label: 'Emitida em', value: doc.issuedAt },
    { label: 'Validade', value: `Válida até ${doc.validUntil}` },
    { label: 'Parceiro', value: `${doc.partner.razaoSocial} (CNPJ ${doc.partner.cnpj})` },
    { label: 'Registro SUSEP do corretor', value: brokerRegistration(doc.partner.susep) },
    { label: 'Cotado por', value: doc.seller },
  ];
}

const INSTALLMENT_COLUMNS: Column[] = [
  { header: 'Parcela', width: 0.3, align: 'left' },
  { header: 'Vencimento', width: 0.4, align: 'left' },
  { header: 'Valor', width: 0.3, align: 'right' },
];
