/*
 * The boleto's barcode and linha digitável, built from the FEBRABAN layout (Carta-Circular BCB
 * 2.926/2000): 44 digits of barcode — bank, currency, general check digit (módulo 11), due-date
 * factor, amount, and 25 digits of the bank's free field — and the 47-digit line a person types,
 * made of the same digits in five fields with módulo 10 check digits. Tests check both against
 * @brazilian-utils/brazilian-utils (decision 033).
 */

const DAY_MS = 86_400_000;
const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The factor's first cycle counts days from 07/10/1997; it reached 9999 on 21/02/2025. */
const FIRST_BASE = utc('1997-10-07');
/** From 22/02/2025 the factor starts again at 1000 and runs 9000 days a cycle (FEBRABAN). */
const RESET = utc('2025-02-22');
const CYCLE_DAYS = 9000;

/** The 4-digit due-date factor of an ISO day ('2026-12-10'). */
export function dueFactor(isoDay: string): number {
  const day = utc(isoDay);
  if (day < RESET) {
    const factor = Math.round((day - FIRST_BASE) / DAY_MS);
    if (factor < 1000) throw new RangeError(`Vencimento anterior ao fator 1000: ${isoDay}`);
    return factor;
  }
  return 1000 + (Math.round((day - RESET) / DAY_MS) % CYCLE_DAYS);
}

const digitsOf = (text: string) => [...text].map(Number);

/** Módulo 10 of a linha digitável field: weights 2, 1, 2… from the right, a product's digits summed. */
export function mod10(digits: string): number {
  const sum = digitsOf(digits)
    .reverse()
    .reduce((total, digit, i) => {
      const product = digit * (i % 2 === 0 ? 2 : 1);
      return total + Math.floor(product / 10) + (product % 10);
    }, 0);
  return (10 - (sum % 10)) % 10;
}

/** Módulo 11 of the barcode's general check digit: weights 2…9 from the right; 0, 10 and 11 give 1. */
export function mod11(digits: string): number {
  const sum = digitsOf(digits)
    .reverse()
    .reduce((total, digit, i) => total + digit * (2 + (i % 8)), 0);
  const check = 11 - (sum % 11);
  return check === 0 || check === 10 || check === 11 ? 1 : check;
}

export interface BoletoInput {
  /** The bank's 3-digit COMPE code. */
  bank: string;
  amountCents: number;
  /** ISO day. */
  dueDate: string;
  /** The bank's 25-digit free field (agreement, our number…). */
  freeField: string;
}

/** The 44-digit barcode. */
export function barcode({ bank, amountCents, dueDate, freeField }: BoletoInput): string {
  if (!/^\d{3}$/.test(bank) || !/^\d{25}$/.test(freeField)) throw new RangeError('Banco ou campo livre inválido.');
  if (!Number.isInteger(amountCents) || amountCents < 0 || amountCents > 99_999_999_99) throw new RangeError('Valor inválido.');
  const rest = `${String(dueFactor(dueDate)).padStart(4, '0')}${String(amountCents).padStart(10, '0')}${freeField}`;
  const head = `${bank}9`;
  return `${head}${mod11(head + rest)}${rest}`;
}

/** The 47-digit linha digitável of a barcode. */
export function digitableLine(code: string): string {
  const field = (digits: string) => `${digits}${mod10(digits)}`;
  const free = code.slice(19);
  return [field(code.slice(0, 4) + free.slice(0, 5)), field(free.slice(5, 15)), field(free.slice(15, 25)), code[4], code.slice(5, 19)].join(
    '',
  );
}

/** '00190.00009 01149.718601 68524.522114 6 75860000102656', as printed on the slip. */
export function formatDigitableLine(line: string): string {
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
}

/**
 * Interleaved 2 of 5 as drawn on a boleto: start (narrow bar, space, bar, space), each pair of
 * digits as five bars interleaved with five spaces, stop (wide bar, narrow space, narrow bar).
 * Answers the widths in narrow units, alternating bar and space, starting with a bar.
 */
const I25_PATTERNS = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'];
export function interleaved2of5(digits: string, wide = 3): number[] {
  if (!/^(\d\d)+$/.test(digits)) throw new RangeError('Interleaved 2 of 5 codifica pares de dígitos.');
  const widths = [1, 1, 1, 1];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = I25_PATTERNS[Number(digits[i])]!;
    const spaces = I25_PATTERNS[Number(digits[i + 1])]!;
    for (let k = 0; k < 5; k++) widths.push(bars[k] === '1' ? wide : 1, spaces[k] === '1' ? wide : 1);
  }
  widths.push(wide, 1, 1);
  return widths;
}

/** The 44-digit barcode a linha digitável was made from (digitableLine backwards): the PDF draws it. */
export function barcodeOfLine(line: string): string {
  if (!/^\d{47}$/.test(line)) throw new RangeError('A linha digitável tem 47 dígitos.');
  return `${line.slice(0, 4)}${line[32]}${line.slice(33)}${line.slice(4, 9)}${line.slice(10, 20)}${line.slice(21, 31)}`;
}
