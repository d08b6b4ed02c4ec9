import { describe, expect, it } from 'vitest';
import { AGRICOLA, FLORESTA, PATRIMONIO_RURAL, PENHOR_RURAL } from './agricola';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';

// Golden examples of the illustrative rural tariff (docs/decisions/014-illustrative-tariff.md).
// Rural lines are exempt from IOF, have no policy cost, a minimum premium of R$ 300,00, up to 4
// interest-free installments and up to 6 at 1,29 % a.m., each of at least R$ 200,00.
// Region factor: Sul 1,2; Sudeste 1; Centro-Oeste 0,9; Nordeste 1,3; Norte 1,1.

const RURAL = [AGRICOLA, PATRIMONIO_RURAL, FLORESTA, PENHOR_RURAL];

describe('rural lines (AFU, PR, FL, PRS)', () => {
  it('share the agricultural engine: IOF exempt, risco step, same payment rules', () => {
    for (const product of RURAL) {
      expect(product).toMatchObject({
        line: 'agricola',
        iof: 'rural',
        insured: 'PF_PJ',
        cadastroQuestions: [],
        finalStep: 'proposta',
        beneficiaries: false,
        installments: AGRICOLA.installments,
        minimumPremium: 300_00,
        policyCost: 0,
      });
      expect(product.riskQuestions.length).toBeGreaterThan(0);
    }
    expect(RURAL.map((p) => p.riskQuestions.map((q) => q.name))).toEqual([
      ['cultura', 'areaHectares', 'produtividadeEsperada', 'valorLavoura', 'municipio', 'uf', 'irrigada'],
      ['atividade', 'valorBenfeitorias', 'valorMaquinas', 'municipio', 'uf'],
      ['especie', 'areaHectares', 'idadePlantio', 'valorFloresta', 'brigada', 'municipio', 'uf'],
      ['tipoBem', 'valorBem', 'instituicaoFinanceira', 'municipio', 'uf'],
    ]);
  });

  it('AFU: prices soybeans in Mato Grosso on the Conforto plan (65 % coverage level) with default capitals', () => {
    // 500 ha × 60 sc/ha × R$ 120,00 = R$ 3.600.000,00 expected production
    const answers = {
      cultura: 'soja',
      areaHectares: 500,
      produtividadeEsperada: 60,
      valorLavoura: 3_600_000_00,
      municipio: 'Sorriso',
      uf: 'MT',
      irrigada: false,
    };
    const pricing = price(AGRICOLA, answers, { plan: 'conforto', capitals: {} });
    // capital 65 % × 3.600.000,00 = 2.340.000,00
    // básica × 15 ‰ = 35.100,00; geada × 8 ‰ = 18.720,00; chuva excessiva × 7 ‰ = 16.380,00
    // replantio 20.000,00 × 20 ‰ = 400,00 → 70.600,00
    // each coverage's share of the net premium is its tariff premium × 0,9 (63.540,00 / 70.600,00), exact here:
    // 31.590,00 + 16.848,00 + 14.742,00 + 360,00 = 63.540,00
    expect(coverageTable(pricing)).toEqual({
      basica: [2_340_000_00, 35_100_00, 31_590_00],
      geada: [2_340_000_00, 18_720_00, 16_848_00],
      chuvaExcessiva: [2_340_000_00, 16_380_00, 14_742_00],
      replantio: [20_000_00, 400_00, 360_00],
    });
    // soja 1 × sequeiro 1 × Centro-Oeste 0,9 → 63.540,00; IOF exempt
    expect(pricing.factors).toEqual([
      { label: 'Cultura: Soja', value: 1 },
      { label: 'Lavoura irrigada: não', value: 1 },
      { label: 'Região: Centro-Oeste', value: 0.9 },
    ]);
    expect(figures(pricing)).toEqual({ netPremium: 63_540_00, policyCost: 0, iofRate: 0, iof: 0, total: 63_540_00 });
    // 4 interest-free × 15.885,00; 5 at 1,29 % a.m. = 13.204,00 (66.020,00); 6 = 11.073,25 (66.439,50)
    expect(optionRows(AGRICOLA, pricing.total, 'boleto')).toEqual([
      [1, 63_540_00, 63_540_00, 63_540_00],
      [2, 31_770_00, 31_770_00, 63_540_00],
      [3, 21_180_00, 21_180_00, 63_540_00],
      [4, 15_885_00, 15_885_00, 63_540_00],
      [5, 13_204_00, 13_204_00, 66_020_00],
      [6, 11_073_25, 11_073_25, 66_439_50],
    ]);
    expectExactInstallments(AGRICOLA, pricing.total);
  });

  it('AFU: prices irrigated second-crop corn in Paraná on the Completo plan with a larger replanting capital', () => {
    // 80 ha × 100 sc/ha × R$ 55,00 = R$ 440.000,00
    const answers = {
      cultura: 'milhoSafrinha',
      areaHectares: 80,
      produtividadeEsperada: 100,
      valorLavoura: 440_000_00,
      municipio: 'Cascavel',
      uf: 'PR',
      irrigada: true,
    };
    const selection = { plan: 'completo', capitals: { replantio: 35_000_00 } };
    expect(validateSelection(AGRICOLA, answers, selection)).toEqual({});
    const pricing = price(AGRICOLA, answers, selection);
    // capital 70 % × 440.000,00 = 308.000,00
    // básica × 15 ‰ = 4.620,00; geada × 8 ‰ = 2.464,00; seca × 25 ‰ = 7.700,00; chuva × 7 ‰ = 2.156,00
    // replantio 35.000,00 × 20 ‰ = 700,00 → 17.640,00
    // segunda safra 1,35 × irrigada 0,7 × Sul 1,2 = 1,134 → 17.640,00 × 1,134 = 20.003,76
    // shares of the net premium (tariff × 20.003,76 / 17.640,00) cut to the centavo: básica 5.239,08;
    // geada 2.794,17|6; seca 8.731,80; chuva 2.444,90|4; replantio 793,80 → 20.003,75; the centavo left goes
    // to the largest cut-off fraction (geada's 0,6 centavo) → geada 2.794,18
    expect(coverageTable(pricing)).toEqual({
      basica: [308_000_00, 4_620_00, 5_239_08],
      geada: [308_000_00, 2_464_00, 2_794_18],
      seca: [308_000_00, 7_700_00, 8_731_80],
      chuvaExcessiva: [308_000_00, 2_156_00, 2_444_90],
      replantio: [35_000_00, 700_00, 793_80],
    });
    expect(factorValues(pricing)).toEqual([1.35, 0.7, 1.2]);
    expect(figures(pricing)).toEqual({ netPremium: 20_003_76, policyCost: 0, iofRate: 0, iof: 0, total: 20_003_76 });
    // 6 at 1,29 % a.m.: 20.003,76 × 0,0129 / (1 − 1,0129^−6) = 3.486,10 → 20.916,60
    expect(optionRows(AGRICOLA, pricing.total, 'cartao').at(-1)).toEqual([6, 3_486_10, 3_486_10, 20_916_60]);
    expectExactInstallments(AGRICOLA, pricing.total);
  });

  it('PR: prices a poultry farm in Santa Catarina on the Completo plan with a larger theft capital', () => {
    const answers = { atividade: 'avicultura', valorBenfeitorias: 1_200_000_00, valorMaquinas: 450_000_00, municipio: 'Chapecó', uf: 'SC' };
    const pricing = price(PATRIMONIO_RURAL, answers, { plan: 'completo', capitals: { roubo: 80_000_00 } });
    // incêndio 1.200.000,00 × 1,2 ‰ = 1.440,00; máquinas 450.000,00 × 15 ‰ = 6.750,00
    // vendaval 50 % = 600.000,00 × 1,8 ‰ = 1.080,00; roubo 80.000,00 × 6 ‰ = 480,00; RC 100.000,00 × 3 ‰ = 300,00
    // sum 10.050,00 × avicultura 1,3 × Sul 1,2 (1,56) = 15.678,00
    // shares: each tariff premium × 1,56, exact: 2.246,40 + 10.530,00 + 1.684,80 + 748,80 + 468,00 = 15.678,00
    expect(coverageTable(pricing)).toEqual({
      incendio: [1_200_000_00, 1_440_00, 2_246_40],
      maquinas: [450_000_00, 6_750_00, 10_530_00],
      vendaval: [600_000_00, 1_080_00, 1_684_80],
      roubo: [80_000_00, 480_00, 748_80],
      rc: [100_000_00, 300_00, 468_00],
    });
    expect(factorValues(pricing)).toEqual([1.3, 1.2]);
    expect(figures(pricing)).toEqual({ netPremium: 15_678_00, policyCost: 0, iofRate: 0, iof: 0, total: 15_678_00 });
    expectExactInstallments(PATRIMONIO_RURAL, pricing.total);
  });

  it('FL: prices a young eucalyptus stand with a fire brigade on the Completo plan', () => {
    const answers = {
      especie: 'eucalipto',
      areaHectares: 300,
      idadePlantio: 2,
      valorFloresta: 2_400_000_00,
      brigada: true,
      municipio: 'Três Lagoas',
      uf: 'MS',
    };
    const pricing = price(FLORESTA, answers, { plan: 'completo', capitals: {} });
    // 2.400.000,00 × (incêndio 5 ‰ = 12.000,00; vendaval 2 ‰ = 4.800,00; geada 1,5 ‰ = 3.600,00)
    // + replantio 50.000,00 × 4 ‰ = 200,00 → 20.600,00
    // eucalipto 1 × plantio de 2 anos 1,3 × brigada 0,85 × Centro-Oeste 0,9 = 0,9945 → 20.486,70
    // shares: each tariff premium × 0,9945, exact: 11.934,00 + 4.773,60 + 3.580,20 + 198,90 = 20.486,70
    expect(coverageTable(pricing)).toEqual({
      incendio: [2_400_000_00, 12_000_00, 11_934_00],
      vendaval: [2_400_000_00, 4_800_00, 4_773_60],
      geada: [2_400_000_00, 3_600_00, 3_580_20],
      replantio: [50_000_00, 200_00, 198_90],
    });
    expect(factorValues(pricing)).toEqual([1, 1.3, 0.85, 0.9]);
    expect(figures(pricing)).toEqual({ netPremium: 20_486_70, policyCost: 0, iofRate: 0, iof: 0, total: 20_486_70 });
    expectExactInstallments(FLORESTA, pricing.total);
  });

  it('PRS: prices a pledged tractor in Goiás on the Ampliado plan', () => {
    const answers = {
      tipoBem: 'maquinas',
      valorBem: 650_000_00,
      instituicaoFinanceira: 'Banco do Brasil',
      municipio: 'Rio Verde',
      uf: 'GO',
    };
    const pricing = price(PENHOR_RURAL, answers, { plan: 'ampliado', capitals: {} });
    // básica 650.000,00 × 2,5 ‰ = 1.625,00; roubo 650.000,00 × 5 ‰ = 3.250,00; danos elétricos 20.000,00 × 3 ‰ = 60,00
    // 4.935,00 × máquinas 1,2 × Centro-Oeste 0,9 (1,08) = 5.329,80
    // shares: each tariff premium × 1,08, exact: 1.755,00 + 3.510,00 + 64,80 = 5.329,80
    expect(coverageTable(pricing)).toEqual({
      basica: [650_000_00, 1_625_00, 1_755_00],
      roubo: [650_000_00, 3_250_00, 3_510_00],
      danosEletricos: [20_000_00, 60_00, 64_80],
    });
    expect(figures(pricing)).toEqual({ netPremium: 5_329_80, policyCost: 0, iofRate: 0, iof: 0, total: 5_329_80 });
    expectExactInstallments(PENHOR_RURAL, pricing.total);
  });

  it('charges the rural minimum premium for a small crop', () => {
    // 60 % × 10.000,00 = 6.000,00 × (15 + 8) ‰ = 138,00 × café 0,8 × Sudeste 1 = 110,40 < 300,00
    const pricing = price(AGRICOLA, { cultura: 'cafe', valorLavoura: 10_000_00, uf: 'MG' }, { plan: 'essencial', capitals: {} });
    expect(figures(pricing)).toMatchObject({ netPremium: 300_00, iof: 0, total: 300_00 });
    expect(optionRows(AGRICOLA, 300_00, 'boleto').map((r) => r[0])).toEqual([1]);
  });
});
