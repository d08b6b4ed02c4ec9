import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import type { Generation, PoliciesTable } from '../../db/schema';
import { brasiliaDay } from '../../../lib/format';
import { LINE_BRANCHES } from '../../../lib/insurer';
import { maskDocument } from '../../../lib/history';
import { containingPattern, isNameSearch, NAME_SEARCH_LIMIT, nameWords } from '../../../lib/insured-search';
import type { Scope } from '../../../lib/scope';
import { notFound } from '../../errors';
import { soldWithin, soldWithinBranches } from '../identity/scope';
import { readKeysetPage, readRankedPage } from '../../db/keyset-page';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import {
  installmentStatus,
  POLICIES_PAGE_SIZE,
  policyStatus,
  policyTerm,
  type InstallmentStatus,
  type PolicyFilters,
  type PolicyStatus,
} from '../../../lib/policies';
import { contractDueDates } from '../../../lib/contracting';
import { installmentOptions, installmentSchedule, withCoverageShares, type StoredPricing } from '../../../lib/products/engine';
import { productFor } from '../../../lib/products/catalog';
import type { PaymentMethod } from '../../../lib/products/types';
import type { ProductLine } from '../../../lib/simulators';
import type { InsuredContact } from '../../../lib/endorsements';
import { nextTerm } from '../../../lib/renewals';

/*
 * Issuing a policy from an accepted proposal (DESIGN §10): the contract, its term and its
 * installments. Runs inside the transaction that accepts the proposal, so a proposal is never
 * accepted without its policy, nor issued twice (policies.proposal_id is unique).
 */

async function nextNumbers(db: DB, line: ProductLine, now: Date) {
  const { rows } = await sql<{ policy: string; contract: number }>`
    select nextval('policy_numbers')::text as policy, nextval('contract_numbers')::int as contract`.execute(db);
  const { policy, contract } = rows[0]!;
  return { nrApolice: `${LINE_BRANCHES[line]}${brasiliaDay(now).slice(0, 4)}${policy.padStart(7, '0')}`, idContratacao: contract };
}

interface Contracted {
  formaPagamento: PaymentMethod;
  parcelas: number;
  diaVencimento?: number;
}

