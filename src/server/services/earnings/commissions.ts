import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import { readBatch, type KeysetList } from '../../db/keyset-page';
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
import type { RowKey } from '../../../lib/keyset-pages';
import { pagedOf, type Paged } from '../../../lib/list-query';
import type { BeneficiaryScope } from '../../../lib/scope';
import { beneficiaryWithin } from '../identity/scope';

/*
 * Commission statements (issue 15; decision 041). A commission is owed on each paid installment (a
 * payments row): the installment's share of the sale's net premium × the rate fixed at the sale
 * (quotes.comissao_centesimos), in the month the installment was paid (Brasília). A cancellation claws
 * back refunds.estorno_comissao in the month it was confirmed (the endorsement's date), so a closed
 * month never changes by a later cancellation. Nothing here writes: the database keeps each payment's
 * commission (payments.comissao, lib/commissions.ts installmentNetPremium and commissionOf in SQL — a
 * test holds the two equal) and each beneficiary's months (commissions_monthly) as payments, sales and
 * cancellations are written (migration 034), so a statement's months are a few rollup rows however
 * long the beneficiary's history (issue 29).
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
  (company: Expression<number | null>, seller: Expression<number | null>): Expression<SqlBool> =>
    beneficiary.kind === 'PJ'
      ? sql<SqlBool>`${company} = ${beneficiary.id}`
      : sql<SqlBool>`(${company} is null and ${seller} = ${beneficiary.id})`;

/** Paid installments with their policy and quote. */
const paidInstallments = (db: DB) =>
  db
    .selectFrom('payments as pg')
    .innerJoin('installments as i', 'i.id', 'pg.installment_id')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id');

/**
 * A beneficiary's payments of a month, by the payment's own company and seller (migration 033, kept by
 * the database from the policy): its index reads a month of one company's payments in the lines' order.
 */
function paidInMonth(beneficiary: Pick<Beneficiary, 'kind' | 'id'>, month: string): Expression<SqlBool> {
  const { start, end } = monthBounds(month);
  const paidAt = sql.ref<Date>('pg.pago_em');
  return sql<SqlBool>`${ofBeneficiary(beneficiary)(sql.ref('pg.company_id'), sql.ref('pg.user_id'))} and ${paidAt} >= ${start} and ${paidAt} < ${end}`;
}

/** Clawbacks with their cancellation and policy. */
const clawbacks = (db: DB) =>
  db
    .selectFrom('refunds as r')
    .innerJoin('endorsements as e', 'e.id', 'r.endorsement_id')
    .innerJoin('policies as a', 'a.id', 'r.policy_id')
    .where('r.estorno_comissao', '>', 0);

/** A beneficiary's months in the rollup, each row one month: those with a payment or a clawback. */
const monthlyRows = (db: DB) =>
  db
    .selectFrom('commissions_monthly as cm')
    .select(['cm.company_id', 'cm.user_id', 'cm.mes', 'cm.commissions', 'cm.clawbacks'])
    .where((eb) => eb.or([eb('cm.payments', '>', 0), eb('cm.refunds', '>', 0)]));

type MonthlyRow = Awaited<ReturnType<ReturnType<typeof monthlyRows>['execute']>>[number];

const figuresOf = (rows: MonthlyRow[]): MonthFigures[] =>
  rows.map((r) => ({ month: r.mes.slice(0, 7), commissions: Number(r.commissions), clawbacks: Number(r.clawbacks) }));

/** Every month with commissions or clawbacks of a beneficiary, each with its balance and what it carries. */
export async function beneficiaryMonths(db: DB, beneficiary: Pick<Beneficiary, 'kind' | 'id'>): Promise<MonthBalance[]> {
  const rows = await monthlyRows(db)
    .where((eb) => ofBeneficiary(beneficiary)(eb.ref('cm.company_id'), eb.ref('cm.user_id')))
    .execute();
  return monthBalances(figuresOf(rows));
}

/**
 * Every beneficiary of a scope with commissions, and each one's months — one read of the rollup (the
 * informe's list, which may cover every partner for an ADMIN).
 */
export async function scopeMonths(db: DB, scope: BeneficiaryScope): Promise<{ beneficiary: Beneficiary; months: MonthBalance[] }[]> {
  const rows = await monthlyRows(db)
    .where((eb) => beneficiaryWithin(scope, eb.ref('cm.company_id'), eb.ref('cm.user_id')))
    .execute();
  const byKey = new Map<string, MonthlyRow[]>();
  for (const row of rows) {
    const key = row.company_id === null ? `PF${row.user_id}` : `PJ${row.company_id}`;
    const months = byKey.get(key);
    if (months) months.push(row);
    else byKey.set(key, [row]);
  }
  const beneficiaries = await beneficiariesByKey(db, [...byKey.keys()]);
  return beneficiaries.map((beneficiary) => ({
    beneficiary,
    months: monthBalances(figuresOf(byKey.get(`${beneficiary.kind}${beneficiary.id}`) ?? [])),
  }));
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

/** The statement's lines: paid installments with what a line shows of each. */
const commissionLineRows = (db: DB) =>
  paidInstallments(db)
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
      'pg.comissao',
      sql<number>`(select count(*)::int from installments n where n.policy_id = a.id)`.as('parcelas'),
      // The installment's net premium at the sale and its commission, as the database computed them (migration 034).
      sql<number>`installment_net_premium(i.id)`.as('net'),
    ]);

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
  comissao: row.comissao,
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
  const payments = db.selectFrom('payments as pg').where(paidInMonth(beneficiary, month));
  // The page's payments first, through the month's index alone; then their lines: a deep page skips
  // index entries, not joined rows.
  const pageOfPayments = payments
    .select('pg.id')
    .orderBy('pg.pago_em')
    .orderBy('pg.id')
    .limit(COMMISSION_LINES_PAGE_SIZE)
    .offset((page - 1) * COMMISSION_LINES_PAGE_SIZE);
  const [months, rows, { total }, clawed] = await Promise.all([
    beneficiaryMonths(db, beneficiary),
    commissionLineRows(db).where('pg.id', 'in', pageOfPayments).orderBy('pg.pago_em').orderBy('pg.id').execute(),
    payments.select(db.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
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

async function* statementCsvRows(db: DB, beneficiary: Beneficiary, month: string, batchSize: number): AsyncGenerator<string[]> {
  // Each batch after the last line sent, by its exact instant (db/keyset.ts) and id: the month's index
  // from there, however deep into the month.
  const lines: KeysetList<CommissionLineRow> = {
    branches: [commissionLineRows(db).where(paidInMonth(beneficiary, month))],
    time: 'pg.pago_em',
    id: 'pg.id',
    columns: (branch) => branch,
    order: 'asc',
  };
  let after: RowKey | undefined;
  for (;;) {
    const batch = await readBatch(db, lines, after, batchSize);
    for (const row of batch.rows) {
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
    if (batch.rows.length < batchSize) break;
    after = batch.last;
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
export function statementCsv(db: DB, beneficiary: Beneficiary, month: string, batchSize = EXPORT_BATCH): Readable {
  const csv = stringify({ ...STATEMENT_CSV_OPTIONS, columns: [...STATEMENT_CSV_OPTIONS.columns] });
  pipeline(Readable.from(statementCsvRows(db, beneficiary, month, batchSize)), csv).catch(() => {
    // pipeline has destroyed the stream with the error: the download ends truncated, never looking complete.
  });
  return csv;
}
