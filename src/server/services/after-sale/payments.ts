import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { maskDocument } from '../../../lib/history';
import { pagedOf, type Paged } from '../../../lib/list-query';
import {
  CSV_OPTIONS,
  csvRecord,
  PAYMENTS_PAGE_SIZE,
  periodBounds,
  reportTotals,
  type PaymentMethodPaid,
  type PaymentRow,
  type ProductTotal,
  type PaymentSearch,
  type Period,
} from '../../../lib/payments';
import { installmentStatus, type InstallmentStatus } from '../../../lib/policies';
import type { Scope } from '../../../lib/scope';
import { soldWithin, soldWithinBranches } from '../identity/scope';
import { insuredRank, policyBranchesInScope, searchedPolicies } from './policies';
import { isNameSearch, NAME_SEARCH_LIMIT } from '../../../lib/insured-search';
import { readBatch, readKeysetPage, readRankedPage, type KeysetList } from '../../db/keyset-page';
import type { KeysetPage, PageRequest, RowKey } from '../../../lib/keyset-pages';
import { RECEIPTS_PAGE_SIZE, type ReceiptSituation, type ReceiptsTab } from '../../../lib/receipts';
import type { RefundStatus } from '../../../lib/refund-status';

/*
 * The payment pages' reads (issue 13; DESIGN §10): installments and payments of the policies a
 * scope sees — always through the one scope condition (soldWithin, on the policy's company and seller
 * or on the payment's copy of them, migration 033), so a payment of a policy outside it is never
 * listed, counted nor exported.
 */

/** The number of installments of the row's policy (the N of 'parcela n/N'). */
const installmentCount = sql<number>`(select count(*)::int from installments n where n.policy_id = a.id)`.as('parcelas');

/** How every payment list names an installment: its policy and product, the insured (masked), n/N. */
const installmentNamed = (row: {
  nr_apolice: string;
  product_name: string;
  nome_segurado: string;
  documento_segurado: string;
  numero: number;
  parcelas: number;
}) => ({
  nrApolice: row.nr_apolice,
  productName: row.product_name,
  nomeSegurado: row.nome_segurado,
  documentoSegurado: maskDocument(row.documento_segurado),
  numero: row.numero,
  parcelas: row.parcelas,
});

export interface InstallmentLine {
  nrApolice: string;
  productName: string;
  nomeSegurado: string;
  /** Masked: a list never shows a whole CPF. */
  documentoSegurado: string;
  numero: number;
  parcelas: number;
  vencimento: string;
  valor: number;
  status: InstallmentStatus;
  formaPagamento: string;
  pagoEm: string | null;
  valorPago: number | null;
  meio: PaymentMethodPaid | null;
  /** The installment's payable charge (boleto with Pix), when one was issued. */
  charge: { vencimento: string; total: number; linhaDigitavel: string; pixCopiaECola: string } | null;
}

/**
 * The installments of the policies a search names, as disjoint branches of the scope (one per index
 * of migration 030, each in (emitida_em, id) order) — each installment with its page key: the
 * policy's instant, and `line_key`, the policy's id and the installment's number in one number that
 * sorts, descending, newest policy first and its installments 1…N (a policy has fewer than 1,000) —
 * and, for a name search, `line_rank`: how close the policy's insured is to the name typed.
 */
const installmentBranches = (db: DB, scope: Scope, generation: Generation, search: PaymentSearch, openOnly: boolean) =>
  policyBranchesInScope(db, scope, generation).map((branch) =>
    db.selectFrom(
      branch
        .$call(searchedPolicies(search))
        .innerJoin('installments as i', 'i.policy_id', 'a.id')
        .$if(openOnly, (qb) => qb.where('i.status', '=', 'ABERTA'))
        .select(['i.id as installment_id', 'a.emitida_em as line_time', sql<number>`a.id::bigint * 1000 + (999 - i.numero)`.as('line_key')])
        .$if(isNameSearch(search.segurado), (qb) => qb.select(insuredRank(search.segurado!, sql.ref('a.nome_busca')).as('line_rank')))
        .as('x'),
    ),
  );

type InstallmentBranch = ReturnType<typeof installmentBranches>[number];

/**
 * A keyset page (lib/keyset-pages.ts) of the installments of the policies a search names, newest
 * policy first and in order within it; `openOnly` keeps those still to be paid (open or overdue), as
 * the 2ª via page offers. Counted only up to COUNT_LIMIT. A name search reads a bounded set of the
 * installments of its matches, closest name first (readRankedPage, issue 42).
 */
