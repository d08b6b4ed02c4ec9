import QRCode from 'qrcode';
import { formatDigitableLine, interleaved2of5 } from '../../lib/boleto';
import { LATE_CHARGES, RECEIVER } from '../../lib/charges';
import { INSURER } from '../../lib/insurer';
import type { Cents } from '../../lib/products/types';
import { COLOR, FONT, money, openDocument, percent, withWinAnsiText } from './writer';

/**
 * The "boleto híbrido" of one installment as a PDF (issue 13, decision 034): above, the Pix QR code
 * and its copia e cola; below the cut line, the ficha de compensação laid out as Brazilian banks
 * print it — bank, linha digitável, the boxes a teller reads, and the barcode in Interleaved 2 of 5
 * drawn as rectangles from lib/boleto.ts's widths, so any bank's reader scans it.
 */
export interface BoletoDocument {
  nrApolice: string;
  installment: { number: number; count: number };
  charge: {
    vencimento: string; // 'dd/mm/aaaa'
    valor: Cents;
    multa: Cents;
    juros: Cents;
    total: Cents;
    nossoNumero: string;
    linhaDigitavel: string; // 47 digits
    barcode: string; // 44 digits
    pixCopiaECola: string;
  };
  payer: { name: string; document: string; address: string };
  /** 'dd/mm/aaaa': the policy's issue, which the charge collects. */
  documentDate: string;
  /** 'dd/mm/aaaa hh:mm': when this PDF was made (also the metadata's dates). */
  issuedAt: string;
}

/** FEBRABAN's barcode: 0,25 mm narrow elements (0.72 pt, 3 px at 300 dpi), wide three times, 13 mm tall. */
export const BARCODE = { narrow: 0.72, wideRatio: 3, height: 36 } as const;
/** The Pix QR code's side in points, and its quiet zone in modules. */
const QR = { size: 132, quietModules: 4 } as const;

const BLACK = '#000000';
const LABEL_SIZE = 6;
const VALUE_SIZE = 8.5;
const ROW = 22;
/** The right-hand column of the ficha: due date, account, our number and the amounts. */
const RIGHT_COLUMN = 132;

export const boletoPdfFileName = (nrApolice: string, numero: number): string =>
  `boleto-${nrApolice.replace(/[^0-9A-Za-z-]/g, '')}-parcela-${numero}.pdf`;

/** The bars of an Interleaved 2 of 5 code: each bar's offset from the start and its width, in points. */
export function barcodeBars(code: string): { x: number; width: number }[] {
  const bars: { x: number; width: number }[] = [];
  let x = 0;
  interleaved2of5(code, BARCODE.wideRatio).forEach((units, index) => {
    const width = units * BARCODE.narrow;
    if (index % 2 === 0) bars.push({ x, width }); // even elements are bars, odd ones spaces
    x += width;
  });
  return bars;
}

export async function renderBoletoPdf(input: BoletoDocument): Promise<Uint8Array> {
  const doc = withWinAnsiText(input);
  const { installment, charge } = doc;
  const parcela = `${installment.number}/${installment.count}`;
  const { pdf, bytes, page } = openDocument({
    title: `Boleto da parcela ${parcela} da apólice ${doc.nrApolice}`,
    subject: `${INSURER.name} — ${doc.payer.name}`,
    issuedAt: doc.issuedAt,
  });

  page.title(`Boleto e Pix — parcela ${parcela} da apólice ${doc.nrApolice}`);
  page.fields(
    [
      { label: 'Pagador', value: doc.payer.name },
      { label: 'Vencimento', value: charge.vencimento },
      { label: 'Valor a pagar', value: money(charge.total) },
    ],
    3,
  );
  page.section('Pague com Pix');
  const top = pdf.y;
  drawQr(pdf, charge.pixCopiaECola, page.left, top);
  const textX = page.left + QR.size + 16;
  const textWidth = page.width - QR.size - 16;
  pdf
    .font(FONT.regular)
    .fontSize(8.5)
    .fillColor(COLOR.text)
    .text('Abra o app do seu banco, escolha pagar com Pix e leia o QR code, ou copie o código abaixo (Pix copia e cola).', textX, top + 8, {
      width: textWidth,
    })
    .moveDown(0.6)
    .font(FONT.bold)
    .fontSize(7.5)
    .text('Pix copia e cola', { width: textWidth })
    .font('Courier')
    .fontSize(7.5);
  // Cut by character, never at a space: a line break would swallow the payload's spaces and the code copied would fail.
  const perLine = Math.floor(textWidth / pdf.widthOfString('0'));
  for (let start = 0; start < charge.pixCopiaECola.length; start += perLine)
    pdf.text(charge.pixCopiaECola.slice(start, start + perLine), textX, pdf.y, { width: textWidth, lineBreak: false });
  pdf
    .moveDown(0.6)
    .font(FONT.regular)
    .fontSize(7.5)
    .fillColor(COLOR.muted)
    .text('O Pix vale até o vencimento; depois dele, emita a 2ª via no portal.', { width: textWidth });

  // What the payer keeps: the same facts as the slip, above the cut line.
  pdf.x = page.left;
  pdf.y = top + QR.size + 4;
  page.section('Recibo do pagador');
  page.fields(
    [
      { label: 'Beneficiário', value: `${INSURER.name} — CNPJ ${INSURER.cnpj}` },
      { label: 'Agência / Código do beneficiário', value: `${RECEIVER.agency} / ${RECEIVER.agreement}` },
      { label: 'Nosso número', value: charge.nossoNumero },
      { label: 'Nº do documento', value: `${doc.nrApolice}/${installment.number}` },
      { label: 'Valor do documento', value: money(charge.valor) },
      { label: 'Valor cobrado', value: money(charge.total) },
      { label: 'Linha digitável', value: formatDigitableLine(charge.linhaDigitavel), wide: true },
    ],
    3,
  );
  drawCompensationSlip(pdf, doc, page.left, page.width);
  page.footers(`Apólice nº ${doc.nrApolice} · parcela ${parcela}`, `${INSURER.name} — CNPJ ${INSURER.cnpj}`);
  pdf.end();
  return bytes;
}

