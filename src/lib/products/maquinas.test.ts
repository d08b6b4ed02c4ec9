import { describe, expect, it } from 'vitest';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';
import { MAQUINAS } from './maquinas';

// Golden examples of the illustrative machinery tariff (docs/decisions/014-illustrative-tariff.md).
// Rates in ‰: básica 12; roubo 5; danos elétricos 2; RC 3; equipamento substituto 10. IOF 7,38 % on
// net premium + policy cost (R$ 50,00); minimum R$ 500,00; 4 interest-free, up to 10 at 1,69 % a.m.

describe('Máquinas e Equipamentos (MU)', () => {
  it('is a property line rated in the risco step', () => {
    expect(MAQUINAS).toMatchObject({
      iof: 'patrimonial',
      insured: 'PF_PJ',
      cadastroQuestions: [],
      finalStep: 'proposta',
      policyCost: 50_00,
    });
    expect(MAQUINAS.riskQuestions.map((q) => q.name)).toEqual([
      'tipoEquipamento',
      'fabricanteModelo',
      'valorEquipamento',
      'idadeEquipamento',
      'uso',
      'rastreador',
    ]);
  });

  it('prices a 5-year-old farm tractor on the Conforto plan with default capitals', () => {
    const answers = {
      tipoEquipamento: 'trator',
      fabricanteModelo: 'Massey Ferguson 4275',
      valorEquipamento: 280_000_00,
      idadeEquipamento: 5,
      uso: 'agricola',
      rastreador: false,
    };
    const pricing = price(MAQUINAS, answers, { plan: 'conforto', capitals: {} });
    // básica 280.000,00 × 12 ‰ = 3.360,00; roubo 280.000,00 × 5 ‰ = 1.400,00; RC 100.000,00 × 3 ‰ = 300,00 → 5.060,00
    // every factor is 1 (below): each coverage's share of the net premium is its tariff premium
    expect(coverageTable(pricing)).toEqual({
      basica: [280_000_00, 3_360_00, 3_360_00],
      roubo: [280_000_00, 1_400_00, 1_400_00],
      rc: [100_000_00, 300_00, 300_00],
    });
    // trator 1 × 5 anos (4–8) 1 × agrícola 1 × sem rastreador 1 → 5.060,00
    expect(pricing.factors.map((f) => f.label)).toEqual([
      'Tipo de equipamento: Trator',
      'Idade do equipamento (anos): 5',
      'Uso do equipamento: Agrícola',
      'Possui rastreador: não',
    ]);
    // IOF (5.060,00 + 50,00) × 7,38 % = 377,118 → 377,12; total 5.060,00 + 50,00 + 377,12 = 5.487,12
    expect(figures(pricing)).toEqual({ netPremium: 5_060_00, policyCost: 50_00, iofRate: 0.0738, iof: 377_12, total: 5_487_12 });
    // 4 × 1.371,78; 5 at 1,69 % a.m. = 1.153,68 (5.768,40); 10 = 601,00 (6.010,00)
    const rows = optionRows(MAQUINAS, pricing.total, 'boleto');
    expect(rows[3]).toEqual([4, 1_371_78, 1_371_78, 5_487_12]);
    expect(rows[4]).toEqual([5, 1_153_68, 1_153_68, 5_768_40]);
    expect(rows[9]).toEqual([10, 601_00, 601_00, 6_010_00]);
    expectExactInstallments(MAQUINAS, pricing.total);
  });

  it('prices a 10-year-old rented excavator with a tracker on the Completo plan with adjusted capitals', () => {
    const answers = {
      tipoEquipamento: 'escavadeira',
      fabricanteModelo: 'Caterpillar 320',
      valorEquipamento: 950_000_00,
      idadeEquipamento: 10,
      uso: 'locacao',
      rastreador: true,
    };
    const selection = { plan: 'completo', capitals: { rc: 300_000_00, aluguel: 60_000_00 } };
    expect(validateSelection(MAQUINAS, answers, selection)).toEqual({});
    const pricing = price(MAQUINAS, answers, selection);
    // básica 950.000,00 × 12 ‰ = 11.400,00; roubo × 5 ‰ = 4.750,00; RC 300.000,00 × 3 ‰ = 900,00
    // danos elétricos 50.000,00 × 2 ‰ = 100,00; substituto 60.000,00 × 10 ‰ = 600,00 → 17.750,00
    // escavadeira 1,15 × 10 anos (9–14) 1,2 × locação 1,4 × rastreador 0,9 = 1,73880 → 30.863,70
    // shares: each tariff premium × 1,7388, exact: 19.822,32 + 8.259,30 + 1.564,92 + 173,88 + 1.043,28 = 30.863,70
    expect(coverageTable(pricing)).toEqual({
      basica: [950_000_00, 11_400_00, 19_822_32],
      roubo: [950_000_00, 4_750_00, 8_259_30],
      rc: [300_000_00, 900_00, 1_564_92],
      danosEletricos: [50_000_00, 100_00, 173_88],
      aluguel: [60_000_00, 600_00, 1_043_28],
    });
    expect(factorValues(pricing)).toEqual([1.15, 1.2, 1.4, 0.9]);
    // IOF (30.863,70 + 50,00) × 7,38 % = 2.281,431… → 2.281,43; total 33.195,13
    expect(figures(pricing)).toEqual({ netPremium: 30_863_70, policyCost: 50_00, iofRate: 0.0738, iof: 2_281_43, total: 33_195_13 });
    // 4 interest-free: 33.195,13 / 4 = 8.298,78… → 8.298,79 + 3 × 8.298,78
    expect(optionRows(MAQUINAS, pricing.total, 'cartao')[3]).toEqual([4, 8_298_79, 8_298_78, 33_195_13]);
    expectExactInstallments(MAQUINAS, pricing.total);
  });

  it('refuses an RC capital off its R$ 50.000,00 step', () => {
    const answers = { valorEquipamento: 280_000_00 };
    expect(validateSelection(MAQUINAS, answers, { plan: 'conforto', capitals: { rc: 120_000_00 } })).toEqual({
      rc: 'O capital de Responsabilidade civil (danos materiais e corporais a terceiros) deve ser múltiplo de R$ 50.000,00.',
    });
  });
});