export async function listInstallments(
  db: DB,
  scope: Scope,
  generation: Generation,
  search: PaymentSearch,
  request: PageRequest,
  today: string,
  { openOnly = false } = {},
): Promise<KeysetPage<InstallmentLine>> {
  const list = {
    branches: installmentBranches(db, scope, generation, search, openOnly),
    time: 'x.line_time',
    id: 'x.line_key',
    columns: (branch: InstallmentBranch) =>
      branch
        .innerJoin('installments as i', 'i.id', 'x.installment_id')
        .innerJoin('policies as a', 'a.id', 'i.policy_id')
        .innerJoin('simulators as s', 's.code', 'a.simulator_code')
        .leftJoin('payments as pg', 'pg.installment_id', 'i.id')
        .leftJoin('charges as c', (join) => join.onRef('c.installment_id', '=', 'i.id').on('c.status', '=', 'ATIVA'))
        .select([
          'a.nr_apolice',
          'a.nome_segurado',
          'a.documento_segurado',
          'a.forma_pagamento',
          's.nome as product_name',
          'i.numero',
          'i.vencimento',
          'i.valor',
          'i.status',
          'pg.pago_em',
          'pg.valor as valor_pago',
          'pg.meio',
          'c.vencimento as charge_vencimento',
          'c.total as charge_total',
          'c.linha_digitavel',
          'c.pix_copia_e_cola',
          installmentCount,
        ]),
  };
  const read = isNameSearch(search.segurado)
    ? await readRankedPage(
        db,
        { ...list, rank: sql.ref('x.line_rank'), key: 'x.installment_id' },
        request.page,
        PAYMENTS_PAGE_SIZE,
        NAME_SEARCH_LIMIT,
      )
    : await readKeysetPage(db, list, request, PAYMENTS_PAGE_SIZE);
  const content = read.content.map(
    (row): InstallmentLine => ({
      ...installmentNamed(row),
      vencimento: row.vencimento,
      valor: row.valor,
      status: installmentStatus(row.status, row.vencimento, today),
      formaPagamento: row.forma_pagamento,
      pagoEm: row.pago_em ? new Date(row.pago_em).toISOString() : null,
      valorPago: row.valor_pago,
      meio: row.meio,
      charge:
        row.charge_vencimento === null
          ? null
          : {
              vencimento: row.charge_vencimento,
              total: row.charge_total!,
              linhaDigitavel: row.linha_digitavel!,
              pixCopiaECola: row.pix_copia_e_cola!,
            },
    }),
  );
  return { ...read, content };
}

/**
 * The payments received in a period by the policies a scope sees — by the payment's own copy of its
 * policy's generation, company and seller (migration 033), so the period is a range of one index.
 */
const paymentsOf = (db: DB, scope: Scope, generation: Generation, period: Period) => {
  const { from, to } = periodBounds(period);
  return db
    .selectFrom('payments as pg')
    .where((eb) => soldWithin(scope, eb.ref('pg.user_id'), eb.ref('pg.company_id')))
    .where('pg.generation', '=', generation)
    .where('pg.pago_em', '>=', from)
    .where('pg.pago_em', '<', to);
};

/**
 * The keys of a generation's payments of a period (`k`): what a page of the report walks. Every
 * column a branch reads of them — generation, pago_em, id and the scope's company_id and user_id — is
 * in payments_generation_paid (migration 033), so the walk is an index-only scan that tests each
 * payment's scope on the index entry: a seller or manager with few payments among everyone's no
 * longer fetches every payment of the period from the table to find a page (a legacy manager with none
 * at 1000×: 31,031 heap fetches, 60 ms). The payment itself is joined by its key for the page's rows.
 */
const paymentKeys = (db: DB, generation: Generation, period: Period) => {
  const { from, to } = periodBounds(period);
  return db.selectFrom('payments as k').where('k.generation', '=', generation).where('k.pago_em', '>=', from).where('k.pago_em', '<', to);
};

type PaymentKeys = ReturnType<typeof paymentKeys>;

/** A payment as the report and its CSV show it: with its installment, policy and product. */
const paymentColumns = (branch: PaymentKeys) =>
  branch
    .innerJoin('payments as pg', 'pg.id', 'k.id')
    .innerJoin('installments as i', 'i.id', 'pg.installment_id')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .select([
      'pg.pago_em',
      'pg.valor',
      'pg.meio',
      'a.nr_apolice',
      'a.nome_segurado',
      'a.documento_segurado',
      's.nome as product_name',
      'i.numero',
      'a.id as policy_id',
    ]);

type StoredPaymentRow = Awaited<ReturnType<ReturnType<typeof paymentColumns>['execute']>>[number];

