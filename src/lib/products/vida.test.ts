import { describe, expect, it } from 'vitest';
import { price, validateSelection } from './engine';
import { coverageTable, expectExactInstallments, factorValues, figures, optionRows } from './golden-testkit';
import { VIDA, VIDA_ESSENCIAL, VIDA_FLEX } from './vida';

// Golden examples of the illustrative life tariff (docs/decisions/014-illustrative-tariff.md).
// Rates in ‰ of the capital: morte 1; morte acidental 0,3; IPA 0,4; diárias 500 ‰ of the daily value;
// funeral R$ 30,00 fixed. IOF 0,38 %, no policy cost, minimum R$ 60,00, up to 12 interest-free
// installments of at least R$ 20,00. The quote day is fixed with `dataCotacao`.

const QUOTE_DAY = '2026-03-15';

describe('Vida (VEU, VG, VE)', () => {
  it('are life products: IOF 0,38 %, beneficiaries, ages 18 to 70, rating questions in cadastro', () => {
    for (const product of [VIDA, VIDA_FLEX, VIDA_ESSENCIAL]) {
      expect(product).toMatchObject({
        line: 'vida',
        iof: 'vida',
        insured: 'PF',
        beneficiaries: true,
        finalStep: 'proposta',
        riskQuestions: [],
        insuredAge: { min: 18, max: 70 },
        validityDays: 15,
      });
      expect(product.cadastroQuestions.map((q) => q.name)).toEqual(['profissao', 'fumante']);
    }
  });

  it('prices VEU Conforto for a 35-year-old office worker with default capitals', () => {
    const answers = { profissao: 'administrativa', fumante: false, dataNascimento: '1990-05-10', dataCotacao: QUOTE_DAY };
    const pricing = price(VIDA, answers, { plan: 'conforto', capitals: {} });
    // morte 100.000,00 × 1 ‰ = 100,00; morte acidental 100.000,00 × 0,3 ‰ = 30,00; funeral 30,00 → 160,00
    // every factor is 1 (below): each coverage's share of the net premium is its tariff premium
    expect(coverageTable(pricing)).toEqual({
      morte: [100_000_00, 100_00, 100_00],
      morteAcidental: [100_000_00, 30_00, 30_00],
      funeral: [5_000_00, 30_00, 30_00],
    });
    // 35 anos (31–40) 1 × administrativa 1 × não fumante 1 → 160,00
    expect(pricing.factors).toEqual([
      { label: 'Idade: 35', value: 1 },
      { label: 'Categoria da profissão: Administrativa ou de escritório', value: 1 },
      { label: 'Fumante: não', value: 1 },
    ]);
    // IOF 160,00 × 0,38 % = 0,608 → 0,61; total 160,61
    expect(figures(pricing)).toEqual({ netPremium: 160_00, policyCost: 0, iofRate: 0.0038, iof: 61, total: 160_61 });
    // All interest-free; 8 × 20,07 (first 20,12) is the last count whose installments reach R$ 20,00
    // (160,61 / 9 = 17,84)
    expect(optionRows(VIDA, 160_61, 'cartao')).toEqual([
      [1, 160_61, 160_61, 160_61],
      [2, 80_31, 80_30, 160_61],
      [3, 53_55, 53_53, 160_61],
      [4, 40_16, 40_15, 160_61],
      [5, 32_13, 32_12, 160_61],
      [6, 26_81, 26_76, 160_61],
      [7, 22_97, 22_94, 160_61],
      [8, 20_12, 20_07, 160_61],
    ]);
    expectExactInstallments(VIDA, pricing.total);
  });

  it('prices VEU Completo for a 45-year-old smoking technician with adjusted capitals', () => {
    const answers = { profissao: 'tecnica', fumante: true, dataNascimento: '1980-07-20', dataCotacao: QUOTE_DAY };
    const selection = { plan: 'completo', capitals: { morte: 300_000_00, ipa: 100_000_00 } };
    expect(validateSelection(VIDA, answers, selection)).toEqual({});
    const pricing = price(VIDA, answers, selection);
    // morte 300.000,00 × 1 ‰ = 300,00; morte acidental 200.000,00 × 0,3 ‰ = 60,00;
    // IPA 100.000,00 × 0,4 ‰ = 40,00; funeral 30,00 → 430,00
    // 45 anos (41–50) 1,7 × técnica 1,25 × fumante 1,3 = 2,7625 → 430,00 × 2,7625 = 1.187,875 → 1.187,88
    // shares of the net premium (tariff × 1.187,88 / 430,00) cut to the centavo: morte 828,75|35;
    // morte acidental 165,75|07; IPA 110,50|05; funeral 82,87|53 → 1.187,87; the centavo left goes to the
    // largest cut-off fraction (funeral 0,53) → 82,88
    expect(coverageTable(pricing)).toEqual({
      morte: [300_000_00, 300_00, 828_75],
      morteAcidental: [200_000_00, 60_00, 165_75],
      ipa: [100_000_00, 40_00, 110_50],
      funeral: [5_000_00, 30_00, 82_88],
    });
    expect(factorValues(pricing)).toEqual([1.7, 1.25, 1.3]);
    // IOF 1.187,88 × 0,38 % = 4,513944 → 4,51; total 1.192,39
    expect(figures(pricing)).toEqual({ netPremium: 1_187_88, policyCost: 0, iofRate: 0.0038, iof: 4_51, total: 1_192_39 });
    // 12 interest-free: 1.192,39 / 12 = 99,36 → 99,43 + 11 × 99,36; boleto stops at 10
    expect(optionRows(VIDA, pricing.total, 'cartao').at(-1)).toEqual([12, 99_43, 99_36, 1_192_39]);
    expect(optionRows(VIDA, pricing.total, 'boleto')).toHaveLength(10);
    expectExactInstallments(VIDA, pricing.total);
  });

  it('prices VG Flex Essencial for a 28-year-old salesperson with a higher daily allowance', () => {
    const answers = { profissao: 'comercial', fumante: false, dataNascimento: '1998-01-31', dataCotacao: QUOTE_DAY };
    const pricing = price(VIDA_FLEX, answers, { plan: 'flexEssencial', capitals: { dit: 150_00 } });
    // morte 50.000,00 × 1 ‰ = 50,00; IPA 50.000,00 × 0,4 ‰ = 20,00; diária 150,00 × 500 ‰ = 75,00 → 145,00
    // 28 anos (até 30) 0,6 × comércio 1,1 × não fumante 1 = 0,66 → 145,00 × 0,66 = 95,70
    // shares × 0,66, exact: 33,00 + 13,20 + 49,50 = 95,70
    expect(coverageTable(pricing)).toEqual({
      morte: [50_000_00, 50_00, 33_00],
      ipa: [50_000_00, 20_00, 13_20],
      dit: [150_00, 75_00, 49_50],
    });
    // IOF 95,70 × 0,38 % = 0,36366 → 0,36; total 96,06; 4 × 24,01 (first 24,03) is the most
    expect(figures(pricing)).toEqual({ netPremium: 95_70, policyCost: 0, iofRate: 0.0038, iof: 36, total: 96_06 });
    expect(optionRows(VIDA_FLEX, 96_06, 'debito').map((r) => r[0])).toEqual([1, 2, 3, 4]);
    expectExactInstallments(VIDA_FLEX, pricing.total);
  });

  it('prices VE Essencial, with fixed capitals, at its minimum for a 26-year-old', () => {
    const answers = { profissao: 'administrativa', fumante: false, dataNascimento: '2000-03-15', dataCotacao: QUOTE_DAY };
    const pricing = price(VIDA_ESSENCIAL, answers, { plan: 'essencial', capitals: {} });
    // morte 30.000,00 × 1 ‰ = 30,00 + funeral 30,00 = 60,00 × 0,6 = 36,00 < 60,00 → minimum 60,00
    // IOF 60,00 × 0,38 % = 0,228 → 0,23; total 60,23
    // shares of the minimum 60,00 in proportion to 30,00 and 30,00: 30,00 each
    expect(coverageTable(pricing)).toEqual({ morte: [30_000_00, 30_00, 30_00], funeral: [5_000_00, 30_00, 30_00] });
    expect(figures(pricing)).toEqual({ netPremium: 60_00, policyCost: 0, iofRate: 0.0038, iof: 23, total: 60_23 });
    expect(validateSelection(VIDA_ESSENCIAL, answers, { plan: 'essencial', capitals: { morte: 40_000_00 } })).toEqual({
      morte: 'O capital de Morte por qualquer causa é fixo em R$ 30.000,00 neste plano.',
    });
    expectExactInstallments(VIDA_ESSENCIAL, pricing.total);
  });

  it('takes the age on the quote day, and gives no age factor without a birth date', () => {
    const base = { profissao: 'administrativa', fumante: false, dataNascimento: '1996-03-16' };
    expect(VIDA.factors({ ...base, dataCotacao: '2026-03-15' })[0]).toEqual({ label: 'Idade: 29', value: 0.6 });
    expect(VIDA.factors({ ...base, dataCotacao: '2026-03-16' })[0]).toEqual({ label: 'Idade: 30', value: 0.6 });
    expect(VIDA.factors({ ...base, dataCotacao: '2027-03-16' })[0]).toEqual({ label: 'Idade: 31', value: 1 });
    expect(VIDA.factors({ profissao: 'administrativa' }).map((f) => f.label)).toEqual([
      'Categoria da profissão: Administrativa ou de escritório',
      'Fumante: não',
    ]);
  });
});