/** The QR code from the `qrcode` package's module matrix, one rectangle per run of dark modules in a row. */
function drawQr(pdf: PDFKit.PDFDocument, text: string, x: number, y: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = QR.size / (modules.size + 2 * QR.quietModules);
  const origin = (index: number) => (index + QR.quietModules) * cell;
  for (let row = 0; row < modules.size; row++) {
    let start = -1;
    for (let col = 0; col <= modules.size; col++) {
      const dark = col < modules.size && modules.get(row, col);
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        pdf.rect(x + origin(start), y + origin(row), (col - start) * cell, cell);
        start = -1;
      }
    }
  }
  pdf.fill(BLACK);
}

interface Box {
  label: string;
  value: string;
  width: number;
  /** Right-aligned values are amounts and numbers, as the slip prints them. */
  align?: 'left' | 'right';
  bold?: boolean;
}

/** The ficha de compensação, at the foot of the page below a cut line. */
function drawCompensationSlip(pdf: PDFKit.PDFDocument, doc: BoletoDocument, left: number, width: number): void {
  const { charge } = doc;
  const late = charge.multa + charge.juros;
  const leftWidth = width - RIGHT_COLUMN;
  const instructionsHeight = 5 * ROW;
  const payerHeight = 34;
  const height = 26 + 4 * ROW + instructionsHeight + payerHeight + 14 + BARCODE.height;
  const bottom = pdf.page.height - pdf.page.margins.bottom - 6;
  let y = bottom - height;

  // The cut line between what the payer keeps and what the bank keeps.
  pdf
    .moveTo(left, y - 14)
    .lineTo(left + width, y - 14)
    .dash(3, { space: 2 })
    .lineWidth(0.5)
    .strokeColor(COLOR.muted)
    .stroke()
    .undash();
  pdf
    .font(FONT.regular)
    .fontSize(6)
    .fillColor(COLOR.muted)
    .text('Corte na linha pontilhada', left, y - 22, { width, align: 'right', lineBreak: false });

  // Bank, its code with check digit, and the linha digitável at the top right.
  pdf
    .font(FONT.bold)
    .fontSize(11)
    .fillColor(BLACK)
    .text('Banco do Brasil', left, y + 8, { width: 120, lineBreak: false });
  pdf
    .font(FONT.bold)
    .fontSize(14)
    .text(`${RECEIVER.bank}-9`, left + 124, y + 6, { width: 52, align: 'center', lineBreak: false });
  pdf
    .font(FONT.bold)
    .fontSize(10)
    .text(formatDigitableLine(charge.linhaDigitavel), left + 180, y + 8, { width: width - 180, align: 'right', lineBreak: false });
  verticalRule(pdf, left + 122, y + 2, y + 24);
  verticalRule(pdf, left + 178, y + 2, y + 24);
  pdf
    .moveTo(left, y + 24)
    .lineTo(left + width, y + 24)
    .lineWidth(1.2)
    .strokeColor(BLACK)
    .stroke();
  y += 26;

  const rows: Box[][] = [
    [
      { label: 'Local de pagamento', value: 'Pagável em qualquer banco, lotérica ou app até o vencimento', width: leftWidth },
      { label: 'Vencimento', value: charge.vencimento, width: RIGHT_COLUMN, align: 'right', bold: true },
    ],
    [
      { label: 'Beneficiário', value: `${INSURER.name} — CNPJ ${INSURER.cnpj}`, width: leftWidth },
      {
        label: 'Agência / Código do beneficiário',
        value: `${RECEIVER.agency} / ${RECEIVER.agreement}`,
        width: RIGHT_COLUMN,
        align: 'right',
      },
    ],
    [
      { label: 'Data do documento', value: doc.documentDate, width: 72 },
      { label: 'Nº do documento', value: `${doc.nrApolice}/${doc.installment.number}`, width: 106 },
      { label: 'Espécie doc.', value: 'AP', width: 48 },
      { label: 'Aceite', value: 'N', width: 36 },
      { label: 'Data do processamento', value: doc.issuedAt.slice(0, 10), width: leftWidth - 262 },
      { label: 'Nosso número', value: charge.nossoNumero, width: RIGHT_COLUMN, align: 'right' },
    ],
    [
      { label: 'Uso do banco', value: '', width: 72 },
      { label: 'Carteira', value: '17', width: 52 },
      { label: 'Espécie', value: 'R$', width: 48 },
      { label: 'Quantidade', value: '', width: 70 },
      { label: 'Valor', value: '', width: leftWidth - 242 },
      { label: '(=) Valor do documento', value: money(charge.valor), width: RIGHT_COLUMN, align: 'right', bold: true },
    ],
  ];
  for (const row of rows) {
    drawRow(pdf, row, left, y, ROW);
    y += ROW;
  }

  const instructions = [
    `Parcela ${doc.installment.number}/${doc.installment.count} da apólice nº ${doc.nrApolice}.`,
    `Após o vencimento: multa de ${percent(LATE_CHARGES.finePercent)} e juros de ${percent(LATE_CHARGES.monthlyInterestPercent)} ao mês, ` +
      'proporcionais aos dias de atraso; emita a 2ª via no portal.',
    ...(late > 0 ? [`2ª via: inclui multa de ${money(charge.multa)} e juros de ${money(charge.juros)}.`] : []),
    'O Pix deste boleto vale até o vencimento.',
    'A falta de pagamento pode suspender ou cancelar a cobertura, nos termos das condições gerais.',
  ];
  drawBox(
    pdf,
    { label: 'Instruções (texto de responsabilidade do beneficiário)', value: '', width: leftWidth },
    left,
    y,
    instructionsHeight,
  );
  pdf
    .font(FONT.regular)
    .fontSize(7.5)
    .fillColor(BLACK)
    .text(instructions.join('\n'), left + 4, y + 11, { width: leftWidth - 8, lineGap: 1.5 });
  const amounts: Box[] = [
    { label: '(-) Desconto / Abatimento', value: '', width: RIGHT_COLUMN },
    { label: '(-) Outras deduções', value: '', width: RIGHT_COLUMN },
    { label: '(+) Mora / Multa', value: late > 0 ? money(late) : '', width: RIGHT_COLUMN, align: 'right' },
    { label: '(+) Outros acréscimos', value: '', width: RIGHT_COLUMN },
    { label: '(=) Valor cobrado', value: late > 0 ? money(charge.total) : '', width: RIGHT_COLUMN, align: 'right', bold: true },
  ];
  amounts.forEach((box, index) => {
    drawBox(pdf, box, left + leftWidth, y + index * ROW, ROW);
  });
  y += instructionsHeight;

  drawBox(pdf, { label: 'Pagador', value: '', width }, left, y, payerHeight);
  pdf
    .font(FONT.regular)
    .fontSize(VALUE_SIZE)
    .fillColor(BLACK)
    .text(`${doc.payer.name} — CPF/CNPJ ${doc.payer.document}`, left + 4, y + 10, { width: width - 8, lineBreak: false })
    .text(doc.payer.address, left + 4, y + 21, { width: width - 8, lineBreak: false });
  y += payerHeight;
  pdf
    .font(FONT.regular)
    .fontSize(LABEL_SIZE)
    .fillColor(BLACK)
    .text('Autenticação mecânica — Ficha de Compensação', left, y + 3, { width, align: 'right', lineBreak: false });

  // The page margin on either side is the quiet zone a reader needs (at least ten narrow elements).
  const barTop = y + 14;
  for (const bar of barcodeBars(charge.barcode)) pdf.rect(left + bar.x, barTop, bar.width, BARCODE.height);
  pdf.fill(BLACK);
}

function drawRow(pdf: PDFKit.PDFDocument, boxes: readonly Box[], left: number, y: number, height: number): void {
  let x = left;
  for (const box of boxes) {
    drawBox(pdf, box, x, y, height);
    x += box.width;
  }
}

/** A labelled box of the slip: the label small at its top, the value under it. */
function drawBox(pdf: PDFKit.PDFDocument, box: Box, x: number, y: number, height: number): void {
  pdf.rect(x, y, box.width, height).lineWidth(0.5).strokeColor(BLACK).stroke();
  pdf
    .font(FONT.regular)
    .fontSize(LABEL_SIZE)
    .fillColor(COLOR.muted)
    .text(box.label, x + 3, y + 2, { width: box.width - 6, lineBreak: false });
  if (box.value)
    pdf
      .font(box.bold ? FONT.bold : FONT.regular)
      .fontSize(VALUE_SIZE)
      .fillColor(BLACK)
      .text(box.value, x + 3, y + 10, { width: box.width - 6, align: box.align ?? 'left', lineBreak: false });
}

function verticalRule(pdf: PDFKit.PDFDocument, x: number, from: number, to: number): void {
  pdf.moveTo(x, from).lineTo(x, to).lineWidth(1.2).strokeColor(BLACK).stroke();
}