/** Issues the policy of an accepted proposal; answers its id and numbers. */
export async function issuePolicy(
  trx: DB,
  proposalId: number,
  now: Date,
): Promise<{ id: number; nrApolice: string; idContratacao: number }> {
  const row = await trx
    .selectFrom('proposals as p')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .select([
      'p.created_at as sent_at',
      'q.id as quote_id',
      'q.user_id',
      'q.company_id',
      'q.point_of_sale_id',
      'q.simulator_code',
      'q.line',
      'q.generation',
      'q.nome_segurado',
      'q.documento_segurado',
      'q.precificacao',
      'q.contratacao',
      'q.renova_policy_id',
    ])
    .where('p.id', '=', proposalId)
    .executeTakeFirstOrThrow();
  const product = productFor(row.simulator_code)!;
  const pricing = withCoverageShares(row.precificacao as unknown as StoredPricing);
  const contracted = row.contratacao as unknown as Contracted;
  // The count was checked when the proposal was made; paying at once is always offered.
  const options = installmentOptions(product, pricing.total, contracted.formaPagamento);
  const option = options.find((o) => o.count === contracted.parcelas) ?? options[0]!;
  const issuedDay = brasiliaDay(now);
  const renewed = row.renova_policy_id === null ? undefined : await renewedPolicy(trx, row.renova_policy_id);
  // A renewal goes on from the day after the term it renews; any other sale starts on the proposal's day.
  const term = renewed ? nextTerm(renewed.fim_vigencia) : policyTerm(brasiliaDay(row.sent_at));
  const numbers = await nextNumbers(trx, row.line as ProductLine, now);
  const policy = await trx
    .insertInto('policies')
    .values({
      nr_apolice: numbers.nrApolice,
      id_contratacao: numbers.idContratacao,
      proposal_id: proposalId,
      quote_id: row.quote_id,
      user_id: row.user_id,
      company_id: row.company_id,
      point_of_sale_id: row.point_of_sale_id,
      simulator_code: row.simulator_code,
      line: row.line,
      generation: row.generation,
      nome_segurado: row.nome_segurado,
      documento_segurado: row.documento_segurado,
      inicio_vigencia: term.inicio,
      fim_vigencia: term.fim,
      premio_liquido: pricing.netPremium,
      custo_apolice: pricing.policyCost,
      iof: pricing.iof,
      premio_total: option.total,
      forma_pagamento: contracted.formaPagamento,
      emitida_em: now,
      renova_policy_id: renewed?.id ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (renewed) await trx.updateTable('policies').set({ renovada_por_id: policy.id }).where('id', '=', renewed.id).execute();
  const amounts = installmentSchedule(option);
  const due = contractDueDates(contracted, issuedDay, amounts.length);
  await trx
    .insertInto('installments')
    .values(amounts.map((valor, i) => ({ policy_id: policy.id, numero: i + 1, vencimento: due[i]!, valor })))
    .execute();
  return { id: policy.id, ...numbers };
}

/**
 * The policy a renewal quote renews, locked, while it may still be renewed: in force and not renewed
 * by another policy (two renewal proposals accepted: the first one renews it; the second is a new
 * sale with its own term).
 */
async function renewedPolicy(trx: DB, id: number) {
  const row = await trx
    .selectFrom('policies')
    .select(['id', 'fim_vigencia', 'status', 'renovada_por_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row && row.status !== 'CANCELADA' && row.renovada_por_id === null ? row : undefined;
}

/** The policies of a generation a scope sees: every list, detail, charge and payment query starts here. */
export const policiesInScope = (db: DB, scope: Scope, generation: Generation) =>
  db
    .selectFrom('policies as a')
    .where((eb) => soldWithin(scope, eb.ref('a.user_id'), eb.ref('a.company_id')))
    .where('a.generation', '=', generation);

type ScopedPolicies = ReturnType<typeof policiesInScope>;

/** The policies a search names: by number, and by the insured (insuredMatches). */
export const searchedPolicies =
  (search: Pick<PolicyFilters, 'nrApolice' | 'segurado'>) =>
  (qb: ScopedPolicies): ScopedPolicies => {
    const byNumber = search.nrApolice === undefined ? qb : qb.where('a.nr_apolice', '=', search.nrApolice);
    const typed = search.segurado;
    if (typed === undefined) return byNumber;
    return byNumber.where((eb) => insuredMatches(typed, eb.ref('a.nome_busca'), eb.ref('a.documento_segurado')));
  };

/**
 * An insured as a search names them (lib/policies.ts seguradoField): a CPF/CNPJ as digits is the whole
 * document; a name matches when each word is anywhere in it, accents and case aside — "otavio lima"
 * finds "Otávio Freitas Lima" (LIKE wildcards typed are taken literally). `name` is the table's
 * nome_busca (migration 029), the name as lib/insured-search.ts searchableName makes it, whose
 * trigram index serves `like '%word%'`.
 */
export function insuredMatches(typed: string, name: Expression<string>, document: Expression<string>): Expression<SqlBool> {
  return isNameSearch(typed) ? nameMatches(typed, name) : sql<SqlBool>`${document} = ${typed}`;
}

/** A name as insuredMatches reads one: each typed word anywhere in it. */
export function nameMatches(typed: string, name: Expression<string | null>): Expression<SqlBool> {
  const words = nameWords(typed).map((word) => sql<SqlBool>`${name} like ${containingPattern(word)}`);
  return words.length > 0 ? sql<SqlBool>`(${sql.join(words, sql` and `)})` : sql<SqlBool>`true`;
}

/**
 * How close an insured's name is to a name typed (issue 42), for ranking a name search's matches:
 * pg_trgm's similarity of the whole name to the typed words — "ana almeida" puts "Ana Almeida" before
 * "Mariana Almeida Souza".
 */
export const insuredRank = (typed: string, name: Expression<string | null>) =>
  sql<number>`similarity(${name}, ${nameWords(typed).join(' ')})`;

export const POLICY_NOT_FOUND = 'Apólice não encontrada.';

/**
 * Locks the row of a policy the scope sees, by contract id, for the transaction that changes it
 * (an endorsement): of two changes at once the second waits, then reads what the first wrote. Its
 * id; a 404 when the viewer does not see it.
 */
export async function lockPolicyByContract(trx: DB, scope: Scope, generation: Generation, idContratacao: number): Promise<number> {
  const row = await policiesInScope(trx, scope, generation)
    .select('a.id')
    .where('a.id_contratacao', '=', idContratacao)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound(POLICY_NOT_FOUND);
  return row.id;
}

/** The id of a policy the scope sees, by number; undefined when there is none for this viewer. */
export async function policyIdInScope(db: DB, scope: Scope, generation: Generation, nrApolice: string): Promise<number | undefined> {
  const row = await policiesInScope(db, scope, generation).select('a.id').where('a.nr_apolice', '=', nrApolice).executeTakeFirst();
  return row?.id;
}

export interface PolicyRow {
  nrApolice: string;
  idContratacao: number;
  productName: string;
  code: string;
  nomeSegurado: string;
  /** Masked: the list never shows a whole CPF. */
  documentoSegurado: string;
  inicioVigencia: string;
  fimVigencia: string;
  premioTotal: number;
  status: PolicyStatus;
  seller: string;
}

/**
 * The policies of a generation a scope sees, as disjoint branches (identity/scope.ts soldWithinBranches):
 * what a keyset page reads, each branch through its own index.
 */
export const policyBranchesInScope = (db: DB, scope: Scope, generation: Generation) =>
  soldWithinBranches(scope, sql.ref('a.user_id'), sql.ref('a.company_id')).map((within) =>
    db.selectFrom('policies as a').where(within).where('a.generation', '=', generation),
  );

/**
 * A page of the policies a scope sees, newest first, filtered (lib/policies.ts parsePolicyQuery), keyset-paged;
 * a name search reads a bounded set of its matches, closest name first (readRankedPage, issue 42).
 */
export async function listPolicies(
  db: DB,
  scope: Scope,
  generation: Generation,
  filters: PolicyFilters,
  request: PageRequest,
  today: string,
): Promise<KeysetPage<PolicyRow>> {
  const filtered = (qb: ScopedPolicies): ScopedPolicies =>
    qb
      .$call(searchedPolicies(filters))
      .$if(filters.produto !== undefined, (q) => q.where('a.simulator_code', '=', filters.produto!))
      .$if(filters.vigenteEm !== undefined, (q) =>
        q.where('a.inicio_vigencia', '<=', filters.vigenteEm!).where('a.fim_vigencia', '>=', filters.vigenteEm!),
      )
      .$if(filters.situacao === 'CANCELADA', (q) => q.where('a.status', '=', 'CANCELADA'))
      .$if(filters.situacao === 'A_INICIAR', (q) => q.where('a.status', '=', 'VIGENTE').where('a.inicio_vigencia', '>', today))
      .$if(filters.situacao === 'VIGENTE', (q) =>
        q.where('a.status', '=', 'VIGENTE').where('a.inicio_vigencia', '<=', today).where('a.fim_vigencia', '>=', today),
      )
      .$if(filters.situacao === 'VENCIDA', (q) => q.where('a.status', '=', 'VIGENTE').where('a.fim_vigencia', '<', today));
  const list = {
    branches: policyBranchesInScope(db, scope, generation).map(filtered),
    time: 'a.emitida_em',
    id: 'a.id',
    columns: (branch: ScopedPolicies) =>
      branch
        .innerJoin('simulators as s', 's.code', 'a.simulator_code')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .select([
          'a.nr_apolice',
          'a.id_contratacao',
          'a.simulator_code',
          'a.nome_segurado',
          'a.documento_segurado',
          'a.inicio_vigencia',
          'a.fim_vigencia',
          'a.premio_total',
          'a.status',
          's.nome as product_name',
          'u.nome as seller',
        ]),
  };
  const read = isNameSearch(filters.segurado)
    ? await readRankedPage(
        db,
        { ...list, rank: insuredRank(filters.segurado, sql.ref('a.nome_busca')) },
        request.page,
        POLICIES_PAGE_SIZE,
        NAME_SEARCH_LIMIT,
      )
    : await readKeysetPage(db, list, request, POLICIES_PAGE_SIZE);
  return { ...read, content: read.content.map((row) => policyRowOf(row, today)) };
}

type RowColumns =
  | 'nr_apolice'
  | 'id_contratacao'
  | 'simulator_code'
  | 'nome_segurado'
  | 'documento_segurado'
  | 'inicio_vigencia'
  | 'fim_vigencia'
  | 'premio_total'
  | 'status';

/** A policy as the list shows it (the page adds the rest): its document masked, its state as of today. */
const policyRowOf = (
  row: Pick<Selectable<PoliciesTable>, RowColumns> & { product_name: string; seller: string },
  today: string,
): PolicyRow => ({
  nrApolice: row.nr_apolice,
  idContratacao: row.id_contratacao,
  productName: row.product_name,
  code: row.simulator_code,
  nomeSegurado: row.nome_segurado,
  documentoSegurado: maskDocument(row.documento_segurado),
  inicioVigencia: row.inicio_vigencia,
  fimVigencia: row.fim_vigencia,
  premioTotal: row.premio_total,
  status: policyStatus(row.status, { inicio: row.inicio_vigencia, fim: row.fim_vigencia }, today),
  seller: row.seller,
});

export interface PolicyDetail extends PolicyRow {
  /** The row's id: for the services that change it, never shown. */
  id: number;
  nrProposta: string;
  nrCotacao: string;
  line: ProductLine;
  emitidaEm: string;
  formaPagamento: string;
  premioLiquido: number;
  custoApolice: number;
  iof: number;
  company: string | null;
  pointOfSale: string | null;
  /** Every coverage the policy was sold with; `cancelled` when a partial cancellation dropped it. */
  coverages: { id: string; name: string; capital: number; premium: number; deductible: string; cancelled: boolean }[];
  planName: string;
  /** The insured's e-mail, phone and address as they are now (after any contact endorsement). */
  contact: InsuredContact;
  canceladaEm: string | null;
  /** The policy this one renews, and the one that renewed it (issue 31), by number. */
  renova: string | null;
  renovadaPor: string | null;
  installments: {
    numero: number;
    vencimento: string;
    valor: number;
    status: InstallmentStatus;
    pagaEm: string | null;
    /** What it was paid with (a 2ª via's fine and interest included), from its payment; null while unpaid. */
    valorPago: number | null;
    /** What the bank confirmed toward it so far (a partial payment of an open one), and what is owed back (decision 059). */
    recebido: number;
    aDevolver: number;
  }[];
}

/** The contact data a quote's insured was sold with (lib/products/insured.ts). */
export const contactOf = (segurado: Record<string, unknown>): InsuredContact => ({
  email: String(segurado.email ?? ''),
  telefone: String(segurado.telefone ?? ''),
  endereco: segurado.endereco as InsuredContact['endereco'],
});

/** One policy of a scope by number; undefined when it does not exist for this viewer (a 404). */
export const findPolicy = (db: DB, scope: Scope, generation: Generation, nrApolice: string, today: string) =>
  findPolicyWhere(db, scope, generation, { column: 'a.nr_apolice', value: nrApolice }, today);

/** One policy of a scope by contract id (the endorsement routes' key); undefined for this viewer: a 404. */
export const findPolicyByContract = (db: DB, scope: Scope, generation: Generation, idContratacao: number, today: string) =>
  findPolicyWhere(db, scope, generation, { column: 'a.id_contratacao', value: idContratacao }, today);

type PolicyKey = { column: 'a.nr_apolice'; value: string } | { column: 'a.id_contratacao'; value: number };

async function findPolicyWhere(
  db: DB,
  scope: Scope,
  generation: Generation,
  key: PolicyKey,
  today: string,
): Promise<PolicyDetail | undefined> {
  const row = await policiesInScope(db, scope, generation)
    .where(key.column, '=', key.value)
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id')
    .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
    .leftJoin('companies as c', 'c.id', 'a.company_id')
    .leftJoin('points_of_sale as pv', 'pv.id', 'a.point_of_sale_id')
    .leftJoin('policies as renewed', 'renewed.id', 'a.renova_policy_id')
    .leftJoin('policies as renewal', 'renewal.id', 'a.renovada_por_id')
    .selectAll('a')
    .select([
      'renewed.nr_apolice as renova_nr',
      'renewal.nr_apolice as renovada_por_nr',
      's.nome as product_name',
      'u.nome as seller',
      'q.nr_cotacao',
      'q.precificacao',
      'q.segurado',
      'p.nr_proposta',
      'c.razao_social',
      'pv.nome as pos_name',
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const installments = await db
    .selectFrom('installments as i')
    .leftJoin('payments as pg', 'pg.installment_id', 'i.id')
    .selectAll('i')
    .select([
      'pg.valor as valor_pago',
      // What the banks confirmed for it: applied to it, and owed back (migration 026).
      (eb) =>
        eb
          .selectFrom('receipts as r')
          .select(sql<number>`coalesce(sum(r.aplicado), 0)::int`.as('v'))
          .whereRef('r.installment_id', '=', 'i.id')
          .as('recebido'),
      (eb) =>
        eb
          .selectFrom('receipts as r')
          .select(sql<number>`coalesce(sum(r.credito), 0)::int`.as('v'))
          .whereRef('r.installment_id', '=', 'i.id')
          .as('a_devolver'),
    ])
    .where('i.policy_id', '=', row.id)
    .orderBy('i.numero')
    .execute();
  const pricing = withCoverageShares(row.precificacao as unknown as StoredPricing);
  const product = productFor(row.simulator_code);
  return {
    ...policyRowOf(row, today),
    id: row.id,
    nrProposta: row.nr_proposta,
    nrCotacao: row.nr_cotacao,
    line: row.line as ProductLine,
    emitidaEm: new Date(row.emitida_em).toISOString(),
    formaPagamento: row.forma_pagamento,
    premioLiquido: row.premio_liquido,
    custoApolice: row.custo_apolice,
    iof: row.iof,
    company: row.razao_social,
    pointOfSale: row.pos_name,
    planName: product?.plans.find((p) => p.id === pricing.plan)?.name ?? pricing.plan,
    coverages: pricing.coverages.map((c) => ({
      id: c.id,
      name: c.name,
      capital: c.capital,
      premium: c.premium,
      deductible: c.deductible,
      cancelled: row.coberturas_canceladas.includes(c.id),
    })),
    contact: row.contato ?? contactOf(row.segurado),
    canceladaEm: row.cancelada_em,
    renova: row.renova_nr,
    renovadaPor: row.renovada_por_nr,
    installments: installments.map((i) => ({
      numero: i.numero,
      vencimento: i.vencimento,
      valor: i.valor,
      status: installmentStatus(i.status, i.vencimento, today),
      pagaEm: i.paga_em ? new Date(i.paga_em).toISOString() : null,
      valorPago: i.valor_pago,
      recebido: i.recebido ?? 0,
      aDevolver: i.a_devolver ?? 0,
    })),
  };
}
