import { describe, expect, it } from 'vitest';
import { EMPRESARIAL, EMPRESARIAL_ANTIGO } from './empresarial';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';

// Golden examples of the illustrative business tariff (docs/decisions/014-illustrative-tariff.md).
// Rates in ‰: incêndio 0,9; danos elétricos 4; roubo 12; vendaval 1,5; RC operações 5; lucros
// cessantes 3; vidros 10; assistência R$ 80,00 fixed. IOF 7,38 % on net + policy cost (R$ 50,00);
// minimum R$ 400,00; 6 interest-free, up to 10 at 1,69 % a.m., installments of at least R$ 100,00.

describe('Empresarial (EAU, EMP)', () => {
  it('EMP sells the same product under its own code and name', () => {
    expect(EMPRESARIAL).toMatchObject({ code: 'EAU', name: 'Empresarial', iof: 'patrimonial', insured: 'PJ', finalStep: 'proposta' });
    expect(EMPRESARIAL_ANTIGO).toMatchObject({ code: 'EMP', name: 'Empresarial (antigo)', line: 'empresarial' });
    expect(EMPRESARIAL_ANTIGO.plans).toEqual(EMPRESARIAL.plans);
    expect(EMPRESARIAL.riskQuestions.map((q) => q.name)).toEqual([
      'atividade',
      'valorRisco',
      'faturamentoMensal',
      'construcao',
      'protecao',
    ]);
  });

  it('prices a shop with a monitored alarm on the Conforto plan with default capitals', () => {
    const answers = {
      atividade: 'comercio',
      valorRisco: 600_000_00,
      faturamentoMensal: 120_000_00,
      construcao: 'alvenaria',
      protecao: 'alarme',
    };
    const pricing = price(EMPRESARIAL, answers, { plan: 'conforto', capitals: {} });
    // incêndio 600.000,00 × 0,9 ‰ = 540,00; danos elétricos 20.000,00 × 4 ‰ = 80,00; roubo 30.000,00 × 12 ‰ = 360,00
    // vendaval 50.000,00 × 1,5 ‰ = 75,00; RC 100.000,00 × 5 ‰ = 500,00; assistência 80,00 → 1.635,00 (factors all 1)
    // with every factor 1 each coverage's share of the net premium is its tariff premium
    expect(coverageTable(pricing)).toEqual({
      incendio: [600_000_00, 540_00, 540_00],
      danosEletricos: [20_000_00, 80_00, 80_00],
      roubo: [30_000_00, 360_00, 360_00],
      vendaval: [50_000_00, 75_00, 75_00],
      rcOperacoes: [100_000_00, 500_00, 500_00],
      assistencia: [2_000_00, 80_00, 80_00],
    });
    expect(factorValues(pricing)).toEqual([1, 1, 1]);
    // IOF (1.635,00 + 50,00) × 7,38 % = 124,353 → 124,35; total 1.809,35
    expect(figures(pricing)).toEqual({ netPremium: 1_635_00, policyCost: 50_00, iofRate: 0.0738, iof: 124_35, total: 1_809_35 });
    // 6 × 301,55 (first 301,60); 7 at 1,69 % a.m. = 276,24 (1.933,68); 10 = 198,18 (1.981,80)
    const rows = optionRows(EMPRESARIAL, pricing.total, 'boleto');
    expect(rows[5]).toEqual([6, 301_60, 301_55, 1_809_35]);
    expect(rows[6]).toEqual([7, 276_24, 276_24, 1_933_68]);
    expect(rows[9]).toEqual([10, 198_18, 198_18, 1_981_80]);
    expectExactInstallments(EMPRESARIAL, pricing.total);
  });

  it('prices an unprotected restaurant of mixed construction on the Completo plan with adjusted capitals', () => {
    const answers = {
      atividade: 'restaurante',
      valorRisco: 450_000_00,
      faturamentoMensal: 90_000_00,
      construcao: 'mista',
      protecao: 'nenhuma',
    };
    const selection = { plan: 'completo', capitals: { roubo: 20_000_00, vidros: 15_000_00 } };
    expect(validateSelection(EMPRESARIAL, answers, selection)).toEqual({});
    const pricing = price(EMPRESARIAL, answers, selection);
    // incêndio 450.000,00 × 0,9 ‰ = 405,00; danos elétricos 50.000,00 × 4 ‰ = 200,00; roubo 20.000,00 × 12 ‰ = 240,00
    // vendaval 100.000,00 × 1,5 ‰ = 150,00; RC 200.000,00 × 5 ‰ = 1.000,00
    // lucros cessantes 3 × 90.000,00 = 270.000,00 × 3 ‰ = 810,00; vidros 15.000,00 × 10 ‰ = 150,00; assistência 80,00
    // sum 3.035,00 × restaurante 1,4 × mista 1,35 × sem proteção 1,2 (2,268) = 6.883,38
    // shares: each tariff premium × 2,268, exact: 918,54 + 453,60 + 544,32 + 340,20 + 2.268,00 + 1.837,08
    // + 340,20 + 181,44 = 6.883,38
    expect(coverageTable(pricing)).toEqual({
      incendio: [450_000_00, 405_00, 918_54],
      danosEletricos: [50_000_00, 200_00, 453_60],
      roubo: [20_000_00, 240_00, 544_32],
      vendaval: [100_000_00, 150_00, 340_20],
      rcOperacoes: [200_000_00, 1_000_00, 2_268_00],
      lucrosCessantes: [270_000_00, 810_00, 1_837_08],
      vidros: [15_000_00, 150_00, 340_20],
      assistencia: [2_000_00, 80_00, 181_44],
    });
    expect(factorValues(pricing)).toEqual([1.4, 1.35, 1.2]);
    // IOF (6.883,38 + 50,00) × 7,38 % = 511,6834… → 511,68; total 7.445,06
    expect(figures(pricing)).toEqual({ netPremium: 6_883_38, policyCost: 50_00, iofRate: 0.0738, iof: 511_68, total: 7_445_06 });
    expect(optionRows(EMPRESARIAL, pricing.total, 'debito').at(-1)).toEqual([10, 815_45, 815_45, 8_154_50]);
    expectExactInstallments(EMPRESARIAL, pricing.total);
    // EMP prices the same selection to the same cent
    expect(price(EMPRESARIAL_ANTIGO, answers, selection)).toEqual(pricing);
  });

  it('caps lost profits at R$ 3.000.000,00 however large the revenue', () => {
    const capitals = price(EMPRESARIAL, { valorRisco: 1_000_000_00, faturamentoMensal: 5_000_000_00 }, { plan: 'completo', capitals: {} });
    // 3.000.000,00 × 3 ‰ = 9.000,00; with no factor its share of the net premium is the same
    expect(coverageTable(capitals).lucrosCessantes).toEqual([3_000_000_00, 9_000_00, 9_000_00]);
  });
});
