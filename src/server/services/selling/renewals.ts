import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import type { Database, Generation, PoliciesTable } from '../../db/schema';
import { readKeysetPage } from '../../db/keyset-page';
import { conflict, notFound } from '../../errors';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import { policyStatus, type PolicyStatus, type StoredPolicyStatus } from '../../../lib/policies';
import { embeddedQuoteHref } from '../../../lib/embedded-apps';
import { stepPath, type QuoteStep } from '../../../lib/quote-flow';
import {
  daysUntil,
  nextTerm,
  RENEWALS_PAGE_SIZE,
  renewalRefusal,
  type RenewablePolicy,
  type RenewalSellerView,
  renewalState,
  renewalWindow,
  type RenewalFilters,
  type RenewalState,
} from '../../../lib/renewals';
import type { Scope } from '../../../lib/scope';
import type { SessionViewer } from '../../../lib/session';
import type { ProductLine } from '../../../lib/simulators';
import { policiesInScope, POLICY_NOT_FOUND, policyBranchesInScope } from '../after-sale/policies';
import { createRenewalQuote } from './quotes';
import { renewalSellerFor } from './renewal-seller';

/*
 * Renewals (issue 31): the policies of a scope ending within the window (lib/renewals.ts), and
 * "Renovar" — a quote for the next term copied from the policy's own quote and re-priced today
 * (quotes.ts createRenewalQuote), which the seller then takes through the simulator's steps as any
 * other; the policy issued from it links back (after-sale/policies.ts issuePolicy). A policy has at
 * most one open renewal quote: a second "Renovar" goes to it.
 */

/** A renewal quote still open: being filled in and valid, or sent and not decided yet. */
const openRenewalOf = (policyId: Expression<number>, now: Date): Expression<SqlBool> => sql<SqlBool>`q.renova_policy_id = ${policyId}
  and ((q.status = 'EM_ELABORACAO' and q.valida_ate >= ${now})
    or exists (select 1 from proposals p where p.quote_id = q.id and p.status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS')))`;

/** Whether the policy has a renewal quote open (the worklist's "Continuar a renovação"). */
export const hasOpenRenewal = (policyId: Expression<number>, now: Date) =>
  sql<SqlBool>`exists (select 1 from quotes q where ${openRenewalOf(policyId, now)})`;

/** The policy's cancellation scheduled ahead, if any: it ends that day, so it is not renewed meanwhile. */
const scheduledCancellationOf = (policyId: Expression<number>) =>
  sql<string | null>`(select sc.efetiva_em from scheduled_cancellations sc where sc.policy_id = ${policyId} and sc.status = 'AGENDADO')`;

/** The policies of a scope in force whose term ends within the window of `today`: one query per branch of the scope (migration 039's indexes). */
const endingPolicies = (db: DB, scope: Scope, generation: Generation, today: string) => {
  const window = renewalWindow(today);
  return policyBranchesInScope(db, scope, generation).map((branch) =>
    branch.where('a.status', '=', 'VIGENTE').where('a.fim_vigencia', '>=', window.from).where('a.fim_vigencia', '<=', window.to),
  );
};

/**
 * The policies of a scope "Renovar" accepts today (lib/renewals.ts renewalRefusal, in SQL): ending
 * within the window, not renewed, no cancellation scheduled — one query per branch of the scope. The
 * worklist's "Apólices a renovar" counts these (issue 42: it counted renewed ones, and the bell with it).
 */
export const renewablePolicies = (db: DB, scope: Scope, generation: Generation, today: string) =>
  endingPolicies(db, scope, generation, today).map((branch) =>
    branch
      .where('a.renovada_por_id', 'is', null)
      .where(sql<SqlBool>`not exists (select 1 from scheduled_cancellations sc where sc.policy_id = a.id and sc.status = 'AGENDADO')`),
  );

export interface RenewalQuoteLink {
  nrCotacao: string;
  href: string;
}

/**
 * Where a renewal quote opens: the step it stands at, in its generation's simulator (or legacy's
 * embedded app) — to be read when it was sent, or by anyone but its seller.
 */
function quoteHref(
  generation: Generation,
  line: ProductLine,
  code: string,
  nrCotacao: string,
  etapa: string,
  sent: boolean,
  readOnly = sent,
): string {
  const action = readOnly ? 'visualizar' : 'editar';
  return (
    (generation === 'v1' && embeddedQuoteHref(code, nrCotacao, etapa, action)) ||
    stepPath(generation, line, etapa as QuoteStep, nrCotacao, { action, sent, pinned: true })
  );
}

export interface RenewalRow {
  nrApolice: string;
  nomeSegurado: string;
  productName: string;
  fimVigencia: string;
  daysLeft: number;
  premioTotal: number;
  seller: string;
  pointOfSale: string | null;
  state: RenewalState;
  /** The policy that renewed it. */
  renovadaPor: string | null;
  openQuote: RenewalQuoteLink | null;
  /** Why "Renovar" is not offered (pt-BR): renewed, or a cancellation scheduled; undefined when it is. */
  refusal?: string;
}

