import { bandFactor, booleanFactor, choiceFactor, integerAnswer, type Bands } from './factor-tables';
import type { PlanCoverage, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Machinery and equipment (MU): one mobile machine per quote, rated in the risco step.
 */

const tipoEquipamento: Question = {
  name: 'tipoEquipamento',
  label: 'Tipo de equipamento',
  article: 'o',
  kind: 'select',
  options: [
    { value: 'trator', label: 'Trator' },
    { value: 'colheitadeira', label: 'Colheitadeira' },
    { value: 'pulverizador', label: 'Pulverizador autopropelido' },
    { value: 'escavadeira', label: 'Escavadeira hidráulica' },
    { value: 'retroescavadeira', label: 'Retroescavadeira' },
    { value: 'paCarregadeira', label: 'Pá carregadeira' },
    { value: 'empilhadeira', label: 'Empilhadeira' },
    { value: 'gerador', label: 'Grupo gerador' },
  ],
};
const uso: Question = {
  name: 'uso',
  label: 'Uso do equipamento',
  article: 'o',
  kind: 'select',
  options: [
    { value: 'agricola', label: 'Agrícola' },
    { value: 'construcao', label: 'Construção e mineração' },
    { value: 'industrial', label: 'Industrial ou armazém' },
    { value: 'locacao', label: 'Locação a terceiros' },
  ],
};
const rastreador: Question = { name: 'rastreador', label: 'Possui rastreador', kind: 'boolean' };

const FACTORS = {
  tipoEquipamento: {
    trator: 1.0,
    colheitadeira: 1.1,
    pulverizador: 1.2,
    escavadeira: 1.15,
    retroescavadeira: 1.15,
    paCarregadeira: 1.1,
    empilhadeira: 0.9,
    gerador: 0.8,
  },
  uso: { agricola: 1.0, construcao: 1.3, industrial: 0.9, locacao: 1.4 },
  rastreador: { sim: 0.9, nao: 1.0 },
  /** Age in years: older machines break more and their parts cost more to find. */
  idade: [
    { upTo: 3, value: 0.9 },
    { upTo: 8, value: 1.0 },
    { upTo: 14, value: 1.2 },
    { upTo: 20, value: 1.4 },
  ] satisfies Bands,
} as const;

const basica: PlanCoverage = { coverage: 'basica', capital: { kind: 'share', of: 'valorEquipamento', percent: 100 } };
const roubo: PlanCoverage = { coverage: 'roubo', capital: { kind: 'share', of: 'valorEquipamento', percent: 100 } };
const rc: PlanCoverage = {
  coverage: 'rc',
  capital: { kind: 'range', default: 100_000_00, min: 50_000_00, max: 500_000_00, step: 50_000_00 },
};

export const MAQUINAS: ProductDef = {
  code: 'MU',
  line: 'maquinas',
  name: 'Máquinas e Equipamentos',
  iof: 'patrimonial',
  insured: 'PF_PJ',
  cadastroQuestions: [],
  riskQuestions: [
    tipoEquipamento,
    { name: 'fabricanteModelo', label: 'Fabricante e modelo', article: 'o', kind: 'text' },
    {
      name: 'valorEquipamento',
      label: 'Valor do equipamento',
      article: 'o',
      kind: 'money',
      min: 20_000_00,
      max: 5_000_000_00,
      help: 'Valor de mercado do equipamento, conforme nota fiscal ou tabela de referência.',
    },
    { name: 'idadeEquipamento', label: 'Idade do equipamento em anos', article: 'a', kind: 'integer', min: 0, max: 20 },
    uso,
    rastreador,
  ],
  coverages: [
    {
      id: 'basica',
      name: 'Básica: colisão, capotamento, incêndio, queda e desmoronamento',
      rate: 12,
      deductible: '10% dos prejuízos, mínimo de R$ 5.000,00',
      description: 'Danos materiais ao equipamento em operação, em deslocamento ou parado.',
    },
    {
      id: 'roubo',
      name: 'Roubo e furto qualificado',
      rate: 5,
      deductible: '10% dos prejuízos, mínimo de R$ 5.000,00',
      description: 'Roubo ou furto com arrombamento do equipamento.',
    },
    {
      id: 'danosEletricos',
      name: 'Danos elétricos',
      rate: 2,
      deductible: 'R$ 2.000,00',
      description: 'Danos a motores, painéis e componentes elétricos por curto-circuito ou descarga elétrica.',
    },
    {
      id: 'rc',
      name: 'Responsabilidade civil (danos materiais e corporais a terceiros)',
      rate: 3,
      deductible: 'Não há',
      description: 'Danos causados a terceiros durante a operação do equipamento.',
    },
    {
      id: 'aluguel',
      name: 'Aluguel de equipamento substituto',
      rate: 10,
      deductible: 'Franquia de 7 dias',
      description: 'Aluguel de um equipamento equivalente enquanto o segurado é reparado, após um sinistro coberto.',
    },
  ],
  plans: [
    { id: 'essencial', name: 'Essencial', description: 'Danos materiais ao equipamento.', coverages: [basica] },
    { id: 'conforto', name: 'Conforto', description: 'Danos, roubo e responsabilidade civil.', coverages: [basica, roubo, rc] },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Com danos elétricos e equipamento substituto.',
      coverages: [
        basica,
        roubo,
        rc,
        { coverage: 'danosEletricos', capital: { kind: 'range', default: 50_000_00, min: 10_000_00, max: 200_000_00, step: 10_000_00 } },
        { coverage: 'aluguel', capital: { kind: 'range', default: 30_000_00, min: 10_000_00, max: 100_000_00, step: 10_000_00 } },
      ],
    },
  ],
  factors: (answers) => [
    ...choiceFactor(tipoEquipamento, FACTORS.tipoEquipamento, answers),
    ...bandFactor('Idade do equipamento (anos)', integerAnswer(answers, 'idadeEquipamento'), FACTORS.idade),
    ...choiceFactor(uso, FACTORS.uso, answers),
    ...booleanFactor(rastreador, FACTORS.rastreador, answers),
  ],
  policyCost: 50_00,
  minimumPremium: 500_00,
  installments: { maxInstallments: 10, interestFreeUpTo: 4, monthlyInterest: 0.0169, minimumInstallment: 150_00 },
  validityDays: 30,
  beneficiaries: false,
  finalStep: 'proposta',
};
