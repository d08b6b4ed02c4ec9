import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import {
  COMMISSION_LINES_PAGE_SIZE,
  isClosedMonth,
  monthBalances,
  monthBounds,
  STATEMENT_CSV_OPTIONS,
  statementCsvRecord,
  type BeneficiaryKind,
  type MonthBalance,
  type MonthFigures,
  type StatementCsvLine,
} from '../../../lib/commissions';
import { formatDate } from '../../../lib/format';
import { maskDocument } from '../../../lib/history';
import { pagedOf, type Paged } from '../../../lib/list-query';
import type { BeneficiaryScope } from '../../../lib/scope';
import { beneficiaryWithin } from '../identity/scope';

/*
 * Commission statements (issue 15; decision 041), derived on read — nothing here writes. A
 * commission is owed on each paid installment (a payments row): the installment's share of the
 * sale's net premium × the rate fixed at the sale (quotes.comissao_centesimos), in the month the
 * installment was paid (Brasília). A cancellation claws back refunds.estorno_comissao in the month it
 * was confirmed (the endorsement's date), so a closed month never changes by a later cancellation.
 * The arithmetic is lib/commissions.ts's (installmentNetPremium, commissionOf), done here in SQL so a
 * month's totals are one GROUP BY however many installments it holds; a test holds the two equal.
 */

/** Who receives commissions: a company, or a person who sold without one. */
export interface Beneficiary {
  kind: BeneficiaryKind;
  /** The company's id, or the seller's user id. */
  id: number;
  /** CNPJ or CPF, unmasked. */
  taxId: string;
  name: string;
}

/** Which sales are a beneficiary's: a company's, or a person's own without a company. */
const ofBeneficiary =
  (beneficiary: Pick<Beneficiary, 'kind' | 'id'>) =>
  (company: Expression<number | null>, seller: Expression<number>): Expression<SqlBool> =>
    beneficiary.kind === 'PJ'
      ? sql<SqlBool>`${company} = ${beneficiary.id}`
      : sql<SqlBool>`(${company} is null and ${seller} = ${beneficiary.id})`;

/*
 * The sale's net premium and total at the sale: the quote's priced net premium, and the policy's total
 * before its first endorsement (a partial cancellation lowers the policy's figures; the installments
 * already paid were paid on the old ones). Rows inserted without them fall back to the policy's.
 */
const NET_AT_SALE = sql<number>`coalesce((q.precificacao->>'netPremium')::numeric, a.premio_liquido)`;
const TOTAL_AT_SALE = sql<number>`coalesce((select e0.premio_anterior from endorsements e0 where e0.policy_id = a.id order by e0.id limit 1), a.premio_total)`;
/** lib/commissions.ts installmentNetPremium and commissionOf, in SQL (round() on numeric is half away from zero). */
const NET_PREMIUM = sql<number>`coalesce(round(i.valor::numeric * ${NET_AT_SALE} / nullif(${TOTAL_AT_SALE}, 0)), 0)`;
const COMMISSION = sql<number>`round(${NET_PREMIUM} * q.comissao_centesimos / 10000.0)`;
const BRASILIA_MONTH = (column: Expression<Date>) => sql<string>`to_char(${column} at time zone 'America/Sao_Paulo', 'YYYY-MM')`;

/**
 * Paid installments with their policy and quote. A beneficiary's are found by the payment's own
 * company and seller (migration 033, kept by the database from the policy): its index reads a month of
 * one company's payments, where going through the company's policies read every installment.
 */
const paidInstallments = (db: DB) =>
  db
    .selectFrom('payments as pg')
    .innerJoin('installments as i', 'i.id', 'pg.installment_id')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id');

/** Clawbacks with their cancellation and policy. */
const clawbacks = (db: DB) =>
  db
    .selectFrom('refunds as r')
    .innerJoin('endorsements as e', 'e.id', 'r.endorsement_id')
    .innerJoin('policies as a', 'a.id', 'r.policy_id')
    .where('r.estorno_comissao', '>', 0);