/**
 * A page of the policies in force of a scope whose term ends within the window of `today`, soonest
 * first, filtered by product, seller and point of sale; each branch of the scope reads its own index
 * (migration 039) in the page's order.
 */
export async function listRenewals(
  db: DB,
  scope: Scope,
  generation: Generation,
  filters: RenewalFilters,
  request: PageRequest,
  today: string,
  now: Date,
): Promise<KeysetPage<RenewalRow>> {
  const read = await readKeysetPage(
    db,
    {
      branches: endingPolicies(db, scope, generation, today).map((branch) =>
        branch
          .$if(filters.produto !== undefined, (q) => q.where('a.simulator_code', '=', filters.produto!))
          .$if(filters.vendedor !== undefined, (q) => q.where('a.user_id', '=', filters.vendedor!))
          .$if(filters.pontoVenda !== undefined, (q) => q.where('a.point_of_sale_id', '=', filters.pontoVenda!)),
      ),
      time: 'a.fim_vigencia',
      id: 'a.id',
      order: 'asc',
      columns: (branch) => withRenewalFacts(branch, now),
    },
    request,
    RENEWALS_PAGE_SIZE,
  );
  return {
    ...read,
    content: read.content.map((row) => ({
      nrApolice: row.nr_apolice,
      nomeSegurado: row.nome_segurado,
      productName: row.product_name,
      fimVigencia: row.fim_vigencia,
      daysLeft: daysUntil(row.fim_vigencia, today),
      premioTotal: row.premio_total,
      seller: row.seller,
      pointOfSale: row.pos_name,
      state: renewalState(row.renovada_por, row.quote_nr, row.cancelamento_agendado),
      renovadaPor: row.renovada_por,
      refusal: renewalRefusal(renewableOf({ ...row, status: 'VIGENTE' }), today),
      openQuote: row.quote_nr
        ? {
            nrCotacao: row.quote_nr,
            href: quoteHref(
              row.generation,
              row.line,
              row.simulator_code,
              row.quote_nr,
              row.quote_step,
              row.quote_status !== 'EM_ELABORACAO',
            ),
          }
        : null,
    })),
  };
}

/* ---------- One policy's renewal ---------- */

export interface RenewalSummary {
  nrApolice: string;
  nomeSegurado: string;
  productName: string;
  code: string;
  line: ProductLine;
  inicioVigencia: string;
  fimVigencia: string;
  daysLeft: number;
  premioTotal: number;
  seller: string;
  pointOfSale: string | null;
  status: StoredPolicyStatus;
  /** Its state as the policies pages say it today (a iniciar, vigente, vencida, cancelada). */
  situacao: PolicyStatus;
  /** The next term a renewal would cover. */
  next: { inicio: string; fim: string };
  state: RenewalState;
  renovadaPor: string | null;
  openQuote: RenewalQuoteLink | null;
  /** Why it may not be renewed now (pt-BR); undefined when it may. */
  refusal?: string;
  /** Who the renewal's quote would be made for, when "Renovar" is offered (renewal-seller.ts). */
  renewalSeller?: RenewalSellerView;
}

/** The policy a renewal starts from, as the viewer's scope sees it (undefined: a 404), with its state today. */
export async function renewalSummary(
  db: DB,
  scope: Scope,
  viewer: SessionViewer,
  nrApolice: string,
  today: string,
  now: Date,
): Promise<RenewalSummary | undefined> {
  const { generation } = viewer;
  const row = await policyOf(db, scope, generation, nrApolice, now);
  if (!row) return undefined;
  const openQuote = row.quote_nr
    ? {
        nrCotacao: row.quote_nr,
        href: quoteHref(
          generation,
          row.line as ProductLine,
          row.simulator_code,
          row.quote_nr,
          row.quote_step!,
          row.quote_status !== 'EM_ELABORACAO',
        ),
      }
    : null;
  let refusal = renewalRefusal(renewableOf(row), today);
  let renewalSeller: RenewalSellerView | undefined;
  if (!refusal && !openQuote) {
    const who = await renewalSellerFor(db, row, viewer, now);
    if ('refusal' in who) refusal = who.refusal;
    else renewalSeller = who.view;
  }
  return {
    nrApolice: row.nr_apolice,
    nomeSegurado: row.nome_segurado,
    productName: row.product_name,
    code: row.simulator_code,
    line: row.line as ProductLine,
    inicioVigencia: row.inicio_vigencia,
    fimVigencia: row.fim_vigencia,
    daysLeft: daysUntil(row.fim_vigencia, today),
    premioTotal: row.premio_total,
    seller: row.seller,
    pointOfSale: row.pos_name,
    status: row.status,
    situacao: policyStatus(row.status, { inicio: row.inicio_vigencia, fim: row.fim_vigencia }, today),
    next: nextTerm(row.fim_vigencia),
    state: renewalState(row.renovada_por, row.quote_nr, row.cancelamento_agendado),
    renovadaPor: row.renovada_por,
    openQuote,
    refusal,
    renewalSeller,
  };
}

