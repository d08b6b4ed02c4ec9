import PDFDocument from 'pdfkit';
import type { Cents } from '../../lib/products/types';
import { formatMoney } from '../../lib/masks';
import { COVERAGE_PREMIUM_NOTE } from '../../lib/quote-summary';
import { INSURER, PUBLIC_CHANNELS, type ProductRegistration } from '../../lib/insurer';

/*
 * What every PDF of the portal shares (decision 015: pdfkit with its standard Helvetica fonts): the
 * A4 page, its fonts and colours, the block writer that lays sections, fields and tables from top to
 * bottom and numbers the pages, the premium's composition, and the pt-BR formatting of money and
 * percentages. The quote, the policy and the boleto draw with it, so they look like one family.
 */

export interface DocumentMeta {
  title: string;
  subject: string;
  /** 'dd/mm/aaaa hh:mm' in Brasília time: the metadata's dates, so the same document gives the same bytes. */
  issuedAt: string;
}

/** A buffered A4 document with the portal's metadata, the promise of its bytes, and its block writer. */
export function openDocument(meta: DocumentMeta): { pdf: PDFKit.PDFDocument; bytes: Promise<Uint8Array>; page: PageWriter } {
  const issuedAt = parseIssuedAt(meta.issuedAt);
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.margin + PAGE.footerHeight },
    bufferPages: true, // the footer's "Página n de N" is written once the page count is known
    lang: 'pt-BR',
    displayTitle: true,
    info: {
      Title: meta.title,
      Author: 'Portal de Parceiros',
      Subject: meta.subject,
      Creator: 'Portal de Parceiros',
      Producer: 'Portal de Parceiros',
      CreationDate: issuedAt,
      ModDate: issuedAt,
    },
  });
  const bytes = collect(pdf);
  return { pdf, bytes, page: new PageWriter(pdf) };
}

/** The premium as SUSEP asks it shown: net premium, policy cost and IOF apart, and the total. */
export interface PremiumComposition {
  net: Cents;
  policyCost: Cents;
  /** A fraction, as in `Pricing`: 0.0738, 0.0038 or 0. */
  iofRate: number;
  iof: Cents;
  total: Cents;
}

/** The insured as the documents show them, every text already formatted. */
export interface Insured {
  name: string;
  document: string;
  email: string;
  phone: string;
  address: string;
}

/** The partner who sold; `commissionPercent` in percent (20 → '20 %'). */
export interface Partner {
  razaoSocial: string;
  cnpj: string;
  /** The broker's registration at SUSEP (the company's record); null for a partner that is not a broker. */
  susep: string | null;
  commissionPercent: number;
}

/** What a document says of the broker's SUSEP registration: its number, or why there is none. */
export const brokerRegistration = (susep: string | null): string => susep ?? 'Não se aplica: parceiro sem registro de corretor';

/** A life insurance's beneficiary; `percent` in percent (50 → '50 %'). */
export interface Beneficiary {
  name: string;
  relationship: string;
  percent: number;
}

export interface CoverageLine {
  name: string;
  capital: Cents;
  premium: Cents;
  deductible: string;
}

/** Money as 'R$ 1.234,56' with a plain space, so a text search of the PDF finds it. */
export function money(value: Cents): string {
  return formatMoney(value / 100);
}

const percentNumber = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
/** 7.38 → '7,38 %' (the space is the pt-BR typographic habit). */
export function percent(value: number): string {
  return `${percentNumber.format(value)} %`;
}

export function iofLabel(rate: number): string {
  return rate === 0 ? 'IOF (isento)' : `IOF (${percent(rate * 100)})`;
}

/** 'dd/mm/aaaa hh:mm' in Brasília time (UTC−3 all year since 2019) → the instant, for the metadata. */
export function parseIssuedAt(text: string): Date {
  const match = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(text);
  const date = match ? new Date(`${match[3]}-${match[2]}-${match[1]}T${match[4]}:${match[5]}:00-03:00`) : null;
  if (!date || Number.isNaN(date.getTime())) throw new RangeError(`issuedAt deve ser 'dd/mm/aaaa hh:mm': ${text}`);
  return date;
}

