import { formatBRL, roundHalfUp } from './money';
import type {
  Answers,
  CapitalRule,
  Cents,
  CoveragePrice,
  Factor,
  InstallmentOption,
  IofClass,
  PaymentMethod,
  PlanDef,
  Pricing,
  ProductDef,
  Selection,
} from './types';

/**
 * The one rating engine of every line (DESIGN §7, docs/decisions/014-illustrative-tariff.md). A line
 * is data (a `ProductDef`); nothing here knows about a particular product.
 *
 *   tariff premium   = round(capital × rate ‰)  or its fixed premium
 *   net premium      = max(round(Σ tariff premiums × Π factors), minimum premium)
 *   coverage premium = the net premium split in proportion to the tariff premiums (largest
 *                      remainder), so the coverages sum exactly to it (decision 023)
 *   IOF              = round((net premium + policy cost) × IOF rate)
 *   total            = net premium + policy cost + IOF
 */

export const IOF_RATES: Record<IofClass, number> = { patrimonial: 0.0738, vida: 0.0038, rural: 0 };

export interface ResolvedCapital {
  id: string;
  name: string;
  /** What the plan proposes; the capital priced when the partner does not change it. */
  default: Cents;
  min: Cents;
  max: Cents;
  /** Granularity of an adjustable sum; 1 centavo where the plan fixes the sum. */
  step: Cents;
  adjustable: boolean;
}

export const findPlan = (product: ProductDef, planId: string): PlanDef | undefined => product.plans.find((plan) => plan.id === planId);

const numericAnswer = (answers: Answers, name: string): number => {
  const value = answers[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
};

const clamp = (value: number, min = -Infinity, max = Infinity) => Math.min(Math.max(value, min), max);

type CapitalBounds = Omit<ResolvedCapital, 'id' | 'name'>;

const CAPITAL_RULES: { [K in CapitalRule['kind']]: (rule: Extract<CapitalRule, { kind: K }>, answers: Answers) => CapitalBounds } = {
  fixed: (rule) => ({ default: rule.value, min: rule.value, max: rule.value, step: 1, adjustable: false }),
  range: (rule) => ({ default: rule.default, min: rule.min, max: rule.max, step: rule.step, adjustable: true }),
  // An adjustable share may move within the rule's [min, max]; a missing bound is the share itself.
  share: (rule, answers) => {
    const value = clamp(roundHalfUp((numericAnswer(answers, rule.of) * rule.percent) / 100), rule.min, rule.max);
    const adjustable = rule.adjustable === true;
    return {
      default: value,
      min: adjustable ? (rule.min ?? value) : value,
      max: adjustable ? (rule.max ?? value) : value,
      step: 1,
      adjustable,
    };
  },
};

const boundsOf = (rule: CapitalRule, answers: Answers): CapitalBounds =>
  (CAPITAL_RULES[rule.kind] as (r: CapitalRule, a: Answers) => CapitalBounds)(rule, answers);

/** The sums insured a plan offers for these answers, in the plan's order; [] for an unknown plan. */
export function resolveCapitals(product: ProductDef, answers: Answers, planId: string): ResolvedCapital[] {
  const plan = findPlan(product, planId);
  if (!plan) return [];
  return plan.coverages.map(({ coverage, capital }) => ({
    id: coverage,
    name: product.coverages.find((c) => c.id === coverage)?.name ?? coverage,
    ...boundsOf(capital, answers),
  }));
}

/** Field errors of a selection, keyed by coverage id (or 'plan'); {} when it can be priced. */
export function validateSelection(product: ProductDef, answers: Answers, selection: Selection): Record<string, string> {
  if (!findPlan(product, selection.plan)) return { plan: 'Escolha um dos planos oferecidos.' };
  const capitals = resolveCapitals(product, answers, selection.plan);
  const errors: Record<string, string> = {};
  for (const id of Object.keys(selection.capitals)) {
    if (!capitals.some((c) => c.id === id)) errors[id] = 'Esta cobertura não faz parte do plano escolhido.';
  }
  for (const capital of capitals) {
    const chosen = selection.capitals[capital.id];
    if (chosen === undefined) continue;
    const problem = capitalProblem(capital, chosen);
    if (problem) errors[capital.id] = problem;
  }
  return errors;
}

function capitalProblem(capital: ResolvedCapital, chosen: Cents): string | undefined {
  const { name, min, max, step } = capital;
  if (!Number.isSafeInteger(chosen)) return `Informe o capital de ${name} em reais e centavos.`;
  if (!capital.adjustable) {
    return chosen === capital.default ? undefined : `O capital de ${name} é fixo em ${formatBRL(capital.default)} neste plano.`;
  }
  if (chosen < min || chosen > max) return `O capital de ${name} deve estar entre ${formatBRL(min)} e ${formatBRL(max)}.`;
  if (chosen % step !== 0) return `O capital de ${name} deve ser múltiplo de ${formatBRL(step)}.`;
  return undefined;
}

/**
 * Splits `total` centavos in proportion to `weights` by the largest-remainder method: each part is
 * floor(total × weight / Σ weights), and the centavos left go one each to the largest remainders
 * (the earlier part first on a tie). The parts always sum exactly to `total`. Exact integer
 * arithmetic (BigInt): total × weight may pass 2^53. All-zero weights split evenly.
 */
export function allocate(total: Cents, weights: readonly number[]): Cents[] {
  if (weights.length === 0) return [];
  const even = weights.every((w) => w === 0);
  const ws = weights.map((w) => BigInt(even ? 1 : Math.max(0, Math.round(w))));
  const sum = ws.reduce((a, b) => a + b, 0n);
  const whole = BigInt(total);
  const parts = ws.map((w) => (whole * w) / sum);
  const remainders = ws.map((w, index) => ({ index, rest: (whole * w) % sum }));
  let left = Number(whole - parts.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.rest === b.rest ? a.index - b.index : a.rest > b.rest ? -1 : 1));
  for (const { index } of remainders) {
    if (left <= 0) break;
    parts[index]! += 1n;
    left -= 1;
  }
  return parts.map(Number);
}

