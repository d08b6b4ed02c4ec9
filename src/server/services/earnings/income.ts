import type { DB } from '../../db';
import { isClosedMonth } from '../../../lib/commissions';
import { incomeYear, type IncomeYear } from '../../../lib/income-tax';
import type { BeneficiaryScope } from '../../../lib/scope';
import { sql } from 'kysely';
import { beneficiaryMonths, scopeMonths, type Beneficiary } from './commissions';
import { beneficiaryWithin } from '../identity/scope';

/*
 * The income statement (informe de rendimentos, issue 15; decision 041): what the insurer paid or
 * credited each beneficiary in a calendar year — each closed month's commissions less clawbacks
 * (lib/commissions.ts monthBalances `payable`, the same figure the statement and the nota fiscal
 * show) — and the income tax withheld on it (lib/income-tax.ts, illustrative). A month is income once
 * it has closed: the month in progress is not credited yet.
 */

export interface IncomeYears {
  beneficiary: Beneficiary;
  /** Calendar years with income, newest first. */
  years: number[];
}

const yearsWithIncome = (months: { month: string; payable: number }[], today: string) =>
  [...new Set(months.filter((m) => m.payable > 0 && isClosedMonth(m.month, today)).map((m) => Number(m.month.slice(0, 4))))].sort(
    (a, b) => b - a,
  );

/** Every beneficiary of the scope that received commissions, with the years it did. */
export async function incomeYearsOf(db: DB, scope: BeneficiaryScope, today: string): Promise<IncomeYears[]> {
  const all = await scopeMonths(db, scope);
  return all.map(({ beneficiary, months }) => ({ beneficiary, years: yearsWithIncome(months, today) })).filter((b) => b.years.length > 0);
}

/**
 * The beneficiary a CPF/CNPJ names within the scope: a company by its CNPJ (14 characters), a person
 * by their CPF (11 digits); undefined — a 404 — for anyone the viewer does not act for.
 */
export async function beneficiaryInScope(db: DB, scope: BeneficiaryScope, taxId: string): Promise<Beneficiary | undefined> {
  if (/^[0-9A-Z]{12}\d{2}$/.test(taxId)) {
    const row = await db
      .selectFrom('companies as c')
      .select(['c.id', 'c.cnpj', 'c.razao_social'])
      .where('c.cnpj', '=', taxId)
      .where((eb) => beneficiaryWithin(scope, eb.ref('c.id'), sql<number>`-1`))
      .executeTakeFirst();
    return row ? { kind: 'PJ', id: row.id, taxId: row.cnpj, name: row.razao_social } : undefined;
  }
  if (!/^\d{11}$/.test(taxId)) return undefined;
  const row = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.cpf', 'u.nome'])
    .where('u.cpf', '=', taxId)
    .where((eb) => beneficiaryWithin(scope, sql<number | null>`null::int`, eb.ref('u.id')))
    .orderBy('u.id')
    .executeTakeFirst();
  return row ? { kind: 'PF', id: row.id, taxId: row.cpf!, name: row.nome } : undefined;
}

/** A beneficiary's income of a year: its months with income, the tax withheld and the totals. */
export async function incomeStatementOf(db: DB, beneficiary: Beneficiary, year: number, today: string): Promise<IncomeYear> {
  const months = (await beneficiaryMonths(db, beneficiary)).filter((m) => isClosedMonth(m.month, today));
  return incomeYear(beneficiary.kind, year, months);
}
