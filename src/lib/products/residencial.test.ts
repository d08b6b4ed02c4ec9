import { describe, expect, it } from 'vitest';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';
import { RESIDENCIAL } from './residencial';

// Golden examples of the illustrative residential tariff (docs/decisions/014-illustrative-tariff.md).
// Rates are ‰ of the capital: incêndio 0,4; danos elétricos 3; roubo 10; vendaval 1,5; RC familiar 2;
// aluguel 2; vidros 8; assistência R$ 45,00 fixed. IOF 7,38 %, no policy cost, minimum R$ 150,00.

describe('Residencial (RES)', () => {
  it('is a property line without risco step that ends in finalização', () => {
    expect(RESIDENCIAL).toMatchObject({
      iof: 'patrimonial',
      riskQuestions: [],
      finalStep: 'finalizacao',
      beneficiaries: false,
      policyCost: 0,
    });
    expect(RESIDENCIAL.cadastroQuestions.map((q) => q.name)).toEqual(['tipoImovel', 'uso', 'construcao', 'valorImovel', 'alarme']);
  });

  it('prices the Conforto plan of a R$ 400.000,00 apartment with default capitals', () => {
    const answers = { tipoImovel: 'apartamento', uso: 'habitual', construcao: 'alvenaria', valorImovel: 400_000_00, alarme: false };
    const pricing = price(RESIDENCIAL, answers, { plan: 'conforto', capitals: {} });
    // incêndio 400.000,00 × 0,4 ‰ = 160,00   danos elétricos 15.000,00 × 3 ‰ = 45,00
    // roubo 10.000,00 × 10 ‰ = 100,00        vendaval 20.000,00 × 1,5 ‰ = 30,00
    // RC familiar 20.000,00 × 2 ‰ = 40,00    assistência 45,00                      sum 420,00
    // apartamento 0,85 × habitual 1 × alvenaria 1 × sem alarme 1 → 420,00 × 0,85 = 357,00
    // each coverage's share of the net premium is its tariff premium × 0,85, exact here:
    // 136,00 + 38,25 + 85,00 + 25,50 + 34,00 + 38,25 = 357,00
    expect(coverageTable(pricing)).toEqual({
      incendio: [400_000_00, 160_00, 136_00],
      danosEletricos: [15_000_00, 45_00, 38_25],
      roubo: [10_000_00, 100_00, 85_00],
      vendaval: [20_000_00, 30_00, 25_50],
      rcFamiliar: [20_000_00, 40_00, 34_00],
      assistencia: [1_500_00, 45_00, 38_25],
    });
    expect(pricing.factors).toEqual([
      { label: 'Tipo de imóvel: Apartamento', value: 0.85 },
      { label: 'Uso do imóvel: Moradia habitual', value: 1 },
      { label: 'Tipo de construção: Alvenaria', value: 1 },
      { label: 'Possui alarme monitorado: não', value: 1 },
    ]);
    // IOF 357,00 × 7,38 % = 26,3466 → 26,35; total 357,00 + 26,35 = 383,35
    expect(figures(pricing)).toEqual({ netPremium: 357_00, policyCost: 0, iofRate: 0.0738, iof: 26_35, total: 383_35 });

    // Up to 6 interest-free (383,35 / 6 = 63,89 × 5 + 63,90); from 7 on the Price table at 1,49 % a.m.:
    // 7 × 58,08 = 406,56 (383,35 × 0,0149 / (1 − 1,0149^−7) = 58,0800…); 10 × 41,55 = 415,50.
    expect(optionRows(RESIDENCIAL, 383_35, 'boleto')).toEqual([
      [1, 383_35, 383_35, 383_35],
      [2, 191_68, 191_67, 383_35],
      [3, 127_79, 127_78, 383_35],
      [4, 95_86, 95_83, 383_35],
      [5, 76_67, 76_67, 383_35],
      [6, 63_90, 63_89, 383_35],
      [7, 58_08, 58_08, 406_56],
      [8, 51_19, 51_19, 409_52],
      [9, 45_83, 45_83, 412_47],
      [10, 41_55, 41_55, 415_50],
    ]);
    expect(optionRows(RESIDENCIAL, 383_35, 'pix')).toEqual([[1, 383_35, 383_35, 383_35]]);
    expectExactInstallments(RESIDENCIAL, pricing.total);
  });

  it('prices the Completo plan of a R$ 800.000,00 summer house with adjusted capitals', () => {
    const answers = { tipoImovel: 'casa', uso: 'veraneio', construcao: 'mista', valorImovel: 800_000_00, alarme: true };
    const selection = { plan: 'completo', capitals: { roubo: 30_000_00, rcFamiliar: 100_000_00, vidros: 8_000_00 } };
    expect(validateSelection(RESIDENCIAL, answers, selection)).toEqual({});
    const pricing = price(RESIDENCIAL, answers, selection);
    // incêndio 800.000,00 × 0,4 ‰ = 320,00   danos elétricos 20.000,00 × 3 ‰ = 60,00
    // roubo 30.000,00 × 10 ‰ = 300,00        vendaval 50.000,00 × 1,5 ‰ = 75,00
    // RC familiar 100.000,00 × 2 ‰ = 200,00  aluguel 12.000,00 × 2 ‰ = 24,00
    // vidros 8.000,00 × 8 ‰ = 64,00          assistência 45,00                     sum 1.088,00
    // casa 1,15 × veraneio 1,3 × mista 1,4 × alarme 0,95 = 1,98835 → 1.088,00 × 1,98835 = 2.163,3248 → 2.163,32
    // shares of the net premium (tariff × 2.163,32 / 1.088,00) cut to the centavo: incêndio 636,27|06;
    // danos elétricos 119,30|07; roubo 596,50|37; vendaval 149,12|59; RC 397,66|91; aluguel 47,72|03;
    // vidros 127,25|41; assistência 89,47|56 → 2.163,29; the 3 centavos left go to the largest cut-off
    // fractions (RC 0,91, vendaval 0,59, assistência 0,56) → 397,67, 149,13 and 89,48
    expect(coverageTable(pricing)).toEqual({
      incendio: [800_000_00, 320_00, 636_27],
      danosEletricos: [20_000_00, 60_00, 119_30],
      roubo: [30_000_00, 300_00, 596_50],
      vendaval: [50_000_00, 75_00, 149_13],
      rcFamiliar: [100_000_00, 200_00, 397_67],
      aluguel: [12_000_00, 24_00, 47_72],
      vidros: [8_000_00, 64_00, 127_25],
      assistencia: [1_500_00, 45_00, 89_48],
    });
    expect(factorValues(pricing)).toEqual([1.15, 1.3, 1.4, 0.95]);
    // IOF 2.163,32 × 7,38 % = 159,653 → 159,65; total 2.163,32 + 159,65 = 2.322,97
    expect(figures(pricing)).toEqual({ netPremium: 2_163_32, policyCost: 0, iofRate: 0.0738, iof: 159_65, total: 2_322_97 });
    // 6 interest-free: 2.322,97 / 6 = 387,16… → the first 387,17 and five of 387,16
    // 10 at 1,49 % a.m.: 251,76 each, 2.517,60 in all
    const rows = optionRows(RESIDENCIAL, pricing.total, 'cartao');
    expect(rows[5]).toEqual([6, 387_17, 387_16, 2_322_97]);
    expect(rows.at(-1)).toEqual([10, 251_76, 251_76, 2_517_60]);
    expectExactInstallments(RESIDENCIAL, pricing.total);
  });

  it('charges the minimum premium for a small apartment on the Essencial plan', () => {
    const answers = { tipoImovel: 'apartamento', uso: 'habitual', construcao: 'alvenaria', valorImovel: 100_000_00 };
    const pricing = price(RESIDENCIAL, answers, { plan: 'essencial', capitals: {} });
    // 100.000,00 × 0,4 ‰ = 40,00 + 10.000,00 × 3 ‰ = 30,00 + 45,00 = 115,00 × 0,85 = 97,75 < 150,00 → 150,00
    // IOF 150,00 × 7,38 % = 11,07; total 161,07; a 6th installment of 26,84 would be under R$ 30,00
    expect(figures(pricing)).toEqual({ netPremium: 150_00, policyCost: 0, iofRate: 0.0738, iof: 11_07, total: 161_07 });
    expect(optionRows(RESIDENCIAL, 161_07, 'cartao').map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
    expectExactInstallments(RESIDENCIAL, pricing.total);
  });

  it('refuses a theft capital outside its range with the range in the message', () => {
    const answers = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00 };
    expect(validateSelection(RESIDENCIAL, answers, { plan: 'conforto', capitals: { roubo: 40_000_00 } })).toEqual({
      roubo: 'O capital de Roubo ou furto qualificado de bens deve estar entre R$ 1.000,00 e R$ 30.000,00.',
    });
  });
});
