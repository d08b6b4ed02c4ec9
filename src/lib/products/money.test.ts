import { describe, expect, it } from 'vitest';
import { applyRate, formatBRL, formatNumber, formatPercent, roundHalfUp } from './money';

describe('roundHalfUp', () => {
  it.each([
    [0, 0],
    [0.4, 0],
    [0.5, 1],
    [1.5, 2],
    [2.5, 3],
    [1234.49, 1234],
    [1234.5, 1235],
    [-0.5, -1],
    [-1.4, -1],
    [-2.5, -3],
  ])('%s → %s', (value, rounded) => expect(roundHalfUp(value)).toBe(rounded));

  it('treats a half spoiled by binary floats as a half', () => {
    // 1.005 × 1000 is 1004.9999999999999 in binary floating point
    expect(1.005 * 1000).toBeLessThan(1005);
    expect(roundHalfUp(1.005 * 1000)).toBe(1005);
    // 4.35 × 100 is 434.99999999999994
    expect(roundHalfUp(4.35 * 100)).toBe(435);
  });
});

describe('applyRate', () => {
  it('multiplies and rounds once', () => {
    expect(applyRate(10_000, 0.0738)).toBe(738);
    expect(applyRate(12_345, 0.0738)).toBe(911); // 911,061
    expect(applyRate(12_350, 0.0038)).toBe(47); // 46,93
    expect(applyRate(50, 0.01)).toBe(1); // 0,5 → 1
    expect(applyRate(99_999, 0)).toBe(0);
  });
});

describe('formatBRL', () => {
  it.each([
    [0, 'R$ 0,00'],
    [1, 'R$ 0,01'],
    [123_456, 'R$ 1.234,56'],
    [100_000_000, 'R$ 1.000.000,00'],
    [-150, '-R$ 1,50'],
  ])('%s → %s', (cents, text) => expect(formatBRL(cents)).toBe(text));

  it('uses a plain space after the symbol', () => {
    expect(formatBRL(100)).not.toMatch(/[\u00a0\u202f]/);
    expect(formatBRL(100).charCodeAt(2)).toBe(32);
  });
});

describe('formatNumber and formatPercent', () => {
  it('write numbers the Brazilian way', () => {
    expect(formatNumber(10_000)).toBe('10.000');
    expect(formatNumber(1.5)).toBe('1,5');
    expect(formatPercent(0.0149)).toBe('1,49 %');
    expect(formatPercent(0.0738)).toBe('7,38 %');
  });
});
