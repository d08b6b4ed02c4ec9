import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUCTS } from './catalog';
import {
  IOF_RATES,
  PAYMENT_METHODS,
  allocate,
  installmentOptions,
  interestFreeOffer,
  installmentSchedule,
  isAllowedInstallment,
  price,
  resolveCapitals,
  validateSelection,
  withCoverageShares,
  type StoredPricing,
} from './engine';
import type { ProductDef } from './types';

/** A small product whose figures are easy to follow by hand. */
const TEST_PRODUCT: ProductDef = {
  code: 'TST',
  line: 'residencial',
  name: 'Teste',
  iof: 'patrimonial',
  insured: 'PF',
  cadastroQuestions: [{ name: 'valor', label: 'Valor', kind: 'money' }],
  riskQuestions: [],
  coverages: [
    { id: 'basica', name: 'Incêndio', description: '', rate: 1, deductible: 'Não há' },
    { id: 'roubo', name: 'Roubo', description: '', rate: 10, deductible: 'R$ 500,00' },
    { id: 'assist', name: 'Assistência', description: '', fixedPremium: 50_00, deductible: 'Não há' },
    { id: 'ajuste', name: 'Conteúdo', description: '', rate: 2, deductible: 'Não há' },
  ],
  plans: [
    {
      id: 'p1',
      name: 'Plano 1',
      description: '',
      coverages: [
        { coverage: 'basica', capital: { kind: 'share', of: 'valor', percent: 100, min: 10_000_00, max: 500_000_00 } },
        { coverage: 'roubo', capital: { kind: 'range', default: 10_000_00, min: 1_000_00, max: 30_000_00, step: 1_000_00 } },
        { coverage: 'assist', capital: { kind: 'fixed', value: 1_000_00 } },
      ],
    },
    {
      id: 'p2',
      name: 'Plano 2',
      description: '',
      coverages: [{ coverage: 'ajuste', capital: { kind: 'share', of: 'valor', percent: 50, min: 5_000_00, adjustable: true } }],
    },
  ],
  factors: (answers) => (answers.fator === true ? [{ label: 'Fator', value: 1.5 }] : []),
  policyCost: 10_00,
  minimumPremium: 100_00,
  installments: { maxInstallments: 10, interestFreeUpTo: 3, monthlyInterest: 0.02, minimumInstallment: 50_00 },
  validityDays: 30,
  beneficiaries: false,
  finalStep: 'proposta',
};

describe('IOF_RATES', () => {
  it('is 7,38 % for property, 0,38 % for life and exempt for rural lines', () => {
    expect(IOF_RATES).toEqual({ patrimonial: 0.0738, vida: 0.0038, rural: 0 });
  });
});

describe('resolveCapitals', () => {
  it('resolves each rule of the plan in cents', () => {
    expect(resolveCapitals(TEST_PRODUCT, { valor: 200_000_00 }, 'p1')).toEqual([
      { id: 'basica', name: 'Incêndio', default: 200_000_00, min: 200_000_00, max: 200_000_00, step: 1, adjustable: false },
      { id: 'roubo', name: 'Roubo', default: 10_000_00, min: 1_000_00, max: 30_000_00, step: 1_000_00, adjustable: true },
      { id: 'assist', name: 'Assistência', default: 1_000_00, min: 1_000_00, max: 1_000_00, step: 1, adjustable: false },
    ]);
  });

  it('clamps a share to its bounds, and treats a missing answer as zero', () => {
    expect(resolveCapitals(TEST_PRODUCT, { valor: 900_000_00 }, 'p1')[0]!.default).toBe(500_000_00);
    expect(resolveCapitals(TEST_PRODUCT, { valor: 1_000_00 }, 'p1')[0]!.default).toBe(10_000_00);
    expect(resolveCapitals(TEST_PRODUCT, {}, 'p1')[0]!.default).toBe(10_000_00);
  });

  it('lets an adjustable share move between its min and the share itself', () => {
    // 50 % of R$ 30.001,01 = R$ 15.000,505 → rounded half-up to R$ 15.000,51
    expect(resolveCapitals(TEST_PRODUCT, { valor: 30_001_01 }, 'p2')).toEqual([
      { id: 'ajuste', name: 'Conteúdo', default: 15_000_51, min: 5_000_00, max: 15_000_51, step: 1, adjustable: true },
    ]);
  });

  it('is empty for an unknown plan', () => {
    expect(resolveCapitals(TEST_PRODUCT, {}, 'nao-existe')).toEqual([]);
  });
});

