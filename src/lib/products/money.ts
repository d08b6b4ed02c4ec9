import type { Cents } from './types';

/**
 * Integer-centavo arithmetic (DESIGN §7). Every figure of a quote is a whole number of centavos; a
 * fraction only exists inside one multiplication and is rounded at once with `roundHalfUp`.
 */

/**
 * Rounds an amount of centavos to a whole centavo, halves away from zero (0,5 → 1; -0,5 → -1).
 * Binary floats turn 1234,5 into 1234,4999999…; trimming to 6 decimals first keeps a half a half.
 */
export function roundHalfUp(value: number): Cents {
  const magnitude = Math.floor(Number(Math.abs(value).toFixed(6)) + 0.5);
  return value < 0 ? -magnitude : magnitude;
}

/** `cents × rate`, rounded half-up: applyRate(10_000, 0.0738) = 738. */
export const applyRate = (cents: Cents, rate: number): Cents => roundHalfUp(cents * rate);

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * 'R$ 1.234,56'. Intl separates the symbol with a non-breaking space (U+00A0, some engines U+202F);
 * a plain space makes screens, tests and PDFs read the same text.
 */
export const formatBRL = (cents: Cents): string => brl.format(cents / 100).replace(/[\u00a0\u202f]/g, ' ');

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** A plain number as a Brazilian writes it: 10000 → '10.000', 1.5 → '1,5'. */
export const formatNumber = (value: number): string => decimal.format(value);

/** 0.0149 → '1,49 %'. */
export const formatPercent = (rate: number): string => `${decimal.format(rate * 100)} %`;
