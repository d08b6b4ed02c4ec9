import { roundHalfUp } from './products/money';
import type { Cents } from './products/types';
import type { BeneficiaryKind } from './commissions';

/*
 * Income tax withheld at source (IRRF) on commissions, for the income statement (informe de
 * rendimentos, issue 15). ILLUSTRATIVE (decision 041): the rates, codes and thresholds below follow
 * the shape of the Receita Federal's rules as they stood when this was written, as sample data for
 * the portal — not the insurer's tax advice, and not kept up to date by anyone. The table is data: a
 * change is a row, and the tests read it as a table.
 *
 * - A company (PJ) that brokers insurance has 1,5 % withheld on commissions (RIR/2018 art. 718;
 *   DARF code 8045); a withholding of R$ 10,00 or less is not collected (Lei 9.430/1996 art. 67).
 * - A person (PF) paid without employment is withheld by the monthly progressive table (code 0588).
 */

export interface ProgressiveBracket {
  /** The bracket applies to monthly income up to this amount (inclusive); null: no upper limit. */
  upTo: Cents | null;
  /** In hundredths of a percent: 750 = 7,5 %. */
  rate: number;
  /** The amount to deduct from income × rate. */
  deduction: Cents;
}

export const IRRF_RULES = {
  PJ: {
    code: '8045',
    description: 'Comissões e corretagens pagas a pessoa jurídica',
    rate: 150,
    /** Withholdings at or below this are not collected. */
    minimumWithheld: 10_00,
  },
  PF: {
    code: '0588',
    description: 'Rendimentos do trabalho sem vínculo empregatício',
    brackets: [
      { upTo: 2_428_80, rate: 0, deduction: 0 },
      { upTo: 2_826_65, rate: 750, deduction: 182_16 },
      { upTo: 3_751_05, rate: 1500, deduction: 394_16 },
      { upTo: 4_664_68, rate: 2250, deduction: 675_49 },
      { upTo: null, rate: 2750, deduction: 908_73 },
    ] satisfies ProgressiveBracket[],
  },
} as const;

/** The IRRF withheld on one month's income of a beneficiary. */
export function irrfOf(kind: BeneficiaryKind, income: Cents): Cents {
  if (income <= 0) return 0;
  if (kind === 'PJ') {
    const tax = roundHalfUp((income * IRRF_RULES.PJ.rate) / 10_000);
    return tax <= IRRF_RULES.PJ.minimumWithheld ? 0 : tax;
  }
  const bracket = IRRF_RULES.PF.brackets.find((b) => b.upTo === null || income <= b.upTo)!;
  return Math.max(0, roundHalfUp((income * bracket.rate) / 10_000) - bracket.deduction);
}

export interface IncomeMonth {
  month: string;
  /** The month's commissions less clawbacks (lib/commissions.ts monthBalances `payable`). */
  gross: Cents;
  withheld: Cents;
}

export interface IncomeYear {
  year: number;
  months: IncomeMonth[];
  totals: { gross: Cents; withheld: Cents; net: Cents };
}

/** A year's income statement: each month with income, its withholding, and the totals. */
export function incomeYear(kind: BeneficiaryKind, year: number, months: readonly { month: string; payable: Cents }[]): IncomeYear {
  const rows = months
    .filter((m) => m.month.startsWith(`${year}-`) && m.payable > 0)
    .sort((a, b) => a.month.localeCompare(b.month))
    .map((m) => ({ month: m.month, gross: m.payable, withheld: irrfOf(kind, m.payable) }));
  const gross = rows.reduce((sum, m) => sum + m.gross, 0);
  const withheld = rows.reduce((sum, m) => sum + m.withheld, 0);
  return { year, months: rows, totals: { gross, withheld, net: gross - withheld } };
}
