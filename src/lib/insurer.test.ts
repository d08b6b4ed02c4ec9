import { describe, expect, it } from 'vitest';
import { PRODUCTS } from './products/catalog';
import { BRANCH_NAMES, INSURER, LINE_BRANCHES, PRODUCT_REGISTRATIONS, productRegistration } from './insurer';

describe('each product’s SUSEP registration, as data', () => {
  it('names a process and the Condições Gerais of every product the portal sells, each its own', () => {
    const codes = Object.keys(PRODUCTS);
    expect(Object.keys(PRODUCT_REGISTRATIONS).sort()).toEqual([...codes].sort());
    const processes = Object.values(PRODUCT_REGISTRATIONS).map((r) => r.process);
    expect(new Set(processes).size).toBe(processes.length);
    for (const code of codes) {
      const registration = productRegistration(code)!;
      // A SUSEP process number: 15414.NNNNNN/AAAA-DD.
      expect(registration.process).toMatch(/^15414\.\d{6}\/\d{4}-\d{2}$/);
      expect(registration.conditionsUrl).toMatch(new RegExp(`^${INSURER.site.replace(/\./g, '\\.')}/condicoes-gerais/[a-z-]+$`));
    }
    expect(productRegistration('res')).toEqual(productRegistration('RES'));
    expect(productRegistration('AFS')).toBeUndefined();
  });

  it('every line’s branch has a name', () => {
    for (const branch of Object.values(LINE_BRANCHES)) expect(BRANCH_NAMES[branch]).toBeTruthy();
  });
});