/**
 * The standard PDF fonts draw only the WinAnsi (Windows-1252) characters: Latin-1, which holds
 * every Portuguese letter, plus a few typographic ones (€ “ ” – — …). Anything else would be drawn
 * as an unrelated glyph, so it loses its accent when that leaves a WinAnsi letter (ŕ → r) or becomes '?'.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || code === 0x0a || WIN_ANSI_EXTRAS.has(char);
}
/** Signs outside WinAnsi that have a faithful twin in it (the refund's 'R$ 240,35 − R$ 96,14'). */
const WIN_ANSI_TWINS: Record<string, string> = { '−': '–', '≤': '<=', '≥': '>=', '‐': '-', '‑': '-' };
export function toWinAnsi(text: string): string {
  let result = '';
  for (const char of text.normalize('NFC')) {
    if (isWinAnsi(char)) result += char;
    else if (WIN_ANSI_TWINS[char]) result += WIN_ANSI_TWINS[char];
    else if (/\s/u.test(char)) result += ' ';
    else {
      const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
      result += base !== '' && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return result;
}

export function withWinAnsiText<T>(value: T): T {
  if (typeof value === 'string') return toWinAnsi(value) as T;
  if (Array.isArray(value)) return value.map(withWinAnsiText) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withWinAnsiText(field)])) as T;
  }
  return value;
}

export function collect(pdf: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('error', reject);
    pdf.on('end', () => {
      const buffer = Buffer.concat(chunks);
      resolve(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    });
  });
}

// ——— Layout ———————————————————————————————————————————————————————————————————————————————————

/** Points (1/72 in). A4 is 595 × 842. */
export const PAGE = { margin: 48, footerHeight: 28 } as const;
export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
export const SIZE = { title: 17, section: 11.5, body: 9.5, label: 7.5, footer: 7.5 } as const;
export const COLOR = { text: '#1f2933', muted: '#5f6b7a', accent: '#0b4f8a', rule: '#c9d2dc', band: '#eef3f8' } as const;
export const CELL_PADDING = { x: 5, y: 4 } as const;
/** What a section heading draws below its text: the rule (4 pt) and 0.4 of a heading's line. */
const HEADING_GAP = 4 + 0.4 * SIZE.section * 1.2;

export interface Field {
  label: string;
  value: string;
  wide?: boolean;
}

export interface Column {
  header: string;
  width: number;
  align: 'left' | 'right';
}
/** Widths are shares of the text width, so the tables follow the page size and margins. */
const coverageColumns = (capitalHeader: string): Column[] => [
  { header: 'Cobertura', width: 0.36, align: 'left' },
  { header: capitalHeader, width: 0.2, align: 'right' },
  { header: 'Prêmio', width: 0.16, align: 'right' },
  { header: 'Franquia', width: 0.28, align: 'left' },
];
const PREMIUM_COLUMNS: Column[] = [
  { header: 'Item', width: 0.7, align: 'left' },
  { header: 'Valor', width: 0.3, align: 'right' },
];
const BENEFICIARY_COLUMNS: Column[] = [
  { header: 'Nome', width: 0.5, align: 'left' },
  { header: 'Parentesco', width: 0.3, align: 'left' },
  { header: 'Participação', width: 0.2, align: 'right' },
];

/** Draws blocks top to bottom, starting a new page before a block that would not fit. */
export class PageWriter {
  constructor(private readonly pdf: PDFKit.PDFDocument) {
    pdf.fillColor(COLOR.text).font(FONT.regular).fontSize(SIZE.body);
  }

  get left(): number {
    return this.pdf.page.margins.left;
  }
  get width(): number {
    return this.pdf.page.width - this.pdf.page.margins.left - this.pdf.page.margins.right;
  }
  private get bottom(): number {
    return this.pdf.page.height - this.pdf.page.margins.bottom;
  }

  ensureSpace(height: number): void {
    if (this.pdf.y + height > this.bottom) this.pdf.addPage();
  }

  private textHeight(text: string, width: number, font: string, size: number): number {
    return this.pdf
      .font(font)
      .fontSize(size)
      .heightOfString(text || ' ', { width });
  }

