import { bandFactor, booleanFactor, choiceFactor, integerAnswer, type Bands } from './factor-tables';
import type { PlanCoverage, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Personal items (IPU) and the older simulator (IP), which sells the same product under its own code
 * and name: one portable item per quote, rated in the risco step.
 */

const tipoItem: Question = {
  name: 'tipoItem',
  label: 'Tipo de item',
  article: 'o',
  kind: 'select',
  options: [
    { value: 'celular', label: 'Smartphone' },
    { value: 'notebook', label: 'Notebook' },
    { value: 'tablet', label: 'Tablet' },
    { value: 'bicicleta', label: 'Bicicleta' },
    { value: 'relogio', label: 'Relógio inteligente' },
    { value: 'camera', label: 'Câmera fotográfica' },
    { value: 'instrumento', label: 'Instrumento musical' },
  ],
};
const usoProfissional: Question = { name: 'usoProfissional', label: 'Uso profissional', kind: 'boolean' };

const FACTORS = {
  tipoItem: { celular: 1.2, notebook: 1.0, tablet: 1.0, bicicleta: 0.9, relogio: 1.1, camera: 0.95, instrumento: 0.8 },
  usoProfissional: { sim: 1.15, nao: 1.0 },
  /** Age of the item in months since the invoice. */
  idade: [
    { upTo: 12, value: 1.0 },
    { upTo: 24, value: 1.15 },
    { upTo: 36, value: 1.3 },
  ] satisfies Bands,
} as const;

/** The item's value, which the partner may lower (never raise) down to R$ 500,00. */
const itemValue = (coverage: string): PlanCoverage => ({
  coverage,
  capital: { kind: 'share', of: 'valorBem', percent: 100, min: 500_00, adjustable: true },
});

function personalItemsProduct(def: { code: string; name: string }): ProductDef {
  return {
    ...def,
    line: 'itens-pessoais',
    iof: 'patrimonial',
    insured: 'PF',
    cadastroQuestions: [],
    riskQuestions: [
      tipoItem,
      { name: 'marcaModelo', label: 'Marca e modelo', article: 'a', kind: 'text' },
      {
        name: 'valorBem',
        label: 'Valor do bem',
        article: 'o',
        kind: 'money',
        min: 500_00,
        max: 50_000_00,
        help: 'Valor da nota fiscal de compra.',
      },
      { name: 'idadeBem', label: 'Idade do bem em meses', article: 'a', kind: 'integer', min: 0, max: 36 },
      usoProfissional,
    ],
    coverages: [
      {
        id: 'roubo',
        name: 'Roubo e furto qualificado',
        rate: 60,
        deductible: '20% do valor do bem',
        description: 'O bem levado com violência, ameaça ou arrombamento, no Brasil e no exterior.',
      },
      {
        id: 'quebra',
        name: 'Quebra acidental (inclui danos por líquidos)',
        rate: 45,
        deductible: '20% do valor do bem',
        description: 'Quedas, impactos e contato com líquidos que impeçam o funcionamento do bem.',
      },
      {
        id: 'furtoSimples',
        name: 'Furto simples',
        rate: 30,
        deductible: '25% do valor do bem',
        description: 'O bem levado sem violência nem arrombamento, como em um descuido.',
      },
    ],
    plans: [
      { id: 'essencial', name: 'Essencial', description: 'Roubo e furto qualificado.', coverages: [itemValue('roubo')] },
      { id: 'conforto', name: 'Conforto', description: 'Roubo e quebra acidental.', coverages: [itemValue('roubo'), itemValue('quebra')] },
      {
        id: 'completo',
        name: 'Completo',
        description: 'Roubo, quebra acidental e furto simples.',
        coverages: [itemValue('roubo'), itemValue('quebra'), itemValue('furtoSimples')],
      },
    ],
    factors: (answers) => [
      ...choiceFactor(tipoItem, FACTORS.tipoItem, answers),
      ...bandFactor('Idade do bem (meses)', integerAnswer(answers, 'idadeBem'), FACTORS.idade),
      ...booleanFactor(usoProfissional, FACTORS.usoProfissional, answers),
    ],
    policyCost: 0,
    minimumPremium: 80_00,
    installments: { maxInstallments: 12, interestFreeUpTo: 10, monthlyInterest: 0.0199, minimumInstallment: 15_00 },
    validityDays: 30,
    beneficiaries: false,
    finalStep: 'proposta',
  };
}

export const ITENS_PESSOAIS = personalItemsProduct({ code: 'IPU', name: 'Itens Pessoais' });
export const ITENS_PESSOAIS_ANTIGO = personalItemsProduct({ code: 'IP', name: 'Itens Pessoais (antigo)' });