describe('validateSelection', () => {
  const answers = { valor: 200_000_00 };

  it('accepts defaults and values within range', () => {
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: {} })).toEqual({});
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { roubo: 30_000_00, basica: 200_000_00 } })).toEqual({});
  });

  it('refuses an unknown plan', () => {
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'ouro', capitals: {} })).toEqual({ plan: 'Escolha um dos planos oferecidos.' });
  });

  it('names the coverage and its range when a capital is out of range, instead of clamping', () => {
    const message = 'O capital de Roubo deve estar entre R$ 1.000,00 e R$ 30.000,00.';
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { roubo: 31_000_00 } })).toEqual({ roubo: message });
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { roubo: 999_99 } })).toEqual({ roubo: message });
  });

  it('refuses a capital off the step, a fractional one, a changed fixed one and a foreign coverage', () => {
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { roubo: 10_500_00 } })).toEqual({
      roubo: 'O capital de Roubo deve ser múltiplo de R$ 1.000,00.',
    });
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { roubo: 10_000.5 } })).toEqual({
      roubo: 'Informe o capital de Roubo em reais e centavos.',
    });
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { basica: 100_000_00 } })).toEqual({
      basica: 'O capital de Incêndio é fixo em R$ 200.000,00 neste plano.',
    });
    expect(validateSelection(TEST_PRODUCT, answers, { plan: 'p1', capitals: { ajuste: 5_000_00 } })).toEqual({
      ajuste: 'Esta cobertura não faz parte do plano escolhido.',
    });
  });
});

