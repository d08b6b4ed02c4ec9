import { bandFactor, booleanFactor, choiceFactor, integerAnswer, type Bands, type FactorTable } from './factor-tables';
import { UFS } from './insured';
import type { Answers, CoverageDef, Factor, PlanDef, ProductDef, Question } from './types';

/*
 * ILLUSTRATIVE TARIFF — the rates, factors, sums and rules below are sample data for the portal,
 * not the insurer's filed tariff (docs/decisions/014-illustrative-tariff.md).
 *
 * Agricultural (AFU) and the rural lines built on the same engine: Patrimônio Rural (PR), Floresta
 * (FL) and Penhor Rural (PRS). All are exempt from IOF and share payment rules and the region table;
 * each has its own risco questions, coverages and plans.
 */

const uf: Question = { name: 'uf', label: 'UF', article: 'a', kind: 'select', options: UFS };
const municipio: Question = { name: 'municipio', label: 'Município', article: 'o', kind: 'text' };

/** Climate exposure by region: hail and frost in the South, drought in the Northeast. */
const REGIONS: readonly { name: string; ufs: readonly string[]; value: number }[] = [
  { name: 'Sul', ufs: ['PR', 'SC', 'RS'], value: 1.2 },
  { name: 'Sudeste', ufs: ['SP', 'MG', 'RJ', 'ES'], value: 1.0 },
  { name: 'Centro-Oeste', ufs: ['MT', 'MS', 'GO', 'DF'], value: 0.9 },
  { name: 'Nordeste', ufs: ['MA', 'PI', 'CE', 'RN', 'PB', 'PE', 'AL', 'SE', 'BA'], value: 1.3 },
  { name: 'Norte', ufs: ['AC', 'AM', 'AP', 'PA', 'RO', 'RR', 'TO'], value: 1.1 },
];

function regionFactor(answers: Answers): Factor[] {
  const region = REGIONS.find((r) => r.ufs.includes(String(answers.uf)));
  return region ? [{ label: `Região: ${region.name}`, value: region.value }] : [];
}

interface RuralLine {
  code: string;
  name: string;
  riskQuestions: readonly Question[];
  coverages: readonly CoverageDef[];
  plans: readonly PlanDef[];
  /** The line's own factors; the region factor is added to every rural line. */
  factors: (answers: Answers) => Factor[];
}

export function agricultureProduct(line: RuralLine): ProductDef {
  return {
    ...line,
    line: 'agricola',
    iof: 'rural',
    insured: 'PF_PJ',
    cadastroQuestions: [],
    factors: (answers) => [...line.factors(answers), ...regionFactor(answers)],
    policyCost: 0,
    minimumPremium: 300_00,
    installments: { maxInstallments: 6, interestFreeUpTo: 4, monthlyInterest: 0.0129, minimumInstallment: 200_00 },
    validityDays: 30,
    beneficiaries: false,
    finalStep: 'proposta',
  };
}

const select = (name: string, label: string, article: 'o' | 'a', options: readonly [string, string][]): Question => ({
  name,
  label,
  article,
  kind: 'select',
  options: options.map(([value, text]) => ({ value, label: text })),
});

// ——— Agrícola (AFU): multirrisco of a crop ———

const cultura = select('cultura', 'Cultura', 'a', [
  ['soja', 'Soja'],
  ['milho', 'Milho (primeira safra)'],
  ['milhoSafrinha', 'Milho segunda safra'],
  ['trigo', 'Trigo'],
  ['cafe', 'Café'],
  ['feijao', 'Feijão'],
  ['algodao', 'Algodão'],
]);
const irrigada: Question = { name: 'irrigada', label: 'Lavoura irrigada', kind: 'boolean' };

const CULTURA_FACTORS: FactorTable = { soja: 1.0, milho: 1.1, milhoSafrinha: 1.35, trigo: 1.3, cafe: 0.8, feijao: 1.25, algodao: 0.9 };

/** The share of the expected production a plan insures: its coverage level (nível de cobertura). */
const level = (coverage: string, percent: number) => ({ coverage, capital: { kind: 'share', of: 'valorLavoura', percent } }) as const;
const replantio = {
  coverage: 'replantio',
  capital: { kind: 'range', default: 20_000_00, min: 5_000_00, max: 200_000_00, step: 1_000_00 },
} as const;