/** A pricing as a quote's `precificacao` column may hold it: before decision 023 without `tariffPremium`. */
export type StoredPricing = Omit<Pricing, 'coverages'> & {
  coverages: (Omit<CoveragePrice, 'tariffPremium'> & { tariffPremium?: Cents })[];
};

/**
 * A pricing whose coverages' premiums sum to its net premium. Quotes priced before decision 023
 * stored each coverage's tariff premium as `premium` (and no `tariffPremium`): the stored net
 * premium is kept as it was and split again, so such a quote shows the same totals, now adding up.
 */
export function withCoverageShares(pricing: StoredPricing): Pricing {
  const tariffs = pricing.coverages.map((c) => c.tariffPremium ?? c.premium);
  const shares = allocate(pricing.netPremium, tariffs);
  if (pricing.coverages.every((c, i) => c.tariffPremium !== undefined && c.premium === shares[i])) return pricing as Pricing;
  return { ...pricing, coverages: pricing.coverages.map((c, i) => ({ ...c, tariffPremium: tariffs[i]!, premium: shares[i]! })) };
}

/** The product of the factors, kept as a float until the one rounding of the net premium. */
const combined = (factors: readonly Factor[]): number => factors.reduce((acc, f) => acc * f.value, 1);

/**
 * Prices a selection that `validateSelection` accepted (callers validate first). Capitals missing
 * from `selection.capitals` take the plan's default. Throws only for an unknown plan.
 */
export function price(product: ProductDef, answers: Answers, selection: Selection): Pricing {
  const plan = findPlan(product, selection.plan);
  if (!plan) throw new Error(`Plano desconhecido: ${selection.plan}`);
  const tariff = resolveCapitals(product, answers, plan.id).map((resolved) => {
    const def = product.coverages.find((c) => c.id === resolved.id);
    const capital = selection.capitals[resolved.id] ?? resolved.default;
    const tariffPremium = def?.fixedPremium ?? roundHalfUp((capital * (def?.rate ?? 0)) / 1000);
    return { id: resolved.id, name: resolved.name, capital, tariffPremium, deductible: def?.deductible ?? '' };
  });
  const factors = product.factors(answers);
  const gross = tariff.reduce((sum, c) => sum + c.tariffPremium, 0);
  const netPremium = Math.max(roundHalfUp(gross * combined(factors)), product.minimumPremium);
  const shares = allocate(
    netPremium,
    tariff.map((c) => c.tariffPremium),
  );
  const coverages: CoveragePrice[] = tariff.map(({ id, name, capital, tariffPremium, deductible }, i) => ({
    id,
    name,
    capital,
    premium: shares[i]!,
    tariffPremium,
    deductible,
  }));
  const iofRate = IOF_RATES[product.iof];
  const iof = roundHalfUp((netPremium + product.policyCost) * iofRate);
  return {
    plan: plan.id,
    coverages,
    factors,
    netPremium,
    policyCost: product.policyCost,
    iofRate,
    iof,
    total: netPremium + product.policyCost + iof,
  };
}

