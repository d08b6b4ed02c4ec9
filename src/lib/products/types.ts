import type { ProductLine } from '../simulators';

/**
 * The product catalog's shapes (DESIGN §7). Pure data plus pure functions: the browser re-prices
 * with them as the partner types and the server recomputes the authoritative premium on every save.
 *
 * Money is always an integer number of centavos (`Cents`): no float ever holds R$, so every figure
 * is exact to the cent and installments sum to their total.
 */
export type Cents = number;

/** IOF class of a line: 7.38 % property, 0.38 % life, exempt for rural lines. */
export type IofClass = 'patrimonial' | 'vida' | 'rural';

/** Who may be insured: a person (CPF), a company (CNPJ) or either. */
export type InsuredKind = 'PF' | 'PJ' | 'PF_PJ';

export type QuestionKind = 'text' | 'integer' | 'money' | 'area' | 'select' | 'radio' | 'date' | 'boolean';

export interface Option {
  value: string;
  label: string;
}

/**
 * One question of the cadastro or risco step. Answers are kept by `name`:
 * text/select/radio → string, integer/area → integer, money → Cents, date → 'YYYY-MM-DD', boolean → boolean.
 * `min`/`max` bound integer, area and money (in centavos) answers; for dates they bound the age in
 * whole years on the day of the quote (e.g. life: 18 to 70).
 */
export interface Question {
  name: string;
  label: string;
  kind: QuestionKind;
  /** Defaults to true; a boolean question is never "missing". */
  required?: boolean;
  options?: readonly Option[];
  min?: number;
  max?: number;
  help?: string;
  /** The label's definite article ('o', 'a', …), so a message can say 'Informe o valor do imóvel.'. */
  article?: 'o' | 'a' | 'os' | 'as';
}

export type AnswerValue = string | number | boolean;
export type Answers = Record<string, AnswerValue>;

/**
 * Answers that are not questions of the product: the caller merges them into `Answers` before
 * pricing, and `factors` may read them. `tipoPessoa` ('PF' | 'PJ') and `dataNascimento`
 * ('YYYY-MM-DD') come from the insured of the cadastro step; `dataCotacao` ('YYYY-MM-DD') is the day
 * the quote is priced, so an age factor gives the same premium on every later recomputation
 * (today when absent).
 */
export type ContextAnswerName = 'tipoPessoa' | 'dataNascimento' | 'dataCotacao';

/** How a plan sets a coverage's sum insured (capital segurado). */
export type CapitalRule =
  | { kind: 'fixed'; value: Cents }
  | { kind: 'range'; default: Cents; min: Cents; max: Cents; step: Cents }
  /** A share of a money answer (e.g. 100 % of the property value), clamped to [min, max] when given. */
  | { kind: 'share'; of: string; percent: number; min?: Cents; max?: Cents; adjustable?: boolean };

export interface CoverageDef {
  id: string;
  name: string;
  description: string;
  /** Annual rate in per mille (‰) of the sum insured; or a fixed premium (assistances). */
  rate?: number;
  fixedPremium?: Cents;
  /** The deductible (franquia / participação obrigatória) as a partner reads it, e.g. 'R$ 500,00'. */
  deductible: string;
}

export interface PlanCoverage {
  coverage: string;
  capital: CapitalRule;
}

export interface PlanDef {
  id: string;
  name: string;
  description: string;
  coverages: readonly PlanCoverage[];
}

export interface Factor {
  label: string;
  value: number;
}

export interface InstallmentRules {
  maxInstallments: number;
  /** Up to this many installments there is no interest. */
  interestFreeUpTo: number;
  /** Monthly interest (0.0199 = 1.99 % a.m.) above `interestFreeUpTo`. */
  monthlyInterest: number;
  minimumInstallment: Cents;
}

export interface ProductDef {
  /** Simulator code (SPEC §1) this product prices: 'RES', 'AFU', 'PR', … */
  code: string;
  line: ProductLine;
  name: string;
  iof: IofClass;
  insured: InsuredKind;
  /** Line-specific questions asked in the cadastro step, with the insured's data. */
  cadastroQuestions: readonly Question[];
  /** Questions of the risco step; empty for lines without that step (SPEC §4). */
  riskQuestions: readonly Question[];
  coverages: readonly CoverageDef[];
  plans: readonly PlanDef[];
  /**
   * Rating factors from the answers of cadastro and risco (and the `ContextAnswerName`s); they
   * multiply the net premium. Never throws: a missing or unknown answer contributes no factor.
   */
  factors: (answers: Answers) => Factor[];
  policyCost: Cents;
  minimumPremium: Cents;
  installments: InstallmentRules;
  /** Days a priced quote stays valid for contracting. */
  validityDays: number;
  /** Life lines ask for beneficiaries at contracting. */
  beneficiaries: boolean;
  /** Where the flow ends after resumo (SPEC §4): residential ends in 'finalizacao'. */
  finalStep: 'proposta' | 'finalizacao';
  /** Ages (whole years on the quote day) the insured person may have; life: 18 to 70. */
  insuredAge?: { min: number; max: number };
}

/** What the partner chose on the planos step: a plan and the sums of its adjustable coverages. */
export interface Selection {
  plan: string;
  capitals: Record<string, Cents>;
}

export interface CoveragePrice {
  id: string;
  name: string;
  capital: Cents;
  /** The coverage's share of the net premium: the coverages' premiums sum exactly to `netPremium`. */
  premium: Cents;
  /** Capital × rate (or the fixed premium), before the rating factors and the minimum premium. */
  tariffPremium: Cents;
  deductible: string;
}

export interface Pricing {
  plan: string;
  coverages: CoveragePrice[];
  factors: Factor[];
  netPremium: Cents;
  policyCost: Cents;
  /** 0.0738, 0.0038 or 0. */
  iofRate: number;
  iof: Cents;
  total: Cents;
}

export type PaymentMethod = 'boleto' | 'cartao' | 'debito' | 'pix';

export interface InstallmentOption {
  count: number;
  /** First installment (carries the rounding remainder) and each of the others. */
  first: Cents;
  other: Cents;
  /** Sum of all installments: the premium total, plus interest when not interest-free. */
  total: Cents;
  interestFree: boolean;
  monthlyInterest: number;
}
