import type { CastingContext } from 'csv-stringify';

/*
 * Every CSV the portal writes (sales reports, relatório de pagamentos, extrato de comissões, log de
 * acesso, the user import's template and result) goes through these options (decision 058): UTF-8 with
 * a BOM (Excel then reads UTF-8), ';' as Excel in pt-BR expects (',' is the decimal mark), CRLF, text
 * that would start a formula ('=', '+', '-', '@', tab, CR) prefixed with a quote (escape_formulas), and
 * identifiers made of digits kept as text.
 */

/**
 * Digits a spreadsheet would turn into a number and so show wrong: a leading zero (policy
 * 011420260000108 → 11420260000108, CEP 01310100 → 1310100) or twelve digits or more (shown as
 * 1,14E+14 in a General cell; past fifteen the last digits become zeros). Shorter numbers without a
 * leading zero read back the same, so they stay numbers.
 */
export const isFragileDigits = (value: string) =>
  /^\d+$/.test(value) && ((value.length > 1 && value.startsWith('0')) || value.length >= 12);

/**
 * Such a cell is written with a tab after its digits, inside quotes: Excel, LibreOffice Calc and
 * Google Sheets then do not read it as a number (a digit string with a tab is not one), and LibreOffice
 * drops the tab on opening (checked with `soffice --convert-to xlsx`: a text cell '011420260000108').
 * Not a leading tab (escape_formulas would prefix it with a visible quote), not a leading quote
 * (Excel and LibreOffice show it), not ="…" (a formula: escape_formulas writes it as text, and tools
 * that refuse formulas show it raw). A program reading the file gets the digits and a tab to trim.
 */
export const TEXT_MARK = '\t';

const keepAsText = (value: string, _context: CastingContext) => (isFragileDigits(value) ? `${value}${TEXT_MARK}` : value);

export const CSV_OPTIONS = {
  bom: true,
  delimiter: ';',
  escape_formulas: true,
  record_delimiter: 'windows',
  cast: { string: keepAsText },
  // The marked cells are quoted: a tab at a field's edge is data only inside quotes for some readers.
  quoted_match: /^\d+\t$/,
} as const;