export const AGRICOLA = agricultureProduct({
  code: 'AFU',
  name: 'Agrícola',
  riskQuestions: [
    cultura,
    { name: 'areaHectares', label: 'Área cultivada em hectares', article: 'a', kind: 'integer', min: 1, max: 10_000 },
    {
      name: 'produtividadeEsperada',
      label: 'Produtividade esperada em sacas por hectare',
      article: 'a',
      kind: 'integer',
      min: 1,
      max: 400,
    },
    {
      name: 'valorLavoura',
      label: 'Valor estimado da produção',
      article: 'o',
      kind: 'money',
      min: 10_000_00,
      max: 20_000_000_00,
      help: 'Área × produtividade esperada × preço da saca.',
    },
    municipio,
    uf,
    irrigada,
  ],
  coverages: [
    {
      id: 'basica',
      name: 'Básica: incêndio, raio, tromba d’água, ventos fortes e granizo',
      rate: 15,
      deductible: 'Franquia de 20% dos prejuízos',
      description: 'Perda de produtividade da lavoura causada pelos eventos da cobertura básica.',
    },
    {
      id: 'geada',
      name: 'Geada',
      rate: 8,
      deductible: 'Franquia de 20% dos prejuízos',
      description: 'Perda de produtividade causada por geada.',
    },
    {
      id: 'seca',
      name: 'Seca e variação excessiva de temperatura',
      rate: 25,
      deductible: 'Franquia de 30% dos prejuízos',
      description: 'Perda de produtividade causada por estiagem ou calor excessivo durante o ciclo da cultura.',
    },
    {
      id: 'chuvaExcessiva',
      name: 'Chuva excessiva',
      rate: 7,
      deductible: 'Franquia de 20% dos prejuízos',
      description: 'Perda de produtividade causada por excesso de chuva, inclusive na colheita.',
    },
    {
      id: 'replantio',
      name: 'Replantio',
      rate: 20,
      deductible: 'Não há',
      description: 'Custos de replantio quando um evento coberto destrói a lavoura logo após a semeadura.',
    },
  ],
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Nível de cobertura de 60% da produção esperada.',
      coverages: [level('basica', 60), level('geada', 60)],
    },
    {
      id: 'conforto',
      name: 'Conforto',
      description: 'Nível de cobertura de 65%, com chuva excessiva e replantio.',
      coverages: [level('basica', 65), level('geada', 65), level('chuvaExcessiva', 65), replantio],
    },
    {
      id: 'completo',
      name: 'Completo (multirrisco)',
      description: 'Nível de cobertura de 70%, com seca.',
      coverages: [level('basica', 70), level('geada', 70), level('seca', 70), level('chuvaExcessiva', 70), replantio],
    },
  ],
  factors: (answers) => [...choiceFactor(cultura, CULTURA_FACTORS, answers), ...booleanFactor(irrigada, { sim: 0.7, nao: 1.0 }, answers)],
});

// ——— Patrimônio Rural (PR): buildings and machinery of a farm ———

const atividade = select('atividade', 'Atividade da propriedade', 'a', [
  ['graos', 'Grãos'],
  ['pecuaria', 'Pecuária'],
  ['hortifruti', 'Hortifrúti'],
  ['avicultura', 'Avicultura e suinocultura'],
]);