/** Every month with commissions or clawbacks of a beneficiary, each with its balance and what it carries. */
export async function beneficiaryMonths(db: DB, beneficiary: Pick<Beneficiary, 'kind' | 'id'>): Promise<MonthBalance[]> {
  const mine = ofBeneficiary(beneficiary);
  const [earned, clawed] = await Promise.all([
    paidInstallments(db)
      .select([BRASILIA_MONTH(sql.ref('pg.pago_em')).as('month'), sql<string>`sum(${COMMISSION})`.as('amount')])
      .where((eb) => mine(eb.ref('pg.company_id'), eb.ref('pg.user_id')))
      .groupBy(sql`1`)
      .execute(),
    clawbacks(db)
      .select([BRASILIA_MONTH(sql.ref('e.created_at')).as('month'), sql<string>`sum(r.estorno_comissao)`.as('amount')])
      .where((eb) => mine(eb.ref('a.company_id'), eb.ref('a.user_id')))
      .groupBy(sql`1`)
      .execute(),
  ]);
  return monthBalances(mergeMonths(earned, clawed));
}

function mergeMonths(earned: { month: string; amount: string }[], clawed: { month: string; amount: string }[]): MonthFigures[] {
  const months = new Map<string, MonthFigures>();
  const at = (month: string) => months.get(month) ?? months.set(month, { month, commissions: 0, clawbacks: 0 }).get(month)!;
  for (const row of earned) at(row.month).commissions += Number(row.amount);
  for (const row of clawed) at(row.month).clawbacks += Number(row.amount);
  return [...months.values()];
}

/**
 * Every beneficiary of a scope with commissions, and each one's months — one query per kind of figure,
 * grouped by beneficiary and month (the informe's list, which may cover every partner for an ADMIN).
 */
export async function scopeMonths(db: DB, scope: BeneficiaryScope): Promise<{ beneficiary: Beneficiary; months: MonthBalance[] }[]> {
  const within = (eb: { ref: (c: 'a.company_id' | 'a.user_id') => Expression<never> }) =>
    beneficiaryWithin(scope, eb.ref('a.company_id'), eb.ref('a.user_id'));
  const key = sql<string>`coalesce('PJ' || a.company_id, 'PF' || a.user_id)`;
  const [earned, clawed] = await Promise.all([
    paidInstallments(db)
      .select([key.as('key'), BRASILIA_MONTH(sql.ref('pg.pago_em')).as('month'), sql<string>`sum(${COMMISSION})`.as('amount')])
      .where(within)
      .groupBy([sql`1`, sql`2`])
      .execute(),
    clawbacks(db)
      .select([key.as('key'), BRASILIA_MONTH(sql.ref('e.created_at')).as('month'), sql<string>`sum(r.estorno_comissao)`.as('amount')])
      .where(within)
      .groupBy([sql`1`, sql`2`])
      .execute(),
  ]);
  const keys = [...new Set([...earned, ...clawed].map((r) => r.key))];
  const beneficiaries = await beneficiariesByKey(db, keys);
  return beneficiaries.map((beneficiary) => {
    const key = `${beneficiary.kind}${beneficiary.id}`;
    const months = monthBalances(
      mergeMonths(
        earned.filter((r) => r.key === key),
        clawed.filter((r) => r.key === key),
      ),
    );
    return { beneficiary, months };
  });
}

async function beneficiariesByKey(db: DB, keys: string[]): Promise<Beneficiary[]> {
  const companyIds = keys.filter((k) => k.startsWith('PJ')).map((k) => Number(k.slice(2)));
  const userIds = keys.filter((k) => k.startsWith('PF')).map((k) => Number(k.slice(2)));
  const [companies, people] = await Promise.all([
    companyIds.length === 0
      ? []
      : db.selectFrom('companies').select(['id', 'cnpj', 'razao_social']).where('id', 'in', companyIds).orderBy('razao_social').execute(),
    userIds.length === 0
      ? []
      : db
          .selectFrom('users')
          .select(['id', 'cpf', 'nome'])
          .where('id', 'in', userIds)
          .where('cpf', 'is not', null)
          .orderBy('nome')
          .execute(),
  ]);
  return [
    ...companies.map((c) => ({ kind: 'PJ' as const, id: c.id, taxId: c.cnpj, name: c.razao_social })),
    ...people.map((p) => ({ kind: 'PF' as const, id: p.id, taxId: p.cpf!, name: p.nome })),
  ];
}

/** The companies a commission scope sees, by name: the statement's and the nota's choice of company. */
export async function companiesInScope(db: DB, scope: BeneficiaryScope): Promise<Beneficiary[]> {
  if (scope.kind === 'some' && scope.companyIds.length === 0) return [];
  const rows = await db
    .selectFrom('companies')
    .select(['id', 'cnpj', 'razao_social'])
    .$if(scope.kind === 'some', (qb) => qb.where('id', 'in', (scope as { companyIds: number[] }).companyIds))
    .orderBy('razao_social')
    .execute();
  return rows.map((c) => ({ kind: 'PJ', id: c.id, taxId: c.cnpj, name: c.razao_social }));
}

