import type { Cents } from '../../lib/products/types';
import { consumerChannels } from './policy-pdf';
import { money, openDocument, percent, withWinAnsiText, type Column, type PageWriter } from './writer';

/*
 * An endorsement (endosso) as a PDF (issue 14; decision 039): what changed in the policy, by whom,
 * from when, and what it costs or returns. Circular SUSEP 642/2021 asks an endorsement to carry the
 * insurer, the policy it changes and the change; a cancellation's refund shows how each figure was
 * reached, as the resumo showed it before anyone confirmed. Every text arrives formatted for pt-BR
 * except money, which is formatted here.
 */

export interface ContactChange {
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

export interface CancellationDetails {
  /** 'O segurado', 'A seguradora'. */
  requester: string;
  reason: string;
  /** How the refund was computed ('Pedido do segurado: tabela de prazo curto'). */
  rule: string;
  daysUsed: number;
  termDays: number;
  percentKept: number;
  coverages: { name: string; premium: Cents }[];
  refundLines: { label: string; amount: Cents; how: string }[];
  refundTotal: Cents;
  /** 'dd/mm/aaaa', or null when nothing is refunded. */
  expectedDate: string | null;
  /** Masked: 'Pix (e-mail) f***@exemplo.com'. */
  destination: string | null;
  installmentsCancelled: number[];
  installmentsReduced: { number: number; from: Cents; to: Cents }[];
  clawback: Cents;
}

export interface EndorsementDocument {
  nrEndosso: string;
  /** 'Alteração de dados cadastrais', 'Cancelamento da apólice'… */
  kind: string;
  nrApolice: string;
  idContratacao: number;
  product: string;
  insured: { name: string; document: string };
  /** 'dd/mm/aaaa'. */
  effectiveDate: string;
  /** 'dd/mm/aaaa hh:mm' in Brasília time: also the PDF's dates. */
  issuedAt: string;
  issuedBy: string;
  premium: { before: Cents; after: Cents };
  contact?: ContactChange[];
  cancellation?: CancellationDetails;
}

const CONTACT_COLUMNS: Column[] = [
  { header: 'Dado', width: 0.16, align: 'left' },
  { header: 'Antes', width: 0.42, align: 'left' },
  { header: 'Depois', width: 0.42, align: 'left' },
];
const COVERAGE_COLUMNS: Column[] = [
  { header: 'Cobertura', width: 0.7, align: 'left' },
  { header: 'Prêmio', width: 0.3, align: 'right' },
];
const REFUND_COLUMNS: Column[] = [
  { header: 'Item', width: 0.3, align: 'left' },
  { header: 'Como foi calculado', width: 0.5, align: 'left' },
  { header: 'Valor', width: 0.2, align: 'right' },
];
const REDUCED_COLUMNS: Column[] = [
  { header: 'Parcela', width: 0.34, align: 'left' },
  { header: 'Valor anterior', width: 0.33, align: 'right' },
  { header: 'Novo valor', width: 0.33, align: 'right' },
];
const PREMIUM_COLUMNS: Column[] = [
  { header: 'Item', width: 0.7, align: 'left' },
  { header: 'Valor', width: 0.3, align: 'right' },
];

export const endorsementPdfFileName = (nrApolice: string, nrEndosso: string): string =>
  `endosso-${nrEndosso.replace(/[^0-9A-Za-z-]/g, '')}-apolice-${nrApolice.replace(/[^0-9A-Za-z-]/g, '')}.pdf`;

const ordinals = (numbers: readonly number[]) => numbers.map((n) => `${n}ª`).join(', ');

function writeContact(page: PageWriter, changes: readonly ContactChange[], premium: Cents) {
  page.section('Dados alterados');
  page.table(
    CONTACT_COLUMNS,
    changes.map((c) => [c.changed ? `${c.label} (alterado)` : c.label, c.before, c.after]),
  );
  page.note(`Este endosso não altera o prêmio da apólice, que continua ${money(premium)}.`);
}

function writeCancellation(page: PageWriter, c: CancellationDetails, premium: EndorsementDocument['premium']) {
  page.section('Cancelamento');
  page.fields(
    [
      { label: 'Solicitado por', value: c.requester },
      { label: 'Motivo', value: c.reason },
      { label: 'Dias de cobertura', value: `${c.daysUsed} de ${c.termDays}` },
      { label: 'Regra da restituição', value: c.rule, wide: true },
    ],
    3,
  );
  page.section('Coberturas canceladas');
  page.table(
    COVERAGE_COLUMNS,
    c.coverages.map((coverage) => [coverage.name, money(coverage.premium)]),
  );

  page.section('Restituição ao segurado');
  page.table(
    REFUND_COLUMNS,
    c.refundLines.map((line) => [line.label, line.how, money(line.amount)]),
    { totalRow: ['Total a restituir', '', money(c.refundTotal)] },
  );
  page.fields(
    [
      { label: 'Prêmio retido', value: percent(c.percentKept) },
      { label: 'Previsão de pagamento', value: c.expectedDate ?? 'Não há valor a restituir' },
      { label: 'Destino', value: c.destination ?? '—' },
    ],
    3,
  );

  page.section('Parcelas');
  page.paragraph(
    c.installmentsCancelled.length === 0
      ? 'Nenhuma parcela foi cancelada.'
      : `Parcelas canceladas (não serão cobradas): ${ordinals(c.installmentsCancelled)}.`,
  );
  if (c.installmentsReduced.length > 0)
    page.table(
      REDUCED_COLUMNS,
      c.installmentsReduced.map((i) => [`${i.number}ª`, money(i.from), money(i.to)]),
    );

  page.section('Prêmio e comissão');
  page.table(
    PREMIUM_COLUMNS,
    [
      ['Prêmio total antes do endosso', money(premium.before)],
      ['Prêmio total depois do endosso', money(premium.after)],
      ['Estorno da comissão do parceiro', money(c.clawback)],
    ],
    { showHeader: false },
  );
  page.note('A comissão paga ao parceiro sobre o prêmio devolvido é estornada (Resolução CNSP nº 382/2020).');
}

export async function renderEndorsementPdf(input: EndorsementDocument): Promise<Uint8Array> {
  const doc = withWinAnsiText(input);
  const title = `Endosso — ${doc.kind}`;
  const { pdf, bytes, page } = openDocument({
    title: `${title} ${doc.nrEndosso}`,
    subject: `Apólice ${doc.nrApolice} — ${doc.insured.name}`,
    issuedAt: doc.issuedAt,
  });

  page.title(title);
  page.fields(
    [
      { label: 'Nº do endosso', value: doc.nrEndosso },
      { label: 'Tipo', value: doc.kind },
      { label: 'Efetivo em', value: doc.effectiveDate },
      { label: 'Nº da apólice', value: doc.nrApolice },
      { label: 'Contrato', value: String(doc.idContratacao) },
      { label: 'Produto', value: doc.product },
      { label: 'Emitido em', value: doc.issuedAt },
      { label: 'Emitido por', value: doc.issuedBy },
    ],
    3,
  );
  page.insurer();
  page.section('Segurado');
  page.fields(
    [
      { label: 'Nome / Razão social', value: doc.insured.name },
      { label: 'CPF / CNPJ', value: doc.insured.document },
    ],
    2,
  );
  if (doc.contact) writeContact(page, doc.contact, doc.premium.after);
  if (doc.cancellation) writeCancellation(page, doc.cancellation, doc.premium);
  page.section('Atendimento ao consumidor');
  for (const line of consumerChannels()) page.paragraph(line);
  page.footers(
    `Endosso nº ${doc.nrEndosso} · Apólice nº ${doc.nrApolice}`,
    'Este endosso integra a apólice e altera apenas o que nele consta.',
  );

  pdf.end();
  return bytes;
}