export const PATRIMONIO_RURAL = agricultureProduct({
  code: 'PR',
  name: 'Patrimônio Rural',
  riskQuestions: [
    atividade,
    {
      name: 'valorBenfeitorias',
      label: 'Valor das benfeitorias',
      article: 'o',
      kind: 'money',
      min: 20_000_00,
      max: 10_000_000_00,
      help: 'Galpões, silos, armazéns, currais e casas da propriedade.',
    },
    { name: 'valorMaquinas', label: 'Valor das máquinas e implementos', article: 'o', kind: 'money', min: 10_000_00, max: 10_000_000_00 },
    municipio,
    uf,
  ],
  coverages: [
    {
      id: 'incendio',
      name: 'Incêndio, raio e explosão',
      rate: 1.2,
      deductible: 'R$ 1.000,00',
      description: 'Cobertura básica das benfeitorias da propriedade.',
    },
    {
      id: 'maquinas',
      name: 'Máquinas e implementos agrícolas',
      rate: 15,
      deductible: '10% dos prejuízos, mínimo de R$ 5.000,00',
      description: 'Danos materiais a máquinas e implementos: colisão, capotamento, incêndio e queda.',
    },
    {
      id: 'vendaval',
      name: 'Vendaval, granizo e impacto de veículos',
      rate: 1.8,
      deductible: '10% dos prejuízos, mínimo de R$ 2.000,00',
      description: 'Danos às benfeitorias por ventos fortes, granizo ou impacto de veículos.',
    },
    {
      id: 'roubo',
      name: 'Roubo e furto qualificado',
      rate: 6,
      deductible: 'R$ 2.000,00',
      description: 'Roubo ou furto com arrombamento de máquinas, ferramentas e insumos guardados.',
    },
    {
      id: 'rc',
      name: 'Responsabilidade civil do produtor rural',
      rate: 3,
      deductible: 'Não há',
      description: 'Danos a terceiros causados pela atividade rural, inclusive por animais.',
    },
  ],
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Benfeitorias e máquinas pelo valor declarado.',
      coverages: [
        { coverage: 'incendio', capital: { kind: 'share', of: 'valorBenfeitorias', percent: 100 } },
        { coverage: 'maquinas', capital: { kind: 'share', of: 'valorMaquinas', percent: 100 } },
      ],
    },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Com vendaval, roubo e responsabilidade civil.',
      coverages: [
        { coverage: 'incendio', capital: { kind: 'share', of: 'valorBenfeitorias', percent: 100 } },
        { coverage: 'maquinas', capital: { kind: 'share', of: 'valorMaquinas', percent: 100 } },
        { coverage: 'vendaval', capital: { kind: 'share', of: 'valorBenfeitorias', percent: 50 } },
        { coverage: 'roubo', capital: { kind: 'range', default: 50_000_00, min: 10_000_00, max: 500_000_00, step: 10_000_00 } },
        { coverage: 'rc', capital: { kind: 'range', default: 100_000_00, min: 50_000_00, max: 1_000_000_00, step: 50_000_00 } },
      ],
    },
  ],
  factors: (answers) => choiceFactor(atividade, { graos: 1.0, pecuaria: 0.9, hortifruti: 1.0, avicultura: 1.3 }, answers),
});

// ——— Floresta (FL): planted forests ———

const especie = select('especie', 'Espécie plantada', 'a', [
  ['eucalipto', 'Eucalipto'],
  ['pinus', 'Pinus'],
  ['teca', 'Teca'],
  ['nativa', 'Nativa (recomposição)'],
]);
const brigada: Question = { name: 'brigada', label: 'Possui brigada de incêndio e aceiros', kind: 'boolean' };
/** Young stands burn more easily; mature ones resist better. */
const IDADE_PLANTIO: Bands = [
  { upTo: 2, value: 1.3 },
  { upTo: 7, value: 1.0 },
  { upTo: 30, value: 0.9 },
];