  title(text: string): void {
    this.pdf.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.accent).text(text, this.left, this.pdf.y, { width: this.width });
    this.rule(COLOR.accent, 1.2);
    this.pdf.moveDown(0.6);
  }

  /** A section heading, kept on the same page as at least `keep` points of its content. */
  section(text: string, { keep = 48 } = {}): void {
    this.pdf.moveDown(0.8);
    // The rule under the heading and the space after it come before the content kept with it.
    this.ensureSpace(this.textHeight(text, this.width, FONT.bold, SIZE.section) + HEADING_GAP + keep);
    this.pdf.font(FONT.bold).fontSize(SIZE.section).fillColor(COLOR.accent).text(text, this.left, this.pdf.y, { width: this.width });
    this.rule(COLOR.rule, 0.6);
    this.pdf.moveDown(0.4);
  }

  /** A block of text; `link` makes it a link a reader opens (an address written out in `text`). */
  paragraph(text: string, { bold = false, muted = false, link }: { bold?: boolean; muted?: boolean; link?: string } = {}): void {
    const font = bold ? FONT.bold : FONT.regular;
    const size = muted ? SIZE.label : SIZE.body;
    this.ensureSpace(Math.min(this.textHeight(text, this.width, font, size), 3 * size * 1.3));
    this.pdf
      .font(font)
      .fontSize(size)
      .fillColor(muted ? COLOR.muted : COLOR.text)
      .text(text, this.left, this.pdf.y, { width: this.width, align: link ? 'left' : 'justify', ...(link ? { link } : {}) });
    this.pdf.moveDown(0.4);
  }

  /** A small muted line that explains the block above it. */
  note(text: string): void {
    this.paragraph(text, { muted: true });
  }

  /** Label-over-value pairs in a grid of `columns`; a `wide` field takes a whole row. */
  fields(fields: readonly Field[], columns: number): void {
    const gap = 12;
    const cellWidth = (this.width - gap * (columns - 1)) / columns;
    const rows: Field[][] = [];
    for (const field of fields) {
      const last = rows.at(-1);
      if (field.wide || !last || last.length === columns || last[0]?.wide) rows.push([field]);
      else last.push(field);
    }
    for (const row of rows) {
      const widthOf = (field: Field) => (field.wide ? this.width : cellWidth);
      const height = Math.max(
        ...row.map(
          (field) =>
            this.textHeight(field.label, widthOf(field), FONT.regular, SIZE.label) +
            1 +
            this.textHeight(field.value, widthOf(field), FONT.regular, SIZE.body),
        ),
      );
      this.ensureSpace(height);
      const top = this.pdf.y;
      row.forEach((field, index) => {
        const x = this.left + index * (cellWidth + gap);
        this.pdf
          .font(FONT.regular)
          .fontSize(SIZE.label)
          .fillColor(COLOR.muted)
          .text(field.label, x, top, { width: widthOf(field) });
        this.pdf.moveDown(0.1);
        this.pdf
          .font(FONT.regular)
          .fontSize(SIZE.body)
          .fillColor(COLOR.text)
          .text(field.value || '—', x, this.pdf.y, { width: widthOf(field) });
      });
      this.pdf.x = this.left;
      this.pdf.y = top + height + 6;
    }
  }

  /**
   * A table that repeats its header on each page it continues to; an optional bold total row. A
   * `heading` is a section title kept on the page of the table's first rows: a heading alone at a
   * page's foot, its table on the next, is what a section's fixed `keep` could not prevent.
   */
  table(
    columns: readonly Column[],
    rows: readonly string[][],
    options: { totalRow?: string[]; showHeader?: boolean; heading?: string } = {},
  ): void {
    const { totalRow, showHeader = true, heading } = options;
    const widths = columns.map((column) => column.width * this.width);
    const header = columns.map((column) => column.header);
    const rowHeight = (cells: readonly string[], font: string) =>
      Math.max(...cells.map((cell, index) => this.textHeight(cell, (widths[index] ?? 0) - 2 * CELL_PADDING.x, font, SIZE.body))) +
      2 * CELL_PADDING.y;

    const drawRow = (cells: readonly string[], style: 'header' | 'body' | 'total') => {
      const font = style === 'body' ? FONT.regular : FONT.bold;
      const height = rowHeight(cells, font);
      const top = this.pdf.y;
      if (style === 'header') this.pdf.rect(this.left, top, this.width, height).fill(COLOR.band);
      let x = this.left;
      cells.forEach((cell, index) => {
        const width = widths[index] ?? 0;
        this.pdf
          .font(font)
          .fontSize(SIZE.body)
          .fillColor(style === 'header' ? COLOR.accent : COLOR.text)
          .text(cell, x + CELL_PADDING.x, top + CELL_PADDING.y, {
            width: width - 2 * CELL_PADDING.x,
            align: columns[index]?.align ?? 'left',
          });
        x += width;
      });
      this.pdf
        .moveTo(this.left, top + height)
        .lineTo(this.left + this.width, top + height)
        .lineWidth(style === 'total' ? 0.9 : 0.4)
        .strokeColor(COLOR.rule)
        .stroke();
      this.pdf.x = this.left;
      this.pdf.y = top + height;
    };

    const headerHeight = showHeader ? rowHeight(header, FONT.bold) : 0;
    const all = [
      ...rows.map((cells) => ({ cells, style: 'body' as const })),
      ...(totalRow ? [{ cells: totalRow, style: 'total' as const }] : []),
    ];
    // A table opens where its header and first rows fit, so a header never sits alone at a page's foot.
    const opening =
      headerHeight +
      all.slice(0, 3).reduce((sum, { cells, style }) => sum + rowHeight(cells, style === 'body' ? FONT.regular : FONT.bold), 0);
    if (heading) this.section(heading, { keep: opening });
    this.ensureSpace(opening);
    let firstOnPage = true;
    for (const { cells, style } of all) {
      const height = rowHeight(cells, style === 'body' ? FONT.regular : FONT.bold);
      if (this.pdf.y + (firstOnPage ? headerHeight : 0) + height > this.bottom) {
        this.pdf.addPage();
        firstOnPage = true;
      }
      if (firstOnPage && showHeader) drawRow(header, 'header');
      firstOnPage = false;
      drawRow(cells, style);
    }
    this.pdf.moveDown(0.4);
  }

  /** Who insures, as Circular SUSEP 642/2021 asks every document of the contract to say. */
  insurer(): void {
    this.section('Seguradora');
    this.fields(
      [
        { label: 'Razão social', value: INSURER.name },
        { label: 'CNPJ', value: INSURER.cnpj },
        { label: 'Código SUSEP', value: INSURER.susepCode },
        { label: 'Endereço', value: INSURER.address, wide: true },
      ],
      3,
    );
  }

  /**
   * The product's registration and its Condições Gerais — which govern the contract and where the
   * insured reads them — with SUSEP's notices (Circular SUSEP 642/2021): that registering is not
   * recommending, and how to check the broker's registration.
   */
  productConditions(product: string, registration: ProductRegistration, brokerSusep: string | null): void {
    this.section('Condições Gerais e registro na SUSEP');
    this.paragraph(
      `Este seguro é regido pelas Condições Gerais do produto ${product}, registradas na SUSEP sob o processo nº ` +
        `${registration.process}, que detalham coberturas, riscos excluídos, franquias, carências, obrigações do ` +
        'segurado e o que fazer em caso de sinistro (Circular SUSEP nº 642/2021). Leia e baixe as Condições Gerais ' +
        `no site da seguradora, no endereço abaixo, ou na consulta pública de produtos da SUSEP (${PUBLIC_CHANNELS.susepSite}), ` +
        'pelo número do processo.',
    );
    // On a line of its own, so it is never cut where it would be copied with a space in it.
    this.paragraph(registration.conditionsUrl, { bold: true, link: `https://${registration.conditionsUrl}` });
    this.paragraph('O registro do produto na SUSEP não implica, por parte da Autarquia, incentivo ou recomendação à sua comercialização.');
    if (brokerSusep)
      this.paragraph(
        `O segurado pode consultar a situação cadastral do corretor de seguros em ${PUBLIC_CHANNELS.susepSite}, pelo ` +
          `número de registro na SUSEP (${brokerSusep}), nome completo, CNPJ ou CPF.`,
      );
  }

  /** Who receives a life insurance's capital, and in what share (the proposal's and the policy's). */
  beneficiaries(beneficiaries: readonly Beneficiary[]): void {
    this.table(
      BENEFICIARY_COLUMNS,
      beneficiaries.map((b) => [b.name, b.relationship, percent(b.percent)]),
      { heading: 'Beneficiários' },
    );
  }

  insured(insured: Insured): void {
    this.section('Segurado');
    this.fields(
      [
        { label: 'Nome / Razão social', value: insured.name },
        { label: 'CPF / CNPJ', value: insured.document },
        { label: 'E-mail', value: insured.email },
        { label: 'Telefone', value: insured.phone },
        { label: 'Endereço', value: insured.address, wide: true },
      ],
      2,
    );
  }

  /** The partner's remuneration, which Resolução CNSP 382/2020 asks be told; undefined `commission` while no plan is priced. */
  partnerRemuneration(partner: Partner, commission: Cents | undefined): void {
    this.section('Remuneração do parceiro');
    this.paragraph(
      `Em cumprimento à Resolução CNSP nº 382/2020, informamos que o parceiro ${partner.razaoSocial} ` +
        `(CNPJ ${partner.cnpj}) receberá remuneração de ${percent(partner.commissionPercent)} sobre o ` +
        (commission === undefined
          ? 'prêmio líquido, calculada quando o plano for escolhido.'
          : `prêmio líquido, equivalente a ${money(commission)}.`),
    );
  }

  /** The coverages with their sums, premiums and deductibles, and how those premiums add up (decision 023). */
  coverages(lines: readonly CoverageLine[], capitalHeader: string, heading?: string): void {
    this.table(
      coverageColumns(capitalHeader),
      lines.map((coverage) => [coverage.name, money(coverage.capital), money(coverage.premium), coverage.deductible]),
      { heading },
    );
    this.note(toWinAnsi(COVERAGE_PREMIUM_NOTE));
  }

  /** The premium's composition under its heading, IOF apart with its rate. */
  premiumComposition(premium: PremiumComposition): void {
    // Its four short rows go with the heading: a table that opens on the next page would leave it alone.
    this.section('Composição do prêmio', { keep: 4 * (SIZE.body * 1.2 + 2 * CELL_PADDING.y) + 8 });
    this.table(
      PREMIUM_COLUMNS,
      [
        ['Prêmio líquido', money(premium.net)],
        ['Custo de apólice', money(premium.policyCost)],
        [iofLabel(premium.iofRate), money(premium.iof)],
      ],
      { totalRow: ['Prêmio total', money(premium.total)], showHeader: false },
    );
  }

  private rule(color: string, lineWidth: number): void {
    const y = this.pdf.y + 2;
    this.pdf
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(lineWidth)
      .strokeColor(color)
      .stroke();
    this.pdf.y = y + 2;
  }

  /** Writes each buffered page's footer: the document, the notice and "Página n de N". */
  footers(documentLabel: string, notice: string): void {
    const { start, count } = this.pdf.bufferedPageRange();
    for (let index = start; index < start + count; index += 1) {
      this.pdf.switchToPage(index);
      const { margins } = this.pdf.page;
      const bottomMargin = margins.bottom;
      // Text below the bottom margin would open a new page: lift the margin while writing the footer.
      margins.bottom = 0;
      const top = this.pdf.page.height - PAGE.margin - PAGE.footerHeight + 10;
      this.pdf
        .moveTo(this.left, top - 4)
        .lineTo(this.left + this.width, top - 4)
        .lineWidth(0.4)
        .strokeColor(COLOR.rule)
        .stroke();
      const pageText = `${documentLabel} · Página ${index - start + 1} de ${count}`;
      const pageTextWidth = this.pdf.font(FONT.regular).fontSize(SIZE.footer).widthOfString(pageText) + 2;
      this.pdf
        .fillColor(COLOR.muted)
        .text(notice, this.left, top, { width: this.width - pageTextWidth - 12, lineBreak: true })
        .text(pageText, this.left + this.width - pageTextWidth, top, { width: pageTextWidth, align: 'right', lineBreak: false });
      margins.bottom = bottomMargin;
    }
  }
}