describe('price', () => {
  it('sums rated and fixed premiums, applies the factors once and adds policy cost and IOF', () => {
    // basica 200.000,00 × 1 ‰ = 200,00; roubo 20.000,00 × 10 ‰ = 200,00; assist fixed 50,00 → 450,00
    // × 1,5 = 675,00; IOF (675,00 + 10,00) × 7,38 % = 50,553 → 50,55; total 675,00 + 10,00 + 50,55 = 735,55
    // each coverage's premium is its share of 675,00: 300,00 + 300,00 + 75,00 (its tariff premium × 1,5)
    const pricing = price(TEST_PRODUCT, { valor: 200_000_00, fator: true }, { plan: 'p1', capitals: { roubo: 20_000_00 } });
    expect(pricing).toEqual({
      plan: 'p1',
      coverages: [
        { id: 'basica', name: 'Incêndio', capital: 200_000_00, premium: 300_00, tariffPremium: 200_00, deductible: 'Não há' },
        { id: 'roubo', name: 'Roubo', capital: 20_000_00, premium: 300_00, tariffPremium: 200_00, deductible: 'R$ 500,00' },
        { id: 'assist', name: 'Assistência', capital: 1_000_00, premium: 75_00, tariffPremium: 50_00, deductible: 'Não há' },
      ],
      factors: [{ label: 'Fator', value: 1.5 }],
      netPremium: 675_00,
      policyCost: 10_00,
      iofRate: 0.0738,
      iof: 50_55,
      total: 735_55,
    });
  });

  it('rounds each tariff premium half-up to the cent', () => {
    // 15.000,51 × 2 ‰ = 30,00102 → 30,00; the minimum premium (100,00) then applies, all of it on the one coverage
    const pricing = price(TEST_PRODUCT, { valor: 30_001_01 }, { plan: 'p2', capitals: {} });
    expect(pricing.coverages[0]).toMatchObject({ tariffPremium: 30_00, premium: 100_00 });
    // 1.234,75 × 2 ‰ = 2,4695 → 2,47
    expect(price(TEST_PRODUCT, { valor: 30_001_01 }, { plan: 'p2', capitals: { ajuste: 1_234_75 } }).coverages[0]!.tariffPremium).toBe(
      2_47,
    );
  });

  it('charges the minimum premium when the rated premium is below it, spread over the coverages', () => {
    // basica 10.000,00 (share clamped up) × 1 ‰ = 10,00; roubo 1.000,00 × 10 ‰ = 10,00; assist 50,00 → 70,00 < 100,00
    const pricing = price(TEST_PRODUCT, { valor: 0 }, { plan: 'p1', capitals: { roubo: 1_000_00 } });
    expect(pricing.netPremium).toBe(100_00);
    // 100,00 in proportion to 10 : 10 : 50 → 14,28|57, 14,28|57, 71,42|86 → cut 99,98; the 2 centavos left go to
    // the largest cut-off fractions: assist (0,86), then basica (0,57, first of the tie) → 14,29 + 14,28 + 71,43
    expect(pricing.coverages.map((c) => c.premium)).toEqual([14_29, 14_28, 71_43]);
    // IOF (100,00 + 10,00) × 7,38 % = 8,118 → 8,12
    expect(pricing.iof).toBe(8_12);
    expect(pricing.total).toBe(118_12);
  });

  it('gives coverage premiums that always sum exactly to the net premium, for every product and plan', () => {
    const products = Object.values(PRODUCTS);
    fc.assert(
      fc.property(
        fc.constantFrom(...products),
        fc.nat(),
        fc.integer({ min: 0, max: 5_000_000_00 }),
        fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
        (product, planIndex, money, picks) => {
          // Any answers: money questions take `money`, choices one of their options; capitals at the plan's defaults.
          const questions = [...product.cadastroQuestions, ...product.riskQuestions];
          const answers = Object.fromEntries(
            questions.map((q, i) => [
              q.name,
              q.options
                ? q.options[(picks[i % picks.length] ?? 0) % q.options.length]!.value
                : q.kind === 'boolean'
                  ? (picks[i % picks.length] ?? 0) % 2 === 0
                  : q.kind === 'date'
                    ? '1980-01-15'
                    : money,
            ]),
          );
          const plan = product.plans[planIndex % product.plans.length]!;
          const pricing = price(product, { ...answers, dataCotacao: '2026-03-15' }, { plan: plan.id, capitals: {} });
          expect(pricing.coverages.reduce((sum, c) => sum + c.premium, 0)).toBe(pricing.netPremium);
          for (const c of pricing.coverages) expect(Number.isSafeInteger(c.premium) && c.premium >= 0).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('throws for an unknown plan (callers validate first)', () => {
    expect(() => price(TEST_PRODUCT, {}, { plan: 'nao-existe', capitals: {} })).toThrow();
  });

  it('never throws and keeps totals whole for any valid selection', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000_00 }), fc.integer({ min: 1, max: 30 }), fc.boolean(), (valor, roubo, fator) => {
        const selection = { plan: 'p1', capitals: { roubo: roubo * 1_000_00 } };
        expect(validateSelection(TEST_PRODUCT, { valor }, selection)).toEqual({});
        const p = price(TEST_PRODUCT, { valor, fator }, selection);
        expect(Number.isSafeInteger(p.netPremium) && Number.isSafeInteger(p.iof)).toBe(true);
        expect(p.total).toBe(p.netPremium + p.policyCost + p.iof);
        expect(p.netPremium).toBeGreaterThanOrEqual(TEST_PRODUCT.minimumPremium);
      }),
    );
  });
});

