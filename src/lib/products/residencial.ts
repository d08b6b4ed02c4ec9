import { booleanFactor, choiceFactor } from './factor-tables';
import type { ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Residential (RES): no risco step, so the rating questions are asked in the cadastro step.
 */

const tipoImovel: Question = {
  name: 'tipoImovel',
  label: 'Tipo de imóvel',
  article: 'o',
  kind: 'radio',
  options: [
    { value: 'casa', label: 'Casa' },
    { value: 'casaCondominio', label: 'Casa em condomínio fechado' },
    { value: 'apartamento', label: 'Apartamento' },
  ],
};
const uso: Question = {
  name: 'uso',
  label: 'Uso do imóvel',
  article: 'o',
  kind: 'radio',
  options: [
    { value: 'habitual', label: 'Moradia habitual' },
    { value: 'veraneio', label: 'Veraneio (praia ou campo)' },
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
const valorImovel: Question = {
  name: 'valorImovel',
  label: 'Valor do imóvel',
  article: 'o',
  kind: 'money',
  min: 50_000_00,
  max: 5_000_000_00,
  help: 'Valor para reconstruir o imóvel, sem o terreno.',
};
const alarme: Question = { name: 'alarme', label: 'Possui alarme monitorado', kind: 'boolean' };

const FACTORS = {
  tipoImovel: { casa: 1.15, casaCondominio: 1.0, apartamento: 0.85 },
  uso: { habitual: 1.0, veraneio: 1.3 },
  construcao: { alvenaria: 1.0, mista: 1.4 },
  alarme: { sim: 0.95, nao: 1.0 },
} as const;

const incendio = { coverage: 'incendio', capital: { kind: 'share', of: 'valorImovel', percent: 100 } } as const;
const assistencia = { coverage: 'assistencia', capital: { kind: 'fixed', value: 1_500_00 } } as const;

export const RESIDENCIAL: ProductDef = {
  code: 'RES',
  line: 'residencial',
  name: 'Residencial',
  iof: 'patrimonial',
  insured: 'PF',
  cadastroQuestions: [tipoImovel, uso, construcao, valorImovel, alarme],
  riskQuestions: [],
  coverages: [
    {
      id: 'incendio',
      name: 'Incêndio, queda de raio e explosão',
      rate: 0.4,
      deductible: 'Não há',
      description: 'Cobertura básica: danos ao imóvel e ao conteúdo causados por incêndio, raio ou explosão.',
    },
    {
      id: 'danosEletricos',
      name: 'Danos elétricos',
      rate: 3,
      deductible: '10% dos prejuízos, mínimo de R$ 300,00',
      description: 'Danos a instalações e aparelhos por curto-circuito, oscilação de energia ou descarga elétrica.',
    },
    {
      id: 'roubo',
      name: 'Roubo ou furto qualificado de bens',
      rate: 10,
      deductible: 'R$ 500,00',
      description: 'Bens do conteúdo levados com arrombamento ou violência, e os danos causados ao imóvel na ação.',
    },
    {
      id: 'vendaval',
      name: 'Vendaval, furacão, ciclone, tornado e granizo',
      rate: 1.5,
      deductible: '10% dos prejuízos, mínimo de R$ 500,00',
      description: 'Danos ao imóvel e ao conteúdo causados por ventos fortes e granizo.',
    },
    {
      id: 'rcFamiliar',
      name: 'Responsabilidade civil familiar',
      rate: 2,
      deductible: 'Não há',
      description: 'Danos involuntários a terceiros causados pelo segurado, sua família, animais domésticos ou pelo imóvel.',
    },
    {
      id: 'aluguel',
      name: 'Perda ou pagamento de aluguel (até 6 meses)',
      rate: 2,
      deductible: 'Não há',
      description: 'Aluguel de outro imóvel, ou o aluguel que o proprietário deixa de receber, enquanto o imóvel sinistrado é reparado.',
    },
    {
      id: 'vidros',
      name: 'Quebra de vidros, espelhos e mármores',
      rate: 8,
      deductible: 'R$ 200,00',
      description: 'Quebra acidental de vidros, espelhos, mármores e granitos instalados no imóvel.',
    },
    {
      id: 'assistencia',
      name: 'Assistência residencial 24 horas',
      fixedPremium: 45_00,
      deductible: 'Não há',
      description: 'Chaveiro, encanador, eletricista, vidraceiro e desentupimento, até o limite por serviço.',
    },
  ],
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'O básico para proteger o imóvel.',
      coverages: [
        incendio,
        { coverage: 'danosEletricos', capital: { kind: 'range', default: 10_000_00, min: 5_000_00, max: 30_000_00, step: 1_000_00 } },
        assistencia,
      ],
    },
    {
      id: 'conforto',
      name: 'Conforto',
      description: 'Imóvel, bens e responsabilidade civil.',
      coverages: [
        incendio,
        { coverage: 'danosEletricos', capital: { kind: 'range', default: 15_000_00, min: 5_000_00, max: 50_000_00, step: 1_000_00 } },
        { coverage: 'roubo', capital: { kind: 'range', default: 10_000_00, min: 1_000_00, max: 30_000_00, step: 1_000_00 } },
        { coverage: 'vendaval', capital: { kind: 'range', default: 20_000_00, min: 5_000_00, max: 100_000_00, step: 5_000_00 } },
        { coverage: 'rcFamiliar', capital: { kind: 'range', default: 20_000_00, min: 10_000_00, max: 100_000_00, step: 10_000_00 } },
        assistencia,
      ],
    },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Todas as coberturas, com aluguel e vidros.',
      coverages: [
        incendio,
        { coverage: 'danosEletricos', capital: { kind: 'range', default: 20_000_00, min: 5_000_00, max: 100_000_00, step: 1_000_00 } },
        { coverage: 'roubo', capital: { kind: 'range', default: 20_000_00, min: 1_000_00, max: 60_000_00, step: 1_000_00 } },
        { coverage: 'vendaval', capital: { kind: 'range', default: 50_000_00, min: 5_000_00, max: 200_000_00, step: 5_000_00 } },
        { coverage: 'rcFamiliar', capital: { kind: 'range', default: 50_000_00, min: 10_000_00, max: 200_000_00, step: 10_000_00 } },
        { coverage: 'aluguel', capital: { kind: 'range', default: 12_000_00, min: 3_000_00, max: 60_000_00, step: 1_000_00 } },
        { coverage: 'vidros', capital: { kind: 'range', default: 5_000_00, min: 1_000_00, max: 20_000_00, step: 1_000_00 } },
        assistencia,
      ],
    },
  ],
  factors: (answers) => [
    ...choiceFactor(tipoImovel, FACTORS.tipoImovel, answers),
    ...choiceFactor(uso, FACTORS.uso, answers),
    ...choiceFactor(construcao, FACTORS.construcao, answers),
    ...booleanFactor(alarme, FACTORS.alarme, answers),
  ],
  policyCost: 0,
  minimumPremium: 150_00,
  installments: { maxInstallments: 10, interestFreeUpTo: 6, monthlyInterest: 0.0149, minimumInstallment: 30_00 },
  validityDays: 30,
  beneficiaries: false,
  finalStep: 'finalizacao',
};