/**
 * The payments of a period a scope sees as a keyset list (db/keyset-page.ts) in the report's order —
 * by the time paid, then as recorded —, one branch per condition of the scope (soldWithinBranches, on
 * the payment's own company and seller). A page reads from the row its link names instead of past
 * every page before it (issue 29: page 500 of a year by OFFSET read 5,000 payments with their
 * installments and policies).
 */
const paymentsList = (
  db: DB,
  scope: Scope,
  generation: Generation,
  period: Period,
  count?: () => Promise<number>,
): KeysetList<StoredPaymentRow> => ({
  branches: soldWithinBranches(scope, sql.ref('k.user_id'), sql.ref('k.company_id')).map((within) =>
    paymentKeys(db, generation, period).where(within),
  ),
  time: 'k.pago_em',
  id: 'k.id',
  order: 'asc',
  columns: paymentColumns,
  count,
});

/**
 * The report's rows, each with its policy's number of installments (the N of 'parcela n/N'), counted
 * for the rows read only: in a page's select it would be counted for every row a page number alone
 * skips too (up to COUNT_LIMIT of them).
 */
async function paymentRowsOf(db: DB, rows: StoredPaymentRow[]): Promise<PaymentRow[]> {
  const policyIds = [...new Set(rows.map((row) => row.policy_id))];
  const counts =
    policyIds.length === 0
      ? []
      : await db
          .selectFrom('installments')
          .select(['policy_id', (eb) => eb.fn.countAll<string>().as('n')])
          .where('policy_id', 'in', policyIds)
          .groupBy('policy_id')
          .execute();
  const installments = new Map(counts.map((c) => [c.policy_id, Number(c.n)]));
  return rows.map((row) => ({
    pagoEm: new Date(row.pago_em).toISOString(),
    ...installmentNamed({ ...row, parcelas: installments.get(row.policy_id) ?? 0 }),
    valor: row.valor,
    meio: row.meio,
  }));
}

export interface PaymentsReport {
  totals: { products: ProductTotal[]; total: { count: number; amount: number } };
  /** A keyset page of the period's payments; its total, the totals' count, shown within COUNT_LIMIT. */
  payments: KeysetPage<PaymentRow>;
}

/** The report of a period: the totals per product (and all) and a page of its payments. */
export async function paymentsReport(
  db: DB,
  scope: Scope,
  generation: Generation,
  period: Period,
  request: PageRequest,
): Promise<PaymentsReport> {
  // Totals per product from the payments alone (an index-only range); their counts add up to the
  // period's, which is the list's count: the page reads no other.
  const totals = paymentsOf(db, scope, generation, period)
    .innerJoin('simulators as s', 's.code', 'pg.simulator_code')
    .select(['s.nome as product_name', (eb) => eb.fn.countAll<string>().as('count'), (eb) => eb.fn.sum<string>('pg.valor').as('amount')])
    .groupBy('s.nome')
    .execute()
    .then((perProduct) =>
      reportTotals(perProduct.map((p) => ({ productName: p.product_name, count: Number(p.count), amount: Number(p.amount) }))),
    );
  const [report, page] = await Promise.all([
    totals,
    readKeysetPage(
      db,
      paymentsList(db, scope, generation, period, async () => (await totals).total.count),
      request,
      PAYMENTS_PAGE_SIZE,
    ),
  ]);
  return { totals: report, payments: { ...page, content: await paymentRowsOf(db, page.content) } };
}

/** Rows read per query while exporting: memory stays bounded however long the period. */
const EXPORT_BATCH = 500;

/** Every payment of the period, read in batches after the last one sent (the report's keyset list, uncounted). */
async function* allPaymentRows(db: DB, scope: Scope, generation: Generation, period: Period): AsyncGenerator<string[]> {
  const list = paymentsList(db, scope, generation, period);
  let after: RowKey | undefined;
  for (;;) {
    const batch = await readBatch(db, list, after, EXPORT_BATCH);
    for (const row of await paymentRowsOf(db, batch.rows)) yield csvRecord(row);
    if (batch.rows.length < EXPORT_BATCH) return;
    after = batch.last;
  }
}

/**
 * The period's payments as CSV (lib/payments.ts CSV_OPTIONS), streamed: rows are read in batches and
 * written as the client takes them. A failure midway ends the stream with an error (a truncated
 * download, never a file that looks complete).
 */
export function paymentsCsv(db: DB, scope: Scope, generation: Generation, period: Period): Readable {
  const csv = stringify({ ...CSV_OPTIONS, columns: [...CSV_OPTIONS.columns] });
  pipeline(Readable.from(allPaymentRows(db, scope, generation, period)), csv).catch(() => {
    // pipeline has already destroyed the stream with the error; the response ends there.
  });
  return csv;
}

