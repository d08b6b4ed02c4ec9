import { describe, expect, it } from 'vitest';
import { incomeYear, irrfOf, IRRF_RULES } from './income-tax';

describe('IRRF on commissions (illustrative table, decision 041)', () => {
  it.each([
    [100_000_00, 150_000], // 1,5 % of R$ 100.000,00
    [2_404, 0], // R$ 0,36: not collected (≤ R$ 10,00)
    [66_666, 0], // R$ 9,9999 → R$ 10,00: still not collected
    [66_734, 1_001], // R$ 10,01: collected
    [0, 0],
    [-5_000, 0],
  ])('a company paid %i cents has %i withheld', (income, tax) => {
    expect(irrfOf('PJ', income)).toBe(tax);
  });

  it.each([
    [2_428_80, 0], // the exempt bracket's top
    [2_500_00, 5_34], // 7,5 % − 182,16
    [3_000_00, 55_84], // 15 % − 394,16
    [4_000_00, 224_51], // 22,5 % − 675,49
    [10_000_00, 1_841_27], // 27,5 % − 908,73
  ])('a person paid %i cents has %i withheld, by the progressive table', (income, tax) => {
    expect(irrfOf('PF', income)).toBe(tax);
  });

  it('keeps its brackets in order and continuous', () => {
    const brackets = IRRF_RULES.PF.brackets;
    for (let i = 1; i < brackets.length; i += 1) {
      const before = brackets[i - 1]!;
      const bracket = brackets[i]!;
      expect(bracket.rate).toBeGreaterThan(before.rate);
      // At the boundary both brackets give (almost) the same tax: the deductions make the table continuous.
      const edge = before.upTo!;
      const lower = Math.round((edge * before.rate) / 10_000) - before.deduction;
      const upper = Math.round((edge * bracket.rate) / 10_000) - bracket.deduction;
      expect(Math.abs(upper - lower)).toBeLessThanOrEqual(2);
    }
  });
});

describe('the income statement of a year', () => {
  const months = [
    { month: '2025-12', payable: 90_000 },
    { month: '2026-01', payable: 80_000 },
    { month: '2026-02', payable: 0 },
    { month: '2026-03', payable: 2_404 },
    { month: '2027-01', payable: 5_000 },
  ];

  it('lists the months with income of that year only, with the tax withheld and the totals', () => {
    expect(incomeYear('PJ', 2026, months)).toEqual({
      year: 2026,
      months: [
        { month: '2026-01', gross: 80_000, withheld: 1_200 },
        { month: '2026-03', gross: 2_404, withheld: 0 },
      ],
      totals: { gross: 82_404, withheld: 1_200, net: 81_204 },
    });
  });

  it('is empty for a year without income', () => {
    expect(incomeYear('PF', 2024, months)).toEqual({ year: 2024, months: [], totals: { gross: 0, withheld: 0, net: 0 } });
  });
});
