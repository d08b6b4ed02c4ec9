import { describe, expect, it } from 'vitest';
import { price, resolveCapitals, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';
import { ITENS_PESSOAIS, ITENS_PESSOAIS_ANTIGO } from './itens-pessoais';

// Golden examples of the illustrative personal-items tariff (docs/decisions/014-illustrative-tariff.md).
// Rates in ‰ of the item's value: roubo e furto qualificado 60; quebra acidental 45; furto simples 30.
// IOF 7,38 %, no policy cost, minimum R$ 80,00; 10 interest-free, 11 and 12 at 1,99 % a.m.

describe('Itens Pessoais (IPU, IP)', () => {
  it('IP sells the same product under its own code and name', () => {
    expect(ITENS_PESSOAIS).toMatchObject({ code: 'IPU', iof: 'patrimonial', insured: 'PF', cadastroQuestions: [], finalStep: 'proposta' });
    expect(ITENS_PESSOAIS_ANTIGO).toMatchObject({ code: 'IP', name: 'Itens Pessoais (antigo)', line: 'itens-pessoais' });
    expect(ITENS_PESSOAIS.riskQuestions.map((q) => q.name)).toEqual(['tipoItem', 'marcaModelo', 'valorBem', 'idadeBem', 'usoProfissional']);
  });

  it('prices a 6-month-old smartphone on the Conforto plan at its full value', () => {
    const answers = { tipoItem: 'celular', marcaModelo: 'Samsung Galaxy S25', valorBem: 6_000_00, idadeBem: 6, usoProfissional: false };
    const pricing = price(ITENS_PESSOAIS, answers, { plan: 'conforto', capitals: {} });
    // roubo 6.000,00 × 60 ‰ = 360,00; quebra 6.000,00 × 45 ‰ = 270,00 → 630,00
    // smartphone 1,2 × 6 meses (até 12) 1 × uso pessoal 1 → 756,00; shares × 1,2: 432,00 + 324,00 = 756,00
    expect(coverageTable(pricing)).toEqual({ roubo: [6_000_00, 360_00, 432_00], quebra: [6_000_00, 270_00, 324_00] });
    expect(factorValues(pricing)).toEqual([1.2, 1, 1]);
    // IOF 756,00 × 7,38 % = 55,7928 → 55,79; total 811,79
    expect(figures(pricing)).toEqual({ netPremium: 756_00, policyCost: 0, iofRate: 0.0738, iof: 55_79, total: 811_79 });
    // 10 interest-free: 81,17 × 9 + 81,26; 11 at 1,99 % a.m. = 82,90 (911,90); 12 = 76,72 (920,64)
    const rows = optionRows(ITENS_PESSOAIS, pricing.total, 'cartao');
    expect(rows.slice(9)).toEqual([
      [10, 81_26, 81_17, 811_79],
      [11, 82_90, 82_90, 911_90],
      [12, 76_72, 76_72, 920_64],
    ]);
    expectExactInstallments(ITENS_PESSOAIS, pricing.total);
  });

  it('prices an 18-month-old notebook for work on the Completo plan, insured below its value', () => {
    const answers = { tipoItem: 'notebook', marcaModelo: 'Dell Latitude', valorBem: 9_500_00, idadeBem: 18, usoProfissional: true };
    // the item's value is the most; the partner may insure less (down to R$ 500,00)
    expect(resolveCapitals(ITENS_PESSOAIS, answers, 'completo')[0]).toMatchObject({
      default: 9_500_00,
      min: 500_00,
      max: 9_500_00,
      adjustable: true,
    });
    const selection = { plan: 'completo', capitals: { roubo: 8_000_00, quebra: 8_000_00, furtoSimples: 8_000_00 } };
    expect(validateSelection(ITENS_PESSOAIS, answers, selection)).toEqual({});
    const pricing = price(ITENS_PESSOAIS, answers, selection);
    // 8.000,00 × (roubo 60 ‰ = 480,00; quebra 45 ‰ = 360,00; furto simples 30 ‰ = 240,00) → 1.080,00
    // notebook 1 × 18 meses (13–24) 1,15 × uso profissional 1,15 = 1,3225 → 1.428,30
    // shares × 1,3225, exact: 634,80 + 476,10 + 317,40 = 1.428,30
    expect(coverageTable(pricing)).toEqual({
      roubo: [8_000_00, 480_00, 634_80],
      quebra: [8_000_00, 360_00, 476_10],
      furtoSimples: [8_000_00, 240_00, 317_40],
    });
    expect(factorValues(pricing)).toEqual([1, 1.15, 1.15]);
    // IOF 1.428,30 × 7,38 % = 105,40854 → 105,41; total 1.533,71
    expect(figures(pricing)).toEqual({ netPremium: 1_428_30, policyCost: 0, iofRate: 0.0738, iof: 105_41, total: 1_533_71 });
    expectExactInstallments(ITENS_PESSOAIS, pricing.total);
  });

  it('refuses insuring an item above its value', () => {
    const answers = { tipoItem: 'celular', valorBem: 3_000_00, idadeBem: 2 };
    expect(validateSelection(ITENS_PESSOAIS, answers, { plan: 'essencial', capitals: { roubo: 3_500_00 } })).toEqual({
      roubo: 'O capital de Roubo e furto qualificado deve estar entre R$ 500,00 e R$ 3.000,00.',
    });
  });
});
