import { choiceFactor } from './factor-tables';
import type { PlanCoverage, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Individual business (EVI): a small package for the microempreendedor individual (MEI). No risco
 * step: the rating questions are asked in the cadastro step.
 */

const atividade: Question = {
  name: 'atividade',
  label: 'Atividade do MEI',
  article: 'a',
  kind: 'select',
  options: [
    { value: 'comercio', label: 'Comércio (loja ou ponto fixo)' },
    { value: 'servicos', label: 'Serviços (salão de beleza, manicure, assistência técnica)' },
    { value: 'alimentacao', label: 'Alimentação (lanchonete, doceria, marmitaria)' },
    { value: 'oficina', label: 'Oficina e reparação' },
    { value: 'escritorio', label: 'Atendimento em escritório ou consultório' },
  ],
};
const localFuncionamento: Question = {
  name: 'localFuncionamento',
  label: 'Local de funcionamento',
  article: 'o',
  kind: 'radio',
  options: [
    { value: 'estabelecimento', label: 'Estabelecimento próprio ou alugado' },
    { value: 'residencia', label: 'Na residência do empreendedor' },
  ],
};

const FACTORS = {
  atividade: { comercio: 1.0, servicos: 0.9, alimentacao: 1.3, oficina: 1.2, escritorio: 0.8 },
  localFuncionamento: { estabelecimento: 1.0, residencia: 0.9 },
} as const;

const incendio: PlanCoverage = { coverage: 'incendio', capital: { kind: 'share', of: 'valorConteudo', percent: 100 } };
const fixed = (coverage: string, value: number): PlanCoverage => ({ coverage, capital: { kind: 'fixed', value } });

export const EMPRESARIAL_INDIVIDUAL: ProductDef = {
  code: 'EVI',
  line: 'empresarial-individual',
  name: 'Empresarial Individual',
  iof: 'patrimonial',
  insured: 'PJ',
  cadastroQuestions: [
    atividade,
    localFuncionamento,
    {
      name: 'valorConteudo',
      label: 'Valor do conteúdo',
      article: 'o',
      kind: 'money',
      min: 5_000_00,
      max: 300_000_00,
      help: 'Equipamentos, móveis, utensílios e mercadorias do negócio.',
    },
  ],
  riskQuestions: [],
  coverages: [
    {
      id: 'incendio',
      name: 'Incêndio, queda de raio e explosão',
      rate: 1.2,
      deductible: 'Não há',
      description: 'Cobertura básica: danos ao conteúdo do negócio.',
    },
    {
      id: 'danosEletricos',
      name: 'Danos elétricos',
      rate: 4,
      deductible: '10% dos prejuízos, mínimo de R$ 300,00',
      description: 'Danos a equipamentos por curto-circuito, oscilação de energia ou descarga elétrica.',
    },
    {
      id: 'roubo',
      name: 'Roubo e furto qualificado de bens',
      rate: 15,
      deductible: '25% dos prejuízos, mínimo de R$ 500,00',
      description: 'Equipamentos e mercadorias levados com arrombamento ou violência.',
    },
    {
      id: 'rc',
      name: 'Responsabilidade civil do estabelecimento',
      rate: 5,
      deductible: 'Não há',
      description: 'Danos a clientes e terceiros causados pelo negócio.',
    },
    {
      id: 'perdaRenda',
      name: 'Perda de renda por paralisação',
      rate: 25,
      deductible: 'Franquia de 3 dias',
      description: 'Diárias enquanto o negócio fica parado por um evento coberto, até 30 dias.',
    },
    {
      id: 'assistencia',
      name: 'Assistência 24 horas',
      fixedPremium: 35_00,
      deductible: 'Não há',
      description: 'Chaveiro, eletricista e encanador para o local do negócio.',
    },
  ],
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Incêndio, danos elétricos e assistência.',
      coverages: [incendio, fixed('danosEletricos', 5_000_00), fixed('assistencia', 1_000_00)],
    },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Com roubo, responsabilidade civil e perda de renda.',
      coverages: [
        incendio,
        fixed('danosEletricos', 10_000_00),
        { coverage: 'roubo', capital: { kind: 'range', default: 10_000_00, min: 2_000_00, max: 50_000_00, step: 1_000_00 } },
        fixed('rc', 20_000_00),
        fixed('perdaRenda', 3_000_00),
        fixed('assistencia', 1_000_00),
      ],
    },
  ],
  factors: (answers) => [
    ...choiceFactor(atividade, FACTORS.atividade, answers),
    ...choiceFactor(localFuncionamento, FACTORS.localFuncionamento, answers),
  ],
  policyCost: 0,
  minimumPremium: 120_00,
  installments: { maxInstallments: 12, interestFreeUpTo: 6, monthlyInterest: 0.0199, minimumInstallment: 25_00 },
  validityDays: 30,
  beneficiaries: false,
  finalStep: 'proposta',
};
