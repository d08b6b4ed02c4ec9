import { expect } from 'vitest';
import { PAYMENT_METHODS, installmentOptions, installmentSchedule } from './engine';
import type { Cents, PaymentMethod, Pricing, ProductDef } from './types';

/**
 * Helpers of the golden tests (`<line>.test.ts`): they read a pricing as small tables a reader can
 * compare with the worked arithmetic beside each example.
 */

/**
 * { coverage id: [capital, tariff premium, premium] } in centavos: the premium is the coverage's
 * share of the net premium, and the shares sum exactly to it (checked here, decision 023).
 */
export function coverageTable(pricing: Pricing): Record<string, [Cents, Cents, Cents]> {
  expect(pricing.coverages.reduce((sum, c) => sum + c.premium, 0)).toBe(pricing.netPremium);
  return Object.fromEntries(pricing.coverages.map((c) => [c.id, [c.capital, c.tariffPremium, c.premium]]));
}

export const factorValues = (pricing: Pricing): number[] => pricing.factors.map((f) => f.value);

export const figures = ({ netPremium, policyCost, iofRate, iof, total }: Pricing) => ({ netPremium, policyCost, iofRate, iof, total });

/** [count, first, other, total] of each option a method offers. */
export const optionRows = (product: ProductDef, total: Cents, method: PaymentMethod) =>
  installmentOptions(product, total, method).map((o) => [o.count, o.first, o.other, o.total]);

/** Every option of every method: installments sum exactly to the option's total, none below the minimum. */
export function expectExactInstallments(product: ProductDef, total: Cents): void {
  for (const { value } of PAYMENT_METHODS) {
    for (const option of installmentOptions(product, total, value)) {
      const schedule = installmentSchedule(option);
      expect(schedule.reduce((a, b) => a + b, 0)).toBe(option.total);
      if (option.interestFree) expect(option.total).toBe(total);
      if (option.count > 1) expect(Math.min(...schedule)).toBeGreaterThanOrEqual(product.installments.minimumInstallment);
    }
  }
}
