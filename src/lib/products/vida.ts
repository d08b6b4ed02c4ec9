import { bandFactor, booleanFactor, choiceFactor, insuredAge, type Bands } from './factor-tables';
import type { CoverageDef, PlanCoverage, PlanDef, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Life (VEU, VG, VE): one engine, three products that differ in their plans. No risco step: the
 * rating questions are asked in the cadastro step, and the age comes from the insured's
 * `dataNascimento`, which the caller merges into the answers (with `dataCotacao`, the quote day).
 */

const profissao: Question = {
  name: 'profissao',
  label: 'Categoria da profissão',
  article: 'a',
  kind: 'select',
  options: [
    { value: 'administrativa', label: 'Administrativa ou de escritório' },
    { value: 'comercial', label: 'Comércio, vendas e serviços' },
    { value: 'tecnica', label: 'Técnica, industrial ou de campo' },
    { value: 'risco', label: 'De risco (motoristas, construção civil, vigilância)' },
  ],
};
const fumante: Question = { name: 'fumante', label: 'Fumante', kind: 'boolean' };

const FACTORS = {
  profissao: { administrativa: 1.0, comercial: 1.1, tecnica: 1.25, risco: 1.6 },
  fumante: { sim: 1.3, nao: 1.0 },
  /** Age on the quote day; the insured schema only lets 18 to 70 through (insuredAge). */
  idade: [
    { upTo: 30, value: 0.6 },
    { upTo: 40, value: 1.0 },
    { upTo: 50, value: 1.7 },
    { upTo: 60, value: 2.8 },
    { upTo: 70, value: 4.5 },
  ] satisfies Bands,
} as const;

const LIFE_COVERAGES: readonly CoverageDef[] = [
  {
    id: 'morte',
    name: 'Morte por qualquer causa',
    rate: 1.0,
    deductible: 'Não há',
    description:
      'Cobertura básica: paga o capital aos beneficiários em caso de morte natural ou acidental (carência de 90 dias para morte natural).',
  },
  {
    id: 'morteAcidental',
    name: 'Morte acidental',
    rate: 0.3,
    deductible: 'Não há',
    description: 'Paga um capital adicional aos beneficiários quando a morte decorre de acidente pessoal.',
  },
  {
    id: 'ipa',
    name: 'Invalidez permanente total ou parcial por acidente',
    rate: 0.4,
    deductible: 'Não há (indenização proporcional ao grau da invalidez)',
    description: 'Paga ao segurado até o capital, conforme a tabela de graus de invalidez da SUSEP.',
  },
  {
    id: 'dit',
    name: 'Diárias por incapacidade temporária',
    rate: 500,
    deductible: 'Franquia de 15 dias',
    description: 'Paga a diária contratada por dia em que o segurado não puder trabalhar por doença ou acidente, até 180 diárias.',
  },
  {
    id: 'funeral',
    name: 'Assistência funeral individual',
    fixedPremium: 30_00,
    deductible: 'Não há',
    description: 'Organização e custeio do funeral do segurado, até o limite do serviço.',
  },
];

const funeral: PlanCoverage = { coverage: 'funeral', capital: { kind: 'fixed', value: 5_000_00 } };
const range = (coverage: string, value: number, max: number): PlanCoverage => ({
  coverage,
  capital: { kind: 'range', default: value, min: 20_000_00, max, step: 10_000_00 },
});
const fixed = (coverage: string, value: number): PlanCoverage => ({ coverage, capital: { kind: 'fixed', value } });
const diarias: PlanCoverage = { coverage: 'dit', capital: { kind: 'range', default: 100_00, min: 50_00, max: 500_00, step: 10_00 } };

function lifeProduct(def: { code: string; name: string; plans: readonly PlanDef[] }): ProductDef {
  return {
    ...def,
    line: 'vida',
    iof: 'vida',
    insured: 'PF',
    insuredAge: { min: 18, max: 70 },
    cadastroQuestions: [profissao, fumante],
    riskQuestions: [],
    coverages: LIFE_COVERAGES,
    factors: (answers) => [
      ...bandFactor('Idade', insuredAge(answers), FACTORS.idade),
      ...choiceFactor(profissao, FACTORS.profissao, answers),
      ...booleanFactor(fumante, FACTORS.fumante, answers),
    ],
    policyCost: 0,
    minimumPremium: 60_00,
    installments: { maxInstallments: 12, interestFreeUpTo: 12, monthlyInterest: 0, minimumInstallment: 20_00 },
    // Life quotes depend on the insured's declared age and health: a shorter validity keeps them current.
    validityDays: 15,
    beneficiaries: true,
    finalStep: 'proposta',
  };
}

export const VIDA = lifeProduct({
  code: 'VEU',
  name: 'Vida',
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Morte por qualquer causa e assistência funeral.',
      coverages: [range('morte', 50_000_00, 300_000_00), funeral],
    },
    {
      id: 'conforto',
      name: 'Conforto',
      description: 'Capital em dobro em caso de acidente.',
      coverages: [range('morte', 100_000_00, 500_000_00), range('morteAcidental', 100_000_00, 500_000_00), funeral],
    },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Morte, acidentes e invalidez por acidente.',
      coverages: [
        range('morte', 200_000_00, 1_000_000_00),
        range('morteAcidental', 200_000_00, 1_000_000_00),
        range('ipa', 200_000_00, 1_000_000_00),
        funeral,
      ],
    },
  ],
});

export const VIDA_FLEX = lifeProduct({
  code: 'VG',
  name: 'Vida Flex',
  plans: [
    {
      id: 'flexEssencial',
      name: 'Flex Essencial',
      description: 'Morte, invalidez por acidente e diárias por incapacidade.',
      coverages: [range('morte', 50_000_00, 500_000_00), range('ipa', 50_000_00, 500_000_00), diarias],
    },
    {
      id: 'flexCompleto',
      name: 'Flex Completo',
      description: 'Todas as coberturas, com assistência funeral.',
      coverages: [
        range('morte', 100_000_00, 1_000_000_00),
        range('morteAcidental', 100_000_00, 1_000_000_00),
        range('ipa', 100_000_00, 1_000_000_00),
        diarias,
        funeral,
      ],
    },
  ],
});

export const VIDA_ESSENCIAL = lifeProduct({
  code: 'VE',
  name: 'Vida Essencial',
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Capital fixo de R$ 30.000,00 e assistência funeral.',
      coverages: [fixed('morte', 30_000_00), funeral],
    },
    {
      id: 'essencialMais',
      name: 'Essencial Mais',
      description: 'Capital fixo de R$ 60.000,00, em dobro por acidente.',
      coverages: [fixed('morte', 60_000_00), fixed('morteAcidental', 60_000_00), funeral],
    },
  ],
});
