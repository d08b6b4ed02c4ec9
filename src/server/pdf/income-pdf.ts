import type { Cents } from '../../lib/products/types';
import { money, openDocument, withWinAnsiText, type Column } from './writer';

/*
 * The income statement (informe de rendimentos, issue 15; decision 041) in the layout Brazilian
 * payers use for the annual statement: the Comprovante Anual de Rendimentos Pagos ou Creditados e de
 * Retenção de Imposto de Renda na Fonte — Pessoa Jurídica (IN SRF 119/2000: payer, beneficiary, the
 * payments and withholdings month by month with their code, complementary information, who is
 * responsible), or, for a person, the Comprovante de Rendimentos Pagos e de Imposto sobre a Renda
 * Retido na Fonte (IN RFB 2.060/2021: the numbered boxes 1 to 7), with the months in box 6. The tax
 * table is illustrative (lib/income-tax.ts). Every text arrives formatted for pt-BR but money.
 */

export interface IncomeDocument {
  kind: 'PJ' | 'PF';
  year: number;
  payer: { name: string; cnpj: string };
  beneficiary: { name: string; taxId: string };
  /** The withholding's code and the income's description (lib/income-tax.ts IRRF_RULES). */
  code: string;
  description: string;
  months: { label: string; gross: Cents; withheld: Cents }[];
  totals: { gross: Cents; withheld: Cents };
  /** 'dd/mm/aaaa hh:mm' in Brasília time: also the PDF's dates. */
  issuedAt: string;
  notes: string[];
}

export const incomePdfFileName = (taxId: string, year: number) => `informe-rendimentos-${taxId.replace(/[^0-9A-Z]/g, '')}-${year}.pdf`;

const PJ_COLUMNS: Column[] = [
  { header: 'Mês/Período', width: 0.16, align: 'left' },
  { header: 'Código da retenção', width: 0.14, align: 'left' },
  { header: 'Descrição do rendimento', width: 0.34, align: 'left' },
  { header: 'Rendimento (R$)', width: 0.18, align: 'right' },
  { header: 'Imposto retido (R$)', width: 0.18, align: 'right' },
];
const BOX_COLUMNS: Column[] = [
  { header: 'Item', width: 0.75, align: 'left' },
  { header: 'Valores em reais', width: 0.25, align: 'right' },
];
const MONTH_COLUMNS: Column[] = [
  { header: 'Mês', width: 0.4, align: 'left' },
  { header: 'Rendimento bruto (R$)', width: 0.3, align: 'right' },
  { header: 'Imposto retido (R$)', width: 0.3, align: 'right' },
];

export const INCOME_TITLES = {
  PJ: 'Comprovante Anual de Rendimentos Pagos ou Creditados e de Retenção de Imposto de Renda na Fonte — Pessoa Jurídica',
  PF: 'Comprovante de Rendimentos Pagos e de Imposto sobre a Renda Retido na Fonte',
} as const;

export async function renderIncomePdf(input: IncomeDocument): Promise<Uint8Array> {
  const doc = withWinAnsiText(input);
  const { pdf, bytes, page } = openDocument({
    title: `Informe de rendimentos ${doc.year} — ${doc.beneficiary.name}`,
    subject: `${INCOME_TITLES[doc.kind]} — ano-calendário ${doc.year}`,
    issuedAt: doc.issuedAt,
  });
  page.title(INCOME_TITLES[doc.kind]);
  page.fields(
    [
      { label: 'Ano-calendário', value: String(doc.year) },
      { label: 'Exercício', value: String(doc.year + 1) },
      { label: 'Emitido em', value: doc.issuedAt },
    ],
    3,
  );

  if (doc.kind === 'PJ') {
    page.section('1. Fonte pagadora');
    page.fields(
      [
        { label: 'Nome empresarial', value: doc.payer.name },
        { label: 'CNPJ', value: doc.payer.cnpj },
      ],
      2,
    );
    page.section('2. Pessoa jurídica beneficiária dos rendimentos');
    page.fields(
      [
        { label: 'Nome empresarial', value: doc.beneficiary.name },
        { label: 'CNPJ', value: doc.beneficiary.taxId },
      ],
      2,
    );
    page.section('3. Relação de pagamentos e retenções');
    page.table(
      PJ_COLUMNS,
      doc.months.map((m) => [m.label, doc.code, doc.description, money(m.gross), money(m.withheld)]),
      { totalRow: ['Total', '', '', money(doc.totals.gross), money(doc.totals.withheld)] },
    );
    page.section('4. Informações complementares');
    for (const note of doc.notes) page.paragraph(note);
    page.section('5. Responsável pelas informações');
  } else {
    page.section('1. Fonte pagadora pessoa jurídica');
    page.fields(
      [
        { label: 'Nome empresarial', value: doc.payer.name },
        { label: 'CNPJ', value: doc.payer.cnpj },
      ],
      2,
    );
    page.section('2. Pessoa física beneficiária dos rendimentos');
    page.fields(
      [
        { label: 'CPF', value: doc.beneficiary.taxId },
        { label: 'Nome completo', value: doc.beneficiary.name },
        { label: 'Natureza do rendimento', value: `${doc.description} (código ${doc.code})`, wide: true },
      ],
      2,
    );
    page.section('3. Rendimentos tributáveis, deduções e imposto sobre a renda retido na fonte');
    page.table(BOX_COLUMNS, [
      ['01. Total dos rendimentos (inclusive férias)', money(doc.totals.gross)],
      ['02. Contribuição previdenciária oficial', money(0)],
      ['03. Contribuições a entidades de previdência complementar', money(0)],
      ['04. Pensão alimentícia', money(0)],
      ['05. Imposto sobre a renda retido na fonte', money(doc.totals.withheld)],
    ]);
    page.section('4. Rendimentos isentos e não tributáveis');
    page.paragraph('Nenhum.');
    page.section('5. Rendimentos sujeitos à tributação exclusiva (rendimento líquido)');
    page.paragraph('Nenhum.');
    page.section('6. Informações complementares');
    page.table(
      MONTH_COLUMNS,
      doc.months.map((m) => [m.label, money(m.gross), money(m.withheld)]),
      { totalRow: ['Total', money(doc.totals.gross), money(doc.totals.withheld)] },
    );
    for (const note of doc.notes) page.paragraph(note);
    page.section('7. Responsável pelas informações');
  }
  page.fields(
    [
      { label: 'Nome', value: `${doc.payer.name} — Departamento Financeiro` },
      { label: 'Data', value: doc.issuedAt.slice(0, 10) },
      { label: 'Assinatura', value: 'Documento emitido eletronicamente pelo Portal de Parceiros; dispensa assinatura.', wide: true },
    ],
    2,
  );
  page.footers(
    `Informe de rendimentos ${doc.year} · ${doc.beneficiary.taxId}`,
    'Valores ilustrativos do portal de demonstração: não substituem o informe oficial da fonte pagadora.',
  );
  pdf.end();
  return bytes;
}