const renewableOf = (row: {
  status: StoredPolicyStatus;
  fim_vigencia: string;
  renovada_por: string | null;
  cancelamento_agendado: string | null;
}): RenewablePolicy => ({
  status: row.status,
  fimVigencia: row.fim_vigencia,
  renovadaPor: row.renovada_por,
  cancelamentoAgendado: row.cancelamento_agendado,
});

/** A policy of the scope by its number, with what its renewal page and "Renovar" read. */
function policyOf(db: DB, scope: Scope, generation: Generation, nrApolice: string, now: Date) {
  return withRenewalFacts(policiesInScope(db, scope, generation).where('a.nr_apolice', '=', nrApolice), now)
    .innerJoin('quotes as sq', 'sq.id', 'a.quote_id')
    .select(['a.id', 'a.quote_id', 'a.inicio_vigencia', 'a.status', 'a.user_id', 'a.company_id', 'sq.offer_id'])
    .executeTakeFirst();
}

/**
 * The joins and columns of a renewal's row on a query of policies `a`: the product, the seller, the
 * point of sale, the policy that renewed it, its open renewal quote (the newest) and its scheduled
 * cancellation (it ends then: it is not renewed meanwhile, lib/renewals.ts renewalRefusal).
 */
function withRenewalFacts<O>(query: SelectQueryBuilder<Database & { a: PoliciesTable }, 'a', O>, now: Date) {
  return query
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('points_of_sale as pv', 'pv.id', 'a.point_of_sale_id')
    .leftJoin('policies as r', 'r.id', 'a.renovada_por_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('quotes as q')
          .select(['q.nr_cotacao', 'q.etapa', 'q.status'])
          .where((e) => openRenewalOf(e.ref('a.id'), now))
          .orderBy('q.id', 'desc')
          .limit(1)
          .as('rq'),
      (join) => join.onTrue(),
    )
    .select([
      'a.nr_apolice',
      'a.nome_segurado',
      'a.simulator_code',
      'a.line',
      'a.generation',
      'a.fim_vigencia',
      'a.premio_total',
      's.nome as product_name',
      'u.nome as seller',
      'pv.nome as pos_name',
      'r.nr_apolice as renovada_por',
      'rq.nr_cotacao as quote_nr',
      'rq.etapa as quote_step',
      'rq.status as quote_status',
    ])
    .select(scheduledCancellationOf(sql.ref('a.id')).as('cancelamento_agendado'));
}

/**
 * "Renovar" as `clicker`: the policy's open renewal quote if it has one, else a new one for the next
 * term, made for the seller renewal-seller.ts chooses (the policy's own while they can). Refused (409,
 * pt-BR) for a cancelled, renewed or ended policy, one with a cancellation scheduled, one whose window
 * has not opened, or one nobody here may sell; a 404 outside the scope. The policy's row is locked
 * while deciding, so two clicks at once make one quote (tested on PostgreSQL). Whoever is not the
 * quote's seller is sent to read it.
 */
export async function startRenewal(
  db: DB,
  scope: Scope,
  clicker: SessionViewer,
  nrApolice: string,
  today: string,
  now: Date,
): Promise<{ nrCotacao: string; href: string; created: boolean }> {
  const { generation } = clicker;
  return db.transaction().execute(async (trx) => {
    // The lock first, then the read in a statement of its own: under READ COMMITTED a second click
    // waiting on the lock then sees the quote the first one committed (a locking read re-checks only
    // the locked row, not the quotes it joined).
    const locked = await policiesInScope(trx, scope, generation)
      .select('a.id')
      .where('a.nr_apolice', '=', nrApolice)
      .forUpdate()
      .executeTakeFirst();
    const row = locked && (await policyOf(trx, scope, generation, nrApolice, now));
    if (!row) throw notFound(POLICY_NOT_FOUND);
    const line = row.line as ProductLine;
    if (row.quote_nr) {
      const sent = row.quote_status !== 'EM_ELABORACAO';
      return {
        nrCotacao: row.quote_nr,
        href: quoteHref(generation, line, row.simulator_code, row.quote_nr, row.quote_step!, sent),
        created: false,
      };
    }
    const refusal = renewalRefusal(renewableOf(row), today);
    if (refusal) throw conflict(refusal);
    // Read through the transaction: on PGlite (one connection, held by this transaction) a query on
    // the outer handle would wait for the transaction, which waits for it — every request after it too.
    const who = await renewalSellerFor(trx, row, clicker, now);
    if ('refusal' in who) throw conflict(who.refusal);
    const source = await trx.selectFrom('quotes').selectAll().where('id', '=', row.quote_id).executeTakeFirstOrThrow();
    const nrCotacao = await createRenewalQuote(trx, who.seller, who.offer, source, row.id, now);
    const href = quoteHref(generation, line, row.simulator_code, nrCotacao, 'cadastro', false, !who.view.viewer);
    return { nrCotacao, href, created: true };
  });
}