describe('allocate', () => {
  it('splits in proportion to the weights, the centavos left going to the largest remainders', () => {
    // 100 × 1/3 = 33,33… each → 33 + 33 + 33 = 99; the 1 left goes to the first of the equal remainders
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    // 10 × 2/7 = 2,857; × 5/7 = 7,142 → 2 + 7 = 9; the larger remainder (0,857) takes the last one
    expect(allocate(10, [2, 5])).toEqual([3, 7]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
    expect(allocate(7, [0, 3, 0])).toEqual([0, 7, 0]);
    expect(allocate(5, [0, 0])).toEqual([3, 2]);
    expect(allocate(5, [])).toEqual([]);
  });

  it('is exact for sums beyond 2^53 when multiplied', () => {
    expect(allocate(90_071_992_547_409, [3_000_000_000_000, 1])).toEqual([90_071_992_547_379, 30]);
  });

  it('always sums exactly to the total, with each part within a centavo of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000_00 }),
        fc.array(fc.integer({ min: 0, max: 100_000_000_00 }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          parts.forEach((part, i) => {
            const exact = sum === 0 ? total / weights.length : (total * weights[i]!) / sum;
            expect(Math.abs(part - exact)).toBeLessThan(1.000001);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('withCoverageShares', () => {
  it('splits the stored net premium of a quote priced before the shares existed, keeping every total', () => {
    // Stored before decision 023: premiums at tariff (160,00 + 45,00 + … = 420,00) under a net premium of 357,00.
    const stored: StoredPricing = {
      plan: 'conforto',
      factors: [{ label: 'Tipo de imóvel: Apartamento', value: 0.85 }],
      coverages: [
        { id: 'incendio', name: 'Incêndio', capital: 400_000_00, premium: 160_00, deductible: 'Não há' },
        { id: 'roubo', name: 'Roubo', capital: 10_000_00, premium: 100_00, deductible: 'R$ 500,00' },
        { id: 'outros', name: 'Outros', capital: 40_000_00, premium: 160_00, deductible: 'Não há' },
      ],
      netPremium: 357_00,
      policyCost: 0,
      iofRate: 0.0738,
      iof: 26_35,
      total: 383_35,
    };
    const shown = withCoverageShares(stored);
    // × 0,85: 136,00 + 85,00 + 136,00 = 357,00
    expect(shown.coverages.map((c) => [c.tariffPremium, c.premium])).toEqual([
      [160_00, 136_00],
      [100_00, 85_00],
      [160_00, 136_00],
    ]);
    expect(shown).toMatchObject({ netPremium: 357_00, iof: 26_35, total: 383_35 });
  });

  it('leaves a pricing with its shares as it is', () => {
    const pricing = price(TEST_PRODUCT, { valor: 200_000_00, fator: true }, { plan: 'p1', capitals: {} });
    expect(withCoverageShares(pricing)).toBe(pricing);
  });
});

describe('PAYMENT_METHODS', () => {
  it('lists pix (à vista), boleto up to 10, credit card and bank debit up to 12', () => {
    expect(PAYMENT_METHODS.map((m) => [m.value, m.maxInstallments])).toEqual([
      ['pix', 1],
      ['boleto', 10],
      ['cartao', 12],
      ['debito', 12],
    ]);
    expect(PAYMENT_METHODS.find((m) => m.value === 'pix')!.label).toContain('à vista');
  });
});

describe('interestFreeOffer', () => {
  it('promises the most interest-free installments of the method the contratação starts on (boleto), not of the card', () => {
    // 1.000,00: interest-free up to 3 on every method; boleto (the default) and card both reach 3
    expect(interestFreeOffer(TEST_PRODUCT, 1_000_00)).toEqual({
      option: installmentOptions(TEST_PRODUCT, 1_000_00, 'boleto')[2],
      phrase: 'no boleto',
    });
    // a product interest-free up to 12: the card would offer 12x, the default boleto stops at 10
    const twelve = { ...TEST_PRODUCT, installments: { ...TEST_PRODUCT.installments, maxInstallments: 12, interestFreeUpTo: 12 } };
    expect(interestFreeOffer(twelve, 1_200_00)?.option.count).toBe(10);
    expect(interestFreeOffer(twelve, 1_200_00, 'cartao')).toMatchObject({ option: { count: 12 }, phrase: 'no cartão' });
    // below twice the minimum installment only paying at once is offered: no promise
    expect(interestFreeOffer(TEST_PRODUCT, 90_00)).toBeUndefined();
  });
});

describe('installmentOptions', () => {
  it('splits evenly without interest, the first installment carrying the remainder', () => {
    const options = installmentOptions(TEST_PRODUCT, 1_000_00, 'boleto');
    // 1.000,00 / 3 = 333,33 × 2 + 333,34
    expect(options[2]).toEqual({ count: 3, first: 333_34, other: 333_33, total: 1_000_00, interestFree: true, monthlyInterest: 0 });
  });

  it('uses the Price table above the interest-free limit', () => {
    // PMT = 1.000,00 × 0,02 / (1 − 1,02^−4) = 262,6238… → 262,62; total 4 × 262,62 = 1.050,48
    const four = installmentOptions(TEST_PRODUCT, 1_000_00, 'cartao').find((o) => o.count === 4);
    expect(four).toEqual({ count: 4, first: 262_62, other: 262_62, total: 1_050_48, interestFree: false, monthlyInterest: 0.02 });
  });

  it('stops where an installment would fall below the minimum', () => {
    // 200,00: 2 × 100,00, 3 × 66,67/66,66, 4 with interest 52,52, 5 with interest 42,43 < 50,00
    expect(installmentOptions(TEST_PRODUCT, 200_00, 'cartao').map((o) => o.count)).toEqual([1, 2, 3, 4]);
    expect(isAllowedInstallment(TEST_PRODUCT, 200_00, 'cartao', 4)).toBe(true);
    expect(isAllowedInstallment(TEST_PRODUCT, 200_00, 'cartao', 5)).toBe(false);
  });

  it('always offers paying at once, even below the minimum installment', () => {
    expect(installmentOptions(TEST_PRODUCT, 30_00, 'boleto').map((o) => o.count)).toEqual([1]);
  });

  it('caps the count by the method and by the product', () => {
    expect(installmentOptions(TEST_PRODUCT, 100_000_00, 'pix').map((o) => o.count)).toEqual([1]);
    expect(installmentOptions(TEST_PRODUCT, 100_000_00, 'cartao')).toHaveLength(10);
    expect(isAllowedInstallment(TEST_PRODUCT, 100_000_00, 'cartao', 11)).toBe(false);
    expect(isAllowedInstallment(TEST_PRODUCT, 100_000_00, 'boleto', 0)).toBe(false);
  });

  it('without interest when the monthly rate is zero even above the limit', () => {
    const noInterest = { ...TEST_PRODUCT, installments: { ...TEST_PRODUCT.installments, monthlyInterest: 0 } };
    const ten = installmentOptions(noInterest, 1_000_01, 'boleto').at(-1)!;
    expect(ten).toMatchObject({ count: 10, first: 100_01, other: 100_00, total: 1_000_01, interestFree: true });
  });

  it('gives schedules that sum exactly to their totals, for any total, method and count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000_000_00 }),
        fc.constantFrom(...PAYMENT_METHODS.map((m) => m.value)),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        fc.integer({ min: 0, max: 12 }),
        (total, method, max, monthlyInterest, interestFreeUpTo) => {
          const product = {
            ...TEST_PRODUCT,
            installments: { maxInstallments: max, interestFreeUpTo, monthlyInterest, minimumInstallment: 20_00 },
          };
          const options = installmentOptions(product, total, method);
          expect(options[0]).toMatchObject({ count: 1, total });
          for (const option of options) {
            const schedule = installmentSchedule(option);
            expect(schedule).toHaveLength(option.count);
            expect(schedule.reduce((a, b) => a + b, 0)).toBe(option.total);
            expect(schedule.every((v) => Number.isSafeInteger(v) && v >= 0)).toBe(true);
            if (option.count > 1) expect(Math.min(...schedule)).toBeGreaterThanOrEqual(20_00);
            if (option.interestFree) expect(option.total).toBe(total);
            else expect(option.total).toBeGreaterThanOrEqual(total);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