/* ---------- Receipts the insurer looks at (issue 27 item 13, decision 059) ---------- */

export interface ReceiptLine {
  id: number;
  recebidoEm: string;
  /** The bank's id as it sent it ('banco:' dropped); the demo bank's own. */
  externalId: string;
  origem: 'WEBHOOK' | 'BANCO_DEMO';
  meio: PaymentMethodPaid | null;
  /** The code paid, as received (for an unidentified one, all there is to go on). */
  codigo: string;
  valor: number;
  aplicado: number;
  credito: number;
  devido: number | null;
  situacao: ReceiptSituation;
  nrApolice: string | null;
  generation: Generation | null;
  numero: number | null;
  nomeSegurado: string | null;
  installmentStatus: 'ABERTA' | 'PAGA' | 'CANCELADA' | null;
  /** The refund that gives its money back (decision 074): its own, or the cancellation's that took it in. */
  refund: { id: number; status: RefundStatus; pagaEm: string | null } | null;
}

/**
 * What a receipt to look at is: money owed back (a duplicate, an excess, a closed installment, an
 * unknown code), or a partial payment of an installment not paid since. Within the partial index
 * receipts_to_review (migration 026). `a conferir` are those whose money has not gone back yet — no
 * refund, or one not paid (decision 074); `devolvidos` those whose refund was paid.
 */
const toReview = (db: DB, tab: ReceiptsTab) =>
  db
    .selectFrom('receipts as r')
    .leftJoin('installments as i', 'i.id', 'r.installment_id')
    .leftJoin('refunds as f', 'f.id', 'r.refund_id')
    .where((eb) => eb.or([eb('r.credito', '>', 0), eb('r.situacao', '=', 'PARCIAL')]))
    .where((eb) => eb.or([eb('r.credito', '>', 0), eb('i.status', 'is distinct from', 'PAGA')]))
    .where((eb) => (tab === 'devolvidos' ? eb('f.status', '=', 'PAGA') : eb('f.status', 'is distinct from', 'PAGA')));

/**
 * The receipts the insurer has to look at, newest first, with what is still owed back in all. They are
 * the insurer's money, not a partner's sale: only a scope of every sale (the insurer's ADMIN) sees them.
 */
export async function receiptsToReview(
  db: DB,
  scope: Scope,
  page: number,
  tab: ReceiptsTab = 'a-conferir',
): Promise<{ receipts: Paged<ReceiptLine>; owedBack: number } | undefined> {
  if (scope.kind !== 'all') return undefined;
  const [rows, totals] = await Promise.all([
    toReview(db, tab)
      .leftJoin('policies as a', 'a.id', 'i.policy_id')
      .select([
        'r.id',
        'r.recebido_em',
        'r.external_id',
        'r.origem',
        'r.meio',
        'r.codigo',
        'r.valor',
        'r.aplicado',
        'r.credito',
        'r.devido',
        'r.situacao',
        'a.nr_apolice',
        'a.generation',
        'a.nome_segurado',
        'i.numero',
        'i.status',
        'f.id as refund_id',
        'f.status as refund_status',
        'f.paga_em',
      ])
      .orderBy('r.id', 'desc')
      .limit(RECEIPTS_PAGE_SIZE)
      .offset((page - 1) * RECEIPTS_PAGE_SIZE)
      .execute(),
    toReview(db, tab)
      .select([
        (eb) => eb.fn.countAll<string>().as('total'),
        (eb) => eb.fn.coalesce(eb.fn.sum<string>('r.credito'), sql<string>`0`).as('owed'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const content = rows.map(
    (row): ReceiptLine => ({
      id: row.id,
      recebidoEm: new Date(row.recebido_em).toISOString(),
      externalId: row.external_id.replace(/^banco:/, ''),
      origem: row.origem,
      meio: row.meio,
      codigo: row.codigo,
      valor: row.valor,
      aplicado: row.aplicado,
      credito: row.credito,
      devido: row.devido,
      situacao: row.situacao,
      nrApolice: row.nr_apolice,
      generation: row.generation,
      numero: row.numero,
      nomeSegurado: row.nome_segurado,
      installmentStatus: row.status,
      refund:
        row.refund_id === null
          ? null
          : { id: row.refund_id, status: row.refund_status!, pagaEm: row.paga_em ? new Date(row.paga_em).toISOString() : null },
    }),
  );
  return { receipts: pagedOf(content, totals.total, page, RECEIPTS_PAGE_SIZE), owedBack: tab === 'devolvidos' ? 0 : Number(totals.owed) };
}
