import { describe, expect, it } from 'vitest';
import { SIMULATOR_CODES } from '../simulators';
import { PRODUCTS, productFor } from './catalog';
import { IOF_RATES, price, resolveCapitals } from './engine';

const products = Object.values(PRODUCTS);
const LINES_WITHOUT_RISCO = ['residencial', 'vida', 'empresarial-individual'];

describe('PRODUCTS', () => {
  it('has one product per simulator code except AFS, with the table’s name and line', () => {
    const expected = SIMULATOR_CODES.filter((s) => !s.external)
      .map((s) => s.code)
      .sort();
    expect(Object.keys(PRODUCTS).sort()).toEqual(expected);
    for (const s of SIMULATOR_CODES.filter((c) => !c.external)) {
      expect(PRODUCTS[s.code]).toMatchObject({ code: s.code, name: s.name, line: s.line });
    }
  });

  it('finds a product by code in any case, and none for AFS or unknown codes', () => {
    expect(productFor('res')?.code).toBe('RES');
    expect(productFor('Prs')?.code).toBe('PRS');
    expect(productFor('AFS')).toBeUndefined();
    expect(productFor('toString')).toBeUndefined();
  });

  it('charges IOF by line: rural exempt, life 0,38 %, the others 7,38 %', () => {
    for (const p of products) {
      const iofRate = IOF_RATES[p.iof];
      expect(iofRate).toBe(p.line === 'agricola' ? 0 : p.line === 'vida' ? 0.0038 : 0.0738);
    }
  });

  it('asks rating questions in cadastro for lines without risco, and in risco for the others', () => {
    for (const p of products) {
      const withoutRisco = LINES_WITHOUT_RISCO.includes(p.line);
      expect(p.riskQuestions.length === 0).toBe(withoutRisco);
      if (withoutRisco) expect(p.cadastroQuestions.length).toBeGreaterThan(0);
      expect(p.finalStep).toBe(p.line === 'residencial' ? 'finalizacao' : 'proposta');
      expect(p.beneficiaries).toBe(p.line === 'vida');
    }
  });

  it('offers 2 to 4 plans whose coverages, capitals and questions are consistent', () => {
    for (const p of products) {
      expect(p.plans.length, p.code).toBeGreaterThanOrEqual(2);
      expect(p.plans.length, p.code).toBeLessThanOrEqual(4);
      const questions = [...p.cadastroQuestions, ...p.riskQuestions];
      expect(new Set(questions.map((q) => q.name)).size, p.code).toBe(questions.length);
      for (const q of questions.filter((q) => q.kind === 'select' || q.kind === 'radio')) expect(q.options?.length).toBeGreaterThan(1);
      for (const c of p.coverages) expect((c.rate === undefined) !== (c.fixedPremium === undefined), `${p.code} ${c.id}`).toBe(true);
      for (const plan of p.plans) {
        for (const { coverage, capital } of plan.coverages) {
          const where = `${p.code} ${plan.id} ${coverage}`;
          expect(
            p.coverages.some((c) => c.id === coverage),
            where,
          ).toBe(true);
          if (capital.kind === 'range') {
            expect(capital.min <= capital.default && capital.default <= capital.max, where).toBe(true);
            for (const v of [capital.min, capital.default, capital.max]) expect(v % capital.step, where).toBe(0);
          }
          if (capital.kind === 'share') expect(questions.find((q) => q.name === capital.of)?.kind, where).toBe('money');
        }
      }
    }
  });

  it('prices every plan with no answers at all without throwing (the browser prices half-filled forms)', () => {
    for (const p of products) {
      expect(p.factors({})).toBeInstanceOf(Array);
      for (const plan of p.plans) {
        expect(resolveCapitals(p, {}, plan.id).length).toBe(plan.coverages.length);
        const pricing = price(p, {}, { plan: plan.id, capitals: {} });
        expect(pricing.netPremium).toBeGreaterThanOrEqual(p.minimumPremium);
        expect(pricing.total).toBe(pricing.netPremium + pricing.policyCost + pricing.iof);
      }
    }
  });

  it('labels every question, option and coverage in Portuguese, with a description and a deductible', () => {
    for (const p of products) {
      for (const c of p.coverages) expect(c.name && c.description && c.deductible, `${p.code} ${c.id}`).toBeTruthy();
      for (const plan of p.plans) expect(plan.name && plan.description).toBeTruthy();
      expect(p.installments.minimumInstallment).toBeGreaterThan(0);
      expect([15, 30]).toContain(p.validityDays);
    }
  });
});