/** A company of the scope by its CNPJ; undefined — a 404 — for any other. */
export async function companyInScope(db: DB, scope: BeneficiaryScope, cnpj: string): Promise<Beneficiary | undefined> {
  if (scope.kind === 'some' && scope.companyIds.length === 0) return undefined;
  const row = await db
    .selectFrom('companies')
    .select(['id', 'cnpj', 'razao_social'])
    .where('cnpj', '=', cnpj)
    .$if(scope.kind === 'some', (qb) => qb.where('id', 'in', (scope as { companyIds: number[] }).companyIds))
    .executeTakeFirst();
  return row ? { kind: 'PJ', id: row.id, taxId: row.cnpj, name: row.razao_social } : undefined;
}

export interface CommissionLine {
  paymentId: number;
  pagoEm: string;
  nrApolice: string;
  productName: string;
  nomeSegurado: string;
  /** Masked: a statement never shows a whole CPF. */
  documentoSegurado: string;
  numero: number;
  parcelas: number;
  valorParcela: number;
  premioLiquido: number;
  /** Hundredths of a percent, fixed at the sale. */
  taxa: number;
  comissao: number;
}

export interface ClawbackLine {
  nrEndosso: string;
  confirmadoEm: string;
  efetivaEm: string;
  nrApolice: string;
  productName: string;
  nomeSegurado: string;
  documentoSegurado: string;
  parcial: boolean;
  estorno: number;
}

const commissionLineRows = (db: DB, beneficiary: Pick<Beneficiary, 'kind' | 'id'>, month: string) => {
  const { start, end } = monthBounds(month);
  return paidInstallments(db)
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .select([
      'pg.id',
      'pg.pago_em',
      'a.nr_apolice',
      'a.nome_segurado',
      'a.documento_segurado',
      's.nome as product_name',
      'i.numero',
      'i.valor',
      'q.comissao_centesimos',
      sql<number>`(select count(*)::int from installments n where n.policy_id = a.id)`.as('parcelas'),
      sql<number>`${NET_PREMIUM}::int`.as('net'),
      sql<number>`${COMMISSION}::int`.as('commission'),
    ])
    .where((eb) => ofBeneficiary(beneficiary)(eb.ref('pg.company_id'), eb.ref('pg.user_id')))
    .where('pg.pago_em', '>=', start)
    .where('pg.pago_em', '<', end)
    .orderBy('pg.pago_em')
    .orderBy('pg.id');
};

type CommissionLineRow = Awaited<ReturnType<ReturnType<typeof commissionLineRows>['execute']>>[number];

const commissionLineOf = (row: CommissionLineRow): CommissionLine => ({
  paymentId: row.id,
  pagoEm: new Date(row.pago_em).toISOString(),
  nrApolice: row.nr_apolice,
  productName: row.product_name,
  nomeSegurado: row.nome_segurado,
  documentoSegurado: maskDocument(row.documento_segurado),
  numero: row.numero,
  parcelas: row.parcelas,
  valorParcela: row.valor,
  premioLiquido: Number(row.net),
  taxa: row.comissao_centesimos,
  comissao: Number(row.commission),
});

async function clawbackLines(db: DB, beneficiary: Pick<Beneficiary, 'kind' | 'id'>, month: string): Promise<ClawbackLine[]> {
  const { start, end } = monthBounds(month);
  const rows = await clawbacks(db)
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .select([
      'e.nr_endosso',
      'e.created_at',
      'e.efetiva_em',
      'e.tipo',
      'a.nr_apolice',
      'a.nome_segurado',
      'a.documento_segurado',
      's.nome as product_name',
      'r.estorno_comissao',
    ])
    .where((eb) => ofBeneficiary(beneficiary)(eb.ref('a.company_id'), eb.ref('a.user_id')))
    .where('e.created_at', '>=', start)
    .where('e.created_at', '<', end)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    nrEndosso: r.nr_endosso,
    confirmadoEm: new Date(r.created_at).toISOString(),
    efetivaEm: r.efetiva_em,
    nrApolice: r.nr_apolice,
    productName: r.product_name,
    nomeSegurado: r.nome_segurado,
    documentoSegurado: maskDocument(r.documento_segurado),
    parcial: r.tipo === 'CANCELAMENTO_PARCIAL',
    estorno: r.estorno_comissao,
  }));
}