// ——— Installments ———

export interface PaymentMethodDef {
  value: PaymentMethod;
  label: string;
  /** 'no boleto': how an offer names the method ('10x sem juros no boleto'). */
  phrase: string;
  maxInstallments: number;
}

export const PAYMENT_METHODS: readonly PaymentMethodDef[] = [
  { value: 'pix', label: 'Pix (à vista)', phrase: 'no Pix', maxInstallments: 1 },
  { value: 'boleto', label: 'Boleto bancário', phrase: 'no boleto', maxInstallments: 10 },
  { value: 'cartao', label: 'Cartão de crédito', phrase: 'no cartão', maxInstallments: 12 },
  { value: 'debito', label: 'Débito em conta', phrase: 'no débito em conta', maxInstallments: 12 },
];

/** The method the contratação step starts on; a plan card promises only what this method offers. */
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'boleto';

/** Even split; the first installment carries the centavos the division leaves over. */
function interestFree(total: Cents, count: number): InstallmentOption {
  const other = Math.floor(total / count);
  return { count, first: total - other * (count - 1), other, total, interestFree: true, monthlyInterest: 0 };
}

/** Price table: equal installments PMT = PV × i / (1 − (1 + i)^−n), rounded to the centavo. */
function withInterest(total: Cents, count: number, monthlyInterest: number): InstallmentOption {
  // 1 − (1 + i)^−n through log1p/expm1: exact enough even for rates near zero, where the plain form
  // loses every digit and would price installments below the premium.
  const discount = -Math.expm1(-count * Math.log1p(monthlyInterest));
  if (!(monthlyInterest > 0 && discount > 0)) return interestFree(total, count);
  // Never below an even split: rounding a near-zero-interest PMT down must not undercharge the premium.
  const installment = Math.max(roundHalfUp((total * monthlyInterest) / discount), Math.ceil(total / count));
  return { count, first: installment, other: installment, total: installment * count, interestFree: false, monthlyInterest };
}

/**
 * The installment counts a product offers for a total and a payment method: 1 up to the lower of
 * the method's and the product's maximum, while the smallest installment reaches the product's
 * minimum (paying at once is always offered).
 */
export function installmentOptions(product: ProductDef, total: Cents, method: PaymentMethod): InstallmentOption[] {
  const rules = product.installments;
  const methodMax = PAYMENT_METHODS.find((m) => m.value === method)?.maxInstallments ?? 1;
  const options: InstallmentOption[] = [];
  for (let count = 1; count <= Math.min(methodMax, rules.maxInstallments); count++) {
    // Paying at once never carries interest, whatever the product's interest-free limit.
    const option =
      count === 1 || count <= rules.interestFreeUpTo ? interestFree(total, count) : withInterest(total, count, rules.monthlyInterest);
    if (count === 1 || Math.min(option.first, option.other) >= rules.minimumInstallment) options.push(option);
  }
  return options;
}

/** Every installment of an option, first to last; they sum exactly to `option.total`. */
export const installmentSchedule = (option: InstallmentOption): Cents[] =>
  Array.from({ length: option.count }, (_, i) => (i === 0 ? option.first : option.other));

/**
 * The most interest-free installments a method offers for a total — what a plan card may promise
 * ('ou 10x de R$ 119,24 sem juros no boleto'); undefined when only paying at once is offered.
 */
export function interestFreeOffer(product: ProductDef, total: Cents, method: PaymentMethod = DEFAULT_PAYMENT_METHOD) {
  const option = installmentOptions(product, total, method)
    .filter((o) => o.interestFree && o.count > 1)
    .at(-1);
  return option && { option, phrase: PAYMENT_METHODS.find((m) => m.value === method)!.phrase };
}

export const isAllowedInstallment = (product: ProductDef, total: Cents, method: PaymentMethod, count: number): boolean =>
  installmentOptions(product, total, method).some((option) => option.count === count);
