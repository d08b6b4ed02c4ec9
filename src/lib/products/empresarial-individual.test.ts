import { describe, expect, it } from 'vitest';
import { EMPRESARIAL_INDIVIDUAL as EVI } from './empresarial-individual';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';

// Golden examples of the illustrative individual-business (MEI) tariff
// (docs/decisions/014-illustrative-tariff.md). Rates in ‰: incêndio 1,2; danos elétricos 4; roubo 15;
// RC 5; perda de renda 25; assistência R$ 35,00 fixed. IOF 7,38 %, no policy cost, minimum R$ 120,00;
// 6 interest-free, up to 12 at 1,99 % a.m., installments of at least R$ 25,00.

describe('Empresarial Individual (EVI)', () => {
  it('is a company-only property line without risco step', () => {
    expect(EVI).toMatchObject({ iof: 'patrimonial', insured: 'PJ', riskQuestions: [], finalStep: 'proposta' });
    expect(EVI.cadastroQuestions.map((q) => q.name)).toEqual(['atividade', 'localFuncionamento', 'valorConteudo']);
  });

  it('prices a beauty salon on the Completo plan with default capitals', () => {
    const answers = { atividade: 'servicos', localFuncionamento: 'estabelecimento', valorConteudo: 40_000_00 };
    const pricing = price(EVI, answers, { plan: 'completo', capitals: {} });
    // incêndio 40.000,00 × 1,2 ‰ = 48,00; danos elétricos 10.000,00 × 4 ‰ = 40,00; roubo 10.000,00 × 15 ‰ = 150,00
    // RC 20.000,00 × 5 ‰ = 100,00; perda de renda 3.000,00 × 25 ‰ = 75,00; assistência 35,00 → 448,00
    // serviços 0,9 × estabelecimento 1 → 403,20; IOF 403,20 × 7,38 % = 29,75616 → 29,76; total 432,96
    // shares: each tariff premium × 0,9, exact: 43,20 + 36,00 + 135,00 + 90,00 + 67,50 + 31,50 = 403,20
    expect(coverageTable(pricing)).toEqual({
      incendio: [40_000_00, 48_00, 43_20],
      danosEletricos: [10_000_00, 40_00, 36_00],
      roubo: [10_000_00, 150_00, 135_00],
      rc: [20_000_00, 100_00, 90_00],
      perdaRenda: [3_000_00, 75_00, 67_50],
      assistencia: [1_000_00, 35_00, 31_50],
    });
    expect(factorValues(pricing)).toEqual([0.9, 1]);
    expect(figures(pricing)).toEqual({ netPremium: 403_20, policyCost: 0, iofRate: 0.0738, iof: 29_76, total: 432_96 });
    // card: 6 × 72,16; 7 at 1,99 % a.m. = 66,87 (468,09); 12 = 40,92 (491,04); boleto stops at 10
    const card = optionRows(EVI, pricing.total, 'cartao');
    expect(card[5]).toEqual([6, 72_16, 72_16, 432_96]);
    expect(card[6]).toEqual([7, 66_87, 66_87, 468_09]);
    expect(card[11]).toEqual([12, 40_92, 40_92, 491_04]);
    expect(optionRows(EVI, pricing.total, 'boleto')).toHaveLength(10);
    expectExactInstallments(EVI, pricing.total);
  });

  it('prices a home snack bar on the Completo plan with a lower theft capital', () => {
    const answers = { atividade: 'alimentacao', localFuncionamento: 'residencia', valorConteudo: 25_000_00 };
    const selection = { plan: 'completo', capitals: { roubo: 5_000_00 } };
    expect(validateSelection(EVI, answers, selection)).toEqual({});
    const pricing = price(EVI, answers, selection);
    // incêndio 25.000,00 × 1,2 ‰ = 30,00; danos elétricos 40,00; roubo 5.000,00 × 15 ‰ = 75,00; RC 100,00
    // perda de renda 75,00; assistência 35,00 → 355,00 × alimentação 1,3 × residência 0,9 (1,17) = 415,35
    // shares: each tariff premium × 1,17, exact: 35,10 + 46,80 + 87,75 + 117,00 + 87,75 + 40,95 = 415,35
    expect(coverageTable(pricing)).toMatchObject({
      incendio: [25_000_00, 30_00, 35_10],
      roubo: [5_000_00, 75_00, 87_75],
      assistencia: [1_000_00, 35_00, 40_95],
    });
    // IOF 415,35 × 7,38 % = 30,65283 → 30,65; total 446,00
    expect(figures(pricing)).toEqual({ netPremium: 415_35, policyCost: 0, iofRate: 0.0738, iof: 30_65, total: 446_00 });
    expectExactInstallments(EVI, pricing.total);
  });

  it('charges the minimum premium for a home office on the Essencial plan', () => {
    const answers = { atividade: 'escritorio', localFuncionamento: 'residencia', valorConteudo: 20_000_00 };
    const pricing = price(EVI, answers, { plan: 'essencial', capitals: {} });
    // 20.000,00 × 1,2 ‰ = 24,00 + 5.000,00 × 4 ‰ = 20,00 + 35,00 = 79,00 × 0,8 × 0,9 = 56,88 < 120,00
    // IOF 120,00 × 7,38 % = 8,856 → 8,86; total 128,86; 5 × 25,77 is the most (6 × 21,47 < 25,00)
    expect(figures(pricing)).toEqual({ netPremium: 120_00, policyCost: 0, iofRate: 0.0738, iof: 8_86, total: 128_86 });
    expect(optionRows(EVI, pricing.total, 'cartao').map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
  });
});