export interface Statement {
  beneficiary: Beneficiary;
  month: string;
  closed: boolean;
  /** The month's figures (zeros when nothing happened in it). */
  balance: MonthBalance;
  lines: Paged<CommissionLine>;
  clawbacks: ClawbackLine[];
  /** Months with any movement, newest first: the page's shortcuts. */
  months: string[];
}

const emptyBalance = (month: string, carriedIn: number): MonthBalance => ({
  month,
  commissions: 0,
  clawbacks: 0,
  balance: 0,
  carriedIn,
  payable: 0,
  carriedOut: carriedIn,
});

/** The balance of one month among a beneficiary's months (a quiet month still carries what came before it). */
export function balanceOf(months: readonly MonthBalance[], month: string): MonthBalance {
  const found = months.find((m) => m.month === month);
  if (found) return found;
  const before = months.filter((m) => m.month < month).at(-1);
  return emptyBalance(month, before?.carriedOut ?? 0);
}

/** A beneficiary's statement of a month: its paid installments (paged), its clawbacks and its totals. */
export async function statementOf(db: DB, beneficiary: Beneficiary, month: string, page: number, today: string): Promise<Statement> {
  const lines = commissionLineRows(db, beneficiary, month);
  const [months, rows, { total }, clawed] = await Promise.all([
    beneficiaryMonths(db, beneficiary),
    lines
      .limit(COMMISSION_LINES_PAGE_SIZE)
      .offset((page - 1) * COMMISSION_LINES_PAGE_SIZE)
      .execute(),
    db
      .selectFrom('payments as pg')
      .select(db.fn.countAll<string>().as('total'))
      .where((eb) => ofBeneficiary(beneficiary)(eb.ref('pg.company_id'), eb.ref('pg.user_id')))
      .where('pg.pago_em', '>=', monthBounds(month).start)
      .where('pg.pago_em', '<', monthBounds(month).end)
      .executeTakeFirstOrThrow(),
    clawbackLines(db, beneficiary, month),
  ]);
  return {
    beneficiary,
    month,
    closed: isClosedMonth(month, today),
    balance: balanceOf(months, month),
    lines: pagedOf(rows.map(commissionLineOf), total, page, COMMISSION_LINES_PAGE_SIZE),
    clawbacks: clawed,
    months: months.map((m) => m.month).reverse(),
  };
}

/** Rows per query while exporting: memory stays bounded however many installments a month holds. */
const EXPORT_BATCH = 500;

async function* statementCsvRows(db: DB, beneficiary: Beneficiary, month: string): AsyncGenerator<string[]> {
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const batch = await commissionLineRows(db, beneficiary, month).limit(EXPORT_BATCH).offset(offset).execute();
    for (const row of batch) {
      const line = commissionLineOf(row);
      yield statementCsvRecord({
        tipo: 'Comissão',
        data: formatDate(line.pagoEm),
        nrApolice: line.nrApolice,
        segurado: line.nomeSegurado,
        produto: line.productName,
        parcela: `${line.numero}/${line.parcelas}`,
        valorParcela: line.valorParcela,
        premioLiquido: line.premioLiquido,
        taxa: line.taxa,
        comissao: line.comissao,
        estorno: null,
      } satisfies StatementCsvLine);
    }
    if (batch.length < EXPORT_BATCH) break;
  }
  for (const c of await clawbackLines(db, beneficiary, month))
    yield statementCsvRecord({
      tipo: 'Estorno',
      data: formatDate(c.confirmadoEm),
      nrApolice: c.nrApolice,
      segurado: c.nomeSegurado,
      produto: c.productName,
      parcela: '',
      valorParcela: null,
      premioLiquido: null,
      taxa: null,
      comissao: null,
      estorno: c.estorno,
    });
}

/** A month's statement as CSV (lib/commissions.ts STATEMENT_CSV_OPTIONS), streamed in batches. */
export function statementCsv(db: DB, beneficiary: Beneficiary, month: string): Readable {
  const csv = stringify({ ...STATEMENT_CSV_OPTIONS, columns: [...STATEMENT_CSV_OPTIONS.columns] });
  pipeline(Readable.from(statementCsvRows(db, beneficiary, month)), csv).catch(() => {
    // pipeline has destroyed the stream with the error: the download ends truncated, never looking complete.
  });
  return csv;
}