export const FLORESTA = agricultureProduct({
  code: 'FL',
  name: 'Floresta',
  riskQuestions: [
    especie,
    { name: 'areaHectares', label: 'Área plantada em hectares', article: 'a', kind: 'integer', min: 1, max: 50_000 },
    { name: 'idadePlantio', label: 'Idade do plantio em anos', article: 'a', kind: 'integer', min: 0, max: 30 },
    {
      name: 'valorFloresta',
      label: 'Valor da floresta',
      article: 'o',
      kind: 'money',
      min: 50_000_00,
      max: 50_000_000_00,
      help: 'Custo de formação ou valor da madeira em pé.',
    },
    brigada,
    municipio,
    uf,
  ],
  coverages: [
    {
      id: 'incendio',
      name: 'Incêndio e raio',
      rate: 5,
      deductible: '10% dos prejuízos',
      description: 'Cobertura básica: perda das árvores por incêndio ou queda de raio.',
    },
    {
      id: 'vendaval',
      name: 'Vendaval, granizo e tornado',
      rate: 2,
      deductible: '10% dos prejuízos',
      description: 'Quebra e tombamento de árvores por ventos fortes e granizo.',
    },
    { id: 'geada', name: 'Geada', rate: 1.5, deductible: '20% dos prejuízos', description: 'Perda de árvores jovens por geada.' },
    {
      id: 'replantio',
      name: 'Replantio e remoção de entulho',
      rate: 4,
      deductible: 'Não há',
      description: 'Custos de limpeza da área e replantio após um evento coberto.',
    },
  ],
  plans: [
    {
      id: 'essencial',
      name: 'Essencial',
      description: 'Incêndio e raio pelo valor da floresta.',
      coverages: [{ coverage: 'incendio', capital: { kind: 'share', of: 'valorFloresta', percent: 100 } }],
    },
    {
      id: 'completo',
      name: 'Completo',
      description: 'Com vendaval, geada e replantio.',
      coverages: [
        { coverage: 'incendio', capital: { kind: 'share', of: 'valorFloresta', percent: 100 } },
        { coverage: 'vendaval', capital: { kind: 'share', of: 'valorFloresta', percent: 100 } },
        { coverage: 'geada', capital: { kind: 'share', of: 'valorFloresta', percent: 100 } },
        { coverage: 'replantio', capital: { kind: 'range', default: 50_000_00, min: 10_000_00, max: 500_000_00, step: 10_000_00 } },
      ],
    },
  ],
  factors: (answers) => [
    ...choiceFactor(especie, { eucalipto: 1.0, pinus: 1.1, teca: 0.9, nativa: 1.2 }, answers),
    ...bandFactor('Idade do plantio (anos)', integerAnswer(answers, 'idadePlantio'), IDADE_PLANTIO),
    ...booleanFactor(brigada, { sim: 0.85, nao: 1.0 }, answers),
  ],
});

// ——— Penhor Rural (PRS): goods pledged as collateral of rural credit ———

const tipoBem = select('tipoBem', 'Bem dado em garantia', 'o', [
  ['maquinas', 'Máquinas e implementos agrícolas'],
  ['benfeitorias', 'Benfeitorias (armazéns, silos, galpões)'],
  ['produtos', 'Produtos agrícolas armazenados'],
]);

export const PENHOR_RURAL = agricultureProduct({
  code: 'PRS',
  name: 'Penhor Rural',
  riskQuestions: [
    tipoBem,
    { name: 'valorBem', label: 'Valor do bem', article: 'o', kind: 'money', min: 10_000_00, max: 20_000_000_00 },
    { name: 'instituicaoFinanceira', label: 'Instituição financeira credora', article: 'a', kind: 'text' },
    municipio,
    uf,
  ],
  coverages: [
    {
      id: 'basica',
      name: 'Básica: incêndio, raio, explosão, ventos fortes, granizo e desmoronamento',
      rate: 2.5,
      deductible: 'R$ 1.500,00',
      description: 'Danos ao bem empenhado pelos eventos da cobertura básica do penhor rural.',
    },
    {
      id: 'roubo',
      name: 'Roubo e furto qualificado',
      rate: 5,
      deductible: 'R$ 2.000,00',
      description: 'Roubo ou furto com arrombamento do bem empenhado.',
    },
    {
      id: 'danosEletricos',
      name: 'Danos elétricos',
      rate: 3,
      deductible: '10% dos prejuízos, mínimo de R$ 1.000,00',
      description: 'Danos a motores e instalações elétricas por descarga ou oscilação de energia.',
    },
  ],
  plans: [
    {
      id: 'basico',
      name: 'Básico',
      description: 'A cobertura exigida pelo crédito rural.',
      coverages: [{ coverage: 'basica', capital: { kind: 'share', of: 'valorBem', percent: 100 } }],
    },
    {
      id: 'ampliado',
      name: 'Ampliado',
      description: 'Com roubo e danos elétricos.',
      coverages: [
        { coverage: 'basica', capital: { kind: 'share', of: 'valorBem', percent: 100 } },
        { coverage: 'roubo', capital: { kind: 'share', of: 'valorBem', percent: 100 } },
        { coverage: 'danosEletricos', capital: { kind: 'range', default: 20_000_00, min: 5_000_00, max: 200_000_00, step: 5_000_00 } },
      ],
    },
  ],
  factors: (answers) => choiceFactor(tipoBem, { maquinas: 1.2, benfeitorias: 1.0, produtos: 1.3 }, answers),
});
