import { choiceFactor } from './factor-tables';
import type { PlanCoverage, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Business (EAU) and the older business simulator (EMP), which sells the same product under its own
 * code and name. Rated in the risco step.
 */

const atividade: Question = {
  name: 'atividade',
  label: 'Ramo de atividade',
  article: 'o',
  kind: 'select',
  options: [
    { value: 'escritorio', label: 'Escritório e consultório' },
    { value: 'comercio', label: 'Comércio varejista' },
    { value: 'restaurante', label: 'Bar, restaurante ou lanchonete' },
    { value: 'servicos', label: 'Serviços (oficinas, salões, lavanderias)' },
    { value: 'industriaLeve', label: 'Indústria de pequeno porte' },
    { value: 'deposito', label: 'Depósito e atacado' },
  ],
};
const construcao: Question = {
  name: 'construcao',
  label: 'Tipo de construção',
  article: 'o',
  kind: 'radio',
  options: [
    { value: 'alvenaria', label: 'Alvenaria' },
    { value: 'mista', label: 'Mista (alvenaria e madeira)' },
  ],
};
const protecao: Question = {
  name: 'protecao',
  label: 'Proteção contra roubo',
  article: 'a',
  kind: 'select',
  options: [
    { value: 'nenhuma', label: 'Nenhuma' },
    { value: 'alarme', label: 'Alarme monitorado' },
    { value: 'alarmeVigilancia', label: 'Alarme monitorado e vigilância 24 horas' },
  ],
};

const FACTORS = {
  atividade: { escritorio: 0.8, comercio: 1.0, restaurante: 1.4, servicos: 1.2, industriaLeve: 1.5, deposito: 1.3 },
  construcao: { alvenaria: 1.0, mista: 1.35 },
  protecao: { nenhuma: 1.2, alarme: 1.0, alarmeVigilancia: 0.85 },
} as const;

const range = (coverage: string, value: number, min: number, max: number, step: number): PlanCoverage => ({
  coverage,
  capital: { kind: 'range', default: value, min, max, step },
});
const incendio: PlanCoverage = { coverage: 'incendio', capital: { kind: 'share', of: 'valorRisco', percent: 100 } };
const assistencia: PlanCoverage = { coverage: 'assistencia', capital: { kind: 'fixed', value: 2_000_00 } };

function businessProduct(def: { code: string; name: string }): ProductDef {
  return {
    ...def,
    line: 'empresarial',
    iof: 'patrimonial',
    insured: 'PJ',
    cadastroQuestions: [],
    riskQuestions: [
      atividade,
      {
        name: 'valorRisco',
        label: 'Valor em risco',
        article: 'o',
        kind: 'money',
        min: 50_000_00,
        max: 20_000_000_00,
        help: 'Prédio (quando próprio), máquinas, móveis, utensílios e mercadorias.',
      },
      { name: 'faturamentoMensal', label: 'Faturamento mensal', article: 'o', kind: 'money', min: 5_000_00, max: 5_000_000_00 },
      construcao,
      protecao,
    ],
    coverages: [
      {
        id: 'incendio',
        name: 'Incêndio, queda de raio e explosão',
        rate: 0.9,
        deductible: 'Não há',
        description: 'Cobertura básica: danos ao prédio e ao conteúdo do estabelecimento.',
      },
      {
        id: 'danosEletricos',
        name: 'Danos elétricos',
        rate: 4,
        deductible: '10% dos prejuízos, mínimo de R$ 1.000,00',
        description: 'Danos a máquinas e instalações por curto-circuito, oscilação de energia ou descarga elétrica.',
      },
      {
        id: 'roubo',
        name: 'Roubo e furto qualificado de bens',
        rate: 12,
        deductible: '25% dos prejuízos, mínimo de R$ 1.500,00',
        description: 'Mercadorias, máquinas e móveis levados com arrombamento ou violência.',
      },
      {
        id: 'vendaval',
        name: 'Vendaval, furacão, ciclone, tornado e granizo',
        rate: 1.5,
        deductible: '10% dos prejuízos, mínimo de R$ 1.000,00',
        description: 'Danos ao prédio e ao conteúdo por ventos fortes e granizo.',
      },
      {
        id: 'rcOperacoes',
        name: 'Responsabilidade civil operações',
        rate: 5,
        deductible: '10% dos prejuízos, mínimo de R$ 2.000,00',
        description: 'Danos a clientes e terceiros causados pela atividade no estabelecimento.',
      },
      {
        id: 'lucrosCessantes',
        name: 'Lucros cessantes (até 3 meses)',
        rate: 3,
        deductible: 'Franquia de 72 horas',
        description: 'Despesas fixas e lucro líquido que a empresa deixa de ter enquanto para por um incêndio coberto.',
      },
      {
        id: 'vidros',
        name: 'Quebra de vidros, espelhos e letreiros',
        rate: 10,
        deductible: 'R$ 300,00',
        description: 'Quebra acidental de vitrines, vidros, espelhos e letreiros luminosos.',
      },
      {
        id: 'assistencia',
        name: 'Assistência empresarial 24 horas',
        fixedPremium: 80_00,
        deductible: 'Não há',
        description: 'Chaveiro, eletricista, encanador, vidraceiro e vigilância após arrombamento.',
      },
    ],
    plans: [
      {
        id: 'essencial',
        name: 'Essencial',
        description: 'Incêndio, danos elétricos e assistência.',
        coverages: [incendio, range('danosEletricos', 20_000_00, 10_000_00, 100_000_00, 5_000_00), assistencia],
      },
      {
        id: 'conforto',
        name: 'Conforto',
        description: 'Com roubo, vendaval e responsabilidade civil.',
        coverages: [
          incendio,
          range('danosEletricos', 20_000_00, 10_000_00, 100_000_00, 5_000_00),
          range('roubo', 30_000_00, 5_000_00, 200_000_00, 5_000_00),
          range('vendaval', 50_000_00, 10_000_00, 500_000_00, 10_000_00),
          range('rcOperacoes', 100_000_00, 50_000_00, 1_000_000_00, 50_000_00),
          assistencia,
        ],
      },
      {
        id: 'completo',
        name: 'Completo',
        description: 'Com lucros cessantes e vidros.',
        coverages: [
          incendio,
          range('danosEletricos', 50_000_00, 10_000_00, 200_000_00, 5_000_00),
          range('roubo', 50_000_00, 5_000_00, 300_000_00, 5_000_00),
          range('vendaval', 100_000_00, 10_000_00, 1_000_000_00, 10_000_00),
          range('rcOperacoes', 200_000_00, 50_000_00, 2_000_000_00, 50_000_00),
          // Three months of revenue, the usual indemnity period of a small business.
          { coverage: 'lucrosCessantes', capital: { kind: 'share', of: 'faturamentoMensal', percent: 300, max: 3_000_000_00 } },
          range('vidros', 10_000_00, 2_000_00, 50_000_00, 1_000_00),
          assistencia,
        ],
      },
    ],
    factors: (answers) => [
      ...choiceFactor(atividade, FACTORS.atividade, answers),
      ...choiceFactor(construcao, FACTORS.construcao, answers),
      ...choiceFactor(protecao, FACTORS.protecao, answers),
    ],
    policyCost: 50_00,
    minimumPremium: 400_00,
    installments: { maxInstallments: 10, interestFreeUpTo: 6, monthlyInterest: 0.0169, minimumInstallment: 100_00 },
    validityDays: 30,
    beneficiaries: false,
    finalStep: 'proposta',
  };
}

export const EMPRESARIAL = businessProduct({ code: 'EAU', name: 'Empresarial' });
export const EMPRESARIAL_ANTIGO = businessProduct({ code: 'EMP', name: 'Empresarial (antigo)' });
