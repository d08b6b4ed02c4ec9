import { sql, type Selectable } from 'kysely';
import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import type { DB } from '../../db';
import type { QuotesTable } from '../../db/schema';
import { invalid, forbidden, notFound, conflict, fieldErrorsOf } from '../../errors';
import { asksDueDay, contractingSchema, type Contracting } from '../../../lib/contracting';
import { brasiliaDay, formatDate } from '../../../lib/format';
import { productFor } from '../../../lib/products/catalog';
import { receiveProposal } from '../after-sale/acceptance';
import { acceptanceDeadline, PROPOSAL_EVENT_LABELS, PROPOSAL_STATUS_LABELS, proposalClock } from '../../../lib/acceptance';
import { installmentOptions, price, validateSelection, withCoverageShares, type StoredPricing } from '../../../lib/products/engine';
import { insuredDocument, insuredName, insuredSchema } from '../../../lib/products/insured';
import { answersSchema } from '../../../lib/products/questions';
import { flowOf } from '../../../lib/products/flow';
import type { Answers, ProductDef, Selection } from '../../../lib/products/types';
import { nextStep, stepsOf, type QuoteStep } from '../../../lib/quote-flow';
import { ratingAnswers, statusLabel, type ProposalTimelineEntry, type QuoteStatus, type QuoteView } from '../../../lib/quotes';
import type { ProductLine } from '../../../lib/simulators';
import { now as clockNow } from '../../clock';
import { nextTerm } from '../../../lib/renewals';
import { pointOfSaleOfSale } from '../network/points-of-sale';
import { soldWithin } from '../identity/scope';
import type { Scope } from '../../../lib/scope';

/**
 * Quotes from cadastro to proposal (SPEC §4, DESIGN §7). Every save validates with the product's
 * own schemas, re-prices on the server with the same pure engine the browser uses, and refuses to
 * change a quote that was sent or has expired. Both generations sell through here: they differ in
 * who the seller is and which quotes they see, not in how insurance is priced.
 */

/** Who is quoting, and which quotes they may see (their own, their companies', or all). */
export interface Seller {
  generation: 'v1' | 'v2';
  userId: number;
  companyId: number | null;
  /** Where the seller works (users.point_of_sale_id): their sales are made there (services/network/points-of-sale.ts). */
  pointOfSaleId: number | null;
  scope: { kind: 'own' } | { kind: 'companies'; ids: number[] } | { kind: 'all' };
  canSell(code: string): boolean;
}

/** The offer a new quote sells (from services/offers). */
export interface OfferToQuote {
  nrOferta: number;
  code: string;
  commissionPercent: number;
}

export type QuoteRow = Selectable<QuotesTable>;

const MESSAGES = {
  notFound: 'Cotação não encontrada.',
  sent: 'Esta cotação já foi enviada como proposta e não pode mais ser alterada.',
  invalid: 'Verifique os campos destacados.',
  noProduct: 'Produto sem simulador disponível.',
  acceptTerms: 'Para enviar a proposta, aceite o termo de presente proposta.',
  notYours: 'Só quem fez esta cotação pode alterá-la ou enviá-la. Você pode consultá-la.',
} as const;
const expiredMessage = (validUntil: Date) =>
  `Esta cotação venceu em ${formatDate(validUntil)} e não pode mais ser contratada. Faça uma nova simulação.`;
const stepFirst = (step: QuoteStep) => `Conclua a etapa anterior antes de ${STEP_VERBS[step]}.`;
const STEP_VERBS: Record<QuoteStep, string> = {
  cadastro: 'o cadastro',
  risco: 'informar o risco',
  planos: 'escolher o plano',
  contratacao: 'a contratação',
  resumo: 'o resumo',
  proposta: 'enviar a proposta',
  finalizacao: 'finalizar',
};

function productOf(code: string): ProductDef {
  const product = productFor(code);
  if (!product) throw notFound(MESSAGES.noProduct);
  return product;
}

function parseOrCollect<S extends core.$ZodType>(
  schema: S,
  value: unknown,
  prefix: string,
  errors: Record<string, string[]>,
): core.output<S> | undefined {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  Object.assign(errors, fieldErrorsOf(result.error, prefix));
  return undefined;
}

function throwIfAny(errors: Record<string, string[]>) {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw invalid(Object.keys(errors).length === 1 ? first : MESSAGES.invalid, errors);
}

/**
 * What the rating factors read: the line's answers plus the insured's type and birth date, and the
 * day of the quote (ages are taken on it, so a quote re-priced after a birthday keeps its premium).
 */
// The answers the engine prices: pure, so the embedded issuance apps compute them in the browser too.
export { ratingAnswers };

export const isExpired = (row: Pick<QuoteRow, 'status' | 'valida_ate'>, now: Date) =>
  row.status === 'EM_ELABORACAO' && new Date(row.valida_ate).getTime() < now.getTime();

/** Which quotes a seller sees (shared with services/quote-history): own, their companies', or all. */
export function visibleTo(seller: Seller) {
  return (qb: ReturnType<typeof quotesQuery>) =>
    qb.where((eb) => soldWithin(sellerScope(seller), eb.ref('q.user_id'), eb.ref('q.company_id')));
}

/** A seller's scope as lib/scope.ts names it: the one scoping rule reads it (identity/scope.ts soldWithin, soldWithinBranches). */
export const sellerScope = (seller: Seller): Scope =>
  seller.scope.kind === 'all'
    ? { kind: 'all' }
    : seller.scope.kind === 'companies'
      ? { kind: 'companies', userId: seller.userId, companyIds: seller.scope.ids }
      : { kind: 'own', userId: seller.userId };

const quotesQuery = (db: DB) => db.selectFrom('quotes as q');

async function findRow(db: DB, seller: Seller, nrCotacao: string): Promise<QuoteRow> {
  const row = await visibleTo(seller)(quotesQuery(db))
    .selectAll('q')
    .where('q.nr_cotacao', '=', nrCotacao)
    .where('q.generation', '=', seller.generation)
    .executeTakeFirst();
  if (!row) throw notFound(MESSAGES.notFound);
  return row;
}

/**
 * Managers read, sellers write (docs/decisions/029-managers-read-sellers-write.md): a partner admin
 * or the provider's admin sees the quotes of their team, but only the seller who made a quote
 * changes or sends it — a proposal carries its seller's name and acceptance.
 */
function assertEditable(row: QuoteRow, seller: Seller, now: Date) {
  if (row.user_id !== seller.userId) throw forbidden(MESSAGES.notYours);
  if (row.status !== 'EM_ELABORACAO') throw conflict(MESSAGES.sent);
  if (isExpired(row, now)) throw conflict(expiredMessage(new Date(row.valida_ate)));
}

/** The furthest of two steps in the line's flow: saving an earlier step never moves `etapa` back. */
function furthest(product: ProductDef, current: string, reached: QuoteStep | undefined): QuoteStep {
  const steps = stepsOf(flowOf(product));
  const at = steps.indexOf(current as QuoteStep);
  const to = reached ? steps.indexOf(reached) : -1;
  return steps[Math.max(at, to, 0)]!;
}

async function nextQuoteNumber(db: DB, now: Date): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('quote_numbers')::text as n`.execute(db);
  // Brasília's year, as a policy's number (policies.ts): at 23:00 of 31/12 the process's zone (UTC) is already in the next.
  return `${brasiliaDay(now).slice(0, 4)}${rows[0]!.n.padStart(6, '0')}`;
}

async function nextProposalNumber(db: DB, now: Date): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('proposal_numbers')::text as n`.execute(db);
  return `${brasiliaDay(now).slice(0, 4)}${rows[0]!.n.padStart(8, '0')}`;
}

/** Ages and dates are checked against the server's day (`now`, server/clock.ts), not the machine's. */
function parseCadastro(product: ProductDef, input: { segurado: unknown; respostas: unknown }, now: Date) {
  const errors: Record<string, string[]> = {};
  const insured = insuredSchema(product.insured, { age: product.insuredAge, today: now });
  const segurado = parseOrCollect(insured, input.segurado, 'segurado', errors);
  const respostas = parseOrCollect(answersSchema(product.cadastroQuestions, now), input.respostas ?? {}, 'respostas', errors);
  throwIfAny(errors);
  return { segurado: segurado as Record<string, unknown>, respostas: respostas as Answers };
}

export interface CadastroInput {
  segurado: unknown;
  respostas?: unknown;
}

/** Cadastro of a new quote: saves it and gives it its number (SPEC: the quote is saved here). */
export async function createQuote(db: DB, seller: Seller, offer: OfferToQuote, input: CadastroInput, now = clockNow()): Promise<QuoteView> {
  if (!seller.canSell(offer.code)) throw forbidden();
  const product = productOf(offer.code);
  const { segurado, respostas } = parseCadastro(product, { segurado: input.segurado, respostas: input.respostas }, now);
  const nrCotacao = await nextQuoteNumber(db, now);
  const validUntil = new Date(now.getTime() + product.validityDays * 86_400_000);
  await db
    .insertInto('quotes')
    .values({
      nr_cotacao: nrCotacao,
      simulator_code: product.code,
      line: product.line,
      generation: seller.generation,
      offer_id: offer.nrOferta,
      user_id: seller.userId,
      company_id: seller.companyId,
      point_of_sale_id: (await pointOfSaleOfSale(db, seller.companyId, seller.pointOfSaleId))?.id ?? null,
      etapa: nextStep(flowOf(product), 'cadastro') ?? 'cadastro',
      segurado: JSON.stringify(segurado),
      nome_segurado: insuredName(segurado as never),
      documento_segurado: insuredDocument(segurado as never),
      respostas: JSON.stringify(respostas),
      comissao_centesimos: Math.round(offer.commissionPercent * 100),
      valida_ate: validUntil,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return (await findQuote(db, seller, nrCotacao, now))!;
}

/**
 * A renewal's quote (services/selling/renewals.ts): the sold quote `source` copied for the next term —
 * the insured, the answers, the plan with its sums and the contracting — re-priced at today's tariff
 * with the same engine every save uses, sold by `seller` through `offer`, and marked as renewing
 * `policyId`. A plan that no longer fits the answers (an age band passed) is dropped: the quote
 * resumes at planos, as an edited one does. Its number.
 */
export async function createRenewalQuote(
  db: DB,
  seller: Seller,
  offer: OfferToQuote,
  source: QuoteRow,
  policyId: number,
  now: Date,
): Promise<string> {
  if (!seller.canSell(offer.code) || offer.code !== source.simulator_code) throw forbidden();
  const product = productOf(offer.code);
  const nrCotacao = await nextQuoteNumber(db, now);
  const flow = flowOf(product);
  const answers = ratingAnswers({ segurado: source.segurado, respostas: source.respostas, risco: source.risco, createdAt: now });
  const selection = source.selecao as Selection | null;
  const fits = selection !== null && Object.keys(validateSelection(product, answers, selection)).length === 0;
  const pricing = fits ? price(product, answers, selection) : null;
  const contracting = pricing ? contractingAfter(product, pricing.total, source.contratacao as Contracting | null) : {};
  const kept = 'contratacao' in contracting && contracting.contratacao ? contracting.contratacao : null;
  // Where it resumes: past the steps whose data still holds (the last save of each step moves it so).
  const etapa = !pricing ? 'planos' : kept ? (nextStep(flow, 'contratacao') ?? 'contratacao') : 'contratacao';
  await db
    .insertInto('quotes')
    .values({
      nr_cotacao: nrCotacao,
      simulator_code: product.code,
      line: product.line,
      generation: seller.generation,
      offer_id: offer.nrOferta,
      user_id: seller.userId,
      company_id: seller.companyId,
      point_of_sale_id: (await pointOfSaleOfSale(db, seller.companyId, seller.pointOfSaleId))?.id ?? null,
      etapa,
      segurado: JSON.stringify(source.segurado),
      nome_segurado: source.nome_segurado,
      documento_segurado: source.documento_segurado,
      respostas: JSON.stringify(source.respostas),
      risco: source.risco ? JSON.stringify(source.risco) : null,
      selecao: fits ? JSON.stringify(selection) : null,
      precificacao: pricing ? JSON.stringify(pricing) : null,
      premio_total: pricing?.total ?? null,
      contratacao: kept,
      comissao_centesimos: Math.round(offer.commissionPercent * 100),
      renova_policy_id: policyId,
      valida_ate: new Date(now.getTime() + product.validityDays * 86_400_000),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return nrCotacao;
}

/**
 * The contracting after a new price: kept (with its installments recomputed) while the method still
 * offers its number of installments, else dropped and the quote goes back to contratacao.
 */
function contractingAfter(product: ProductDef, total: number, contracting: Contracting | null) {
  if (!contracting) return {};
  const opcao = installmentOptions(product, total, contracting.formaPagamento).find((o) => o.count === contracting.parcelas);
  return opcao ? { contratacao: JSON.stringify({ ...contracting, opcao }) } : { contratacao: null, etapa: 'contratacao' };
}

/**
 * Re-prices after the answers changed. A selection that no longer fits (a capital now out of its
 * range) is dropped with the contracting that depended on it, and the quote goes back to planos.
 */
function repriced(product: ProductDef, row: QuoteRow, answers: Answers) {
  const selection = row.selecao as Selection | null;
  if (!selection) return {};
  if (Object.keys(validateSelection(product, answers, selection)).length > 0) {
    return { selecao: null, precificacao: null, contratacao: null, premio_total: null, etapa: 'planos' };
  }
  const pricing = price(product, answers, selection);
  return {
    precificacao: JSON.stringify(pricing),
    premio_total: pricing.total,
    ...contractingAfter(product, pricing.total, row.contratacao as Contracting | null),
  };
}

type StepSaver = (ctx: { db: DB; product: ProductDef; row: QuoteRow; body: unknown; now: Date }) => Promise<Record<string, unknown>>;

/** What each step's save validates and writes (the planos and contratacao steps price on the server). */
const STEP_SAVERS: Partial<Record<QuoteStep, StepSaver>> = {
  async cadastro({ product, row, body, now }) {
    const input = (body ?? {}) as Partial<CadastroInput>;
    const { segurado, respostas } = parseCadastro(product, { segurado: input.segurado, respostas: input.respostas }, now);
    return {
      segurado: JSON.stringify(segurado),
      respostas: JSON.stringify(respostas),
      nome_segurado: insuredName(segurado as never),
      documento_segurado: insuredDocument(segurado as never),
      ...repriced(product, row, ratingAnswers({ segurado, respostas, risco: row.risco, createdAt: row.created_at })),
    };
  },
  async risco({ product, row, body, now }) {
    if (product.riskQuestions.length === 0) throw notFound('Este produto não tem a etapa de risco.');
    const errors: Record<string, string[]> = {};
    const risco = parseOrCollect(answersSchema(product.riskQuestions, now), (body as { risco?: unknown })?.risco ?? {}, 'risco', errors);
    throwIfAny(errors);
    return { risco: JSON.stringify(risco), ...repriced(product, row, ratingAnswers({ ...row, risco, createdAt: row.created_at })) };
  },
  async planos({ product, row, body }) {
    if (product.riskQuestions.length > 0 && !row.risco) throw conflict(stepFirst('planos'));
    const selection = parseSelection(body);
    const answers = ratingAnswers({ ...row, createdAt: row.created_at });
    const errors = validateSelection(product, answers, selection);
    throwIfAny(Object.fromEntries(Object.entries(errors).map(([k, m]) => [`selecao.${k}`, [m]])));
    const pricing = price(product, answers, selection);
    return {
      selecao: JSON.stringify(selection),
      precificacao: JSON.stringify(pricing),
      premio_total: pricing.total,
      ...contractingAfter(product, pricing.total, row.contratacao as Contracting | null),
    };
  },
  async contratacao({ product, row, body }) {
    if (!row.precificacao || row.premio_total === null) throw conflict(stepFirst('contratacao'));
    const errors: Record<string, string[]> = {};
    const contracting = parseOrCollect(contractingSchema, (body as { contratacao?: unknown })?.contratacao, 'contratacao', errors);
    throwIfAny(errors);
    const value = contracting!;
    if (!installmentOptions(product, row.premio_total, value.formaPagamento).some((o) => o.count === value.parcelas)) {
      throwIfAny({ 'contratacao.parcelas': ['Esse número de parcelas não está disponível para esta forma de pagamento.'] });
    }
    if (!product.beneficiaries && value.beneficiarios?.length) {
      throwIfAny({ 'contratacao.beneficiarios': ['Este produto não tem beneficiários.'] });
    }
    // What the method does not use is not kept: a debit account only for debit, a due day never for Pix.
    const cleaned: Contracting = {
      ...value,
      debito: value.formaPagamento === 'debito' ? value.debito : undefined,
      diaVencimento: asksDueDay(value.formaPagamento) ? value.diaVencimento : undefined,
    };
    return contractingAfter(product, row.premio_total, cleaned);
  },
};

const selectionSchema = z.object({
  plan: z.string({ error: 'Escolha um plano.' }).check(z.minLength(1, 'Escolha um plano.'), z.maxLength(40)),
  capitals: z.record(
    z.string().check(z.maxLength(40)),
    z
      .number({ error: 'Informe um valor em reais.' })
      .check(
        z.int('Informe um valor em reais.'),
        z.gte(0, 'Informe um valor em reais.'),
        z.lte(100_000_000_000, 'Valor acima do permitido.'),
      ),
  ),
});

function parseSelection(body: unknown): Selection {
  const errors: Record<string, string[]> = {};
  const selection = parseOrCollect(selectionSchema, (body as { selecao?: unknown })?.selecao, 'selecao', errors);
  throwIfAny(errors);
  return selection!;
}

export const SAVED_STEPS = ['cadastro', 'risco', 'planos', 'contratacao'] as const;
export type SavedStep = (typeof SAVED_STEPS)[number];

/** Saves one step of an open quote and moves it on; answers the updated quote. */
export async function saveStep(
  db: DB,
  seller: Seller,
  nrCotacao: string,
  step: SavedStep,
  body: unknown,
  now = clockNow(),
): Promise<QuoteView> {
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, seller, nrCotacao);
    await lockQuote(trx, row.id);
    assertEditable(row, seller, now);
    if (!seller.canSell(row.simulator_code)) throw forbidden();
    const product = productOf(row.simulator_code);
    const changes = await STEP_SAVERS[step]!({ db: trx, product, row, body, now });
    const etapa = (changes.etapa as QuoteStep | undefined) ?? furthest(product, row.etapa, nextStep(flowOf(product), step));
    await trx
      .updateTable('quotes')
      .set({ ...changes, etapa, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    return (await findQuote(trx, seller, nrCotacao, now))!;
  });
}

// Serialises concurrent saves and submits of one quote (two tabs, a double click) on PostgreSQL.
const lockQuote = (db: DB, id: number) => sql`select id from quotes where id = ${id} for update`.execute(db);

/**
 * Sends the proposal. Idempotent: a second submit (double click, another tab) answers the proposal
 * the first one created; the unique quote_id of proposals keeps it so even under a race.
 */
export async function sendProposal(db: DB, seller: Seller, nrCotacao: string, input: { aceiteTermo: unknown }, now = clockNow()) {
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, seller, nrCotacao);
    await lockQuote(trx, row.id);
    const existing = await trx.selectFrom('proposals').select(['nr_proposta']).where('quote_id', '=', row.id).executeTakeFirst();
    if (existing && row.user_id === seller.userId)
      return { nrProposta: existing.nr_proposta, quote: (await findQuote(trx, seller, nrCotacao, now))!, created: false };
    assertEditable(row, seller, now);
    if (!seller.canSell(row.simulator_code)) throw forbidden();
    if (!row.contratacao) throw conflict(stepFirst('proposta'));
    if (input.aceiteTermo !== true) throwIfAny({ aceiteTermo: [MESSAGES.acceptTerms] });
    const product = productOf(row.simulator_code);
    const nrProposta = await nextProposalNumber(trx, now);
    const inserted = await trx
      .insertInto('proposals')
      .values({
        quote_id: row.id,
        nr_proposta: nrProposta,
        user_id: seller.userId,
        aceite_termo_em: now,
        aceite_ate: acceptanceDeadline(now),
        // The server's clock, not the database's: the term and the queue count from this instant.
        created_at: now,
      })
      .onConflict((oc) => oc.column('quote_id').doNothing())
      .returning(['id', 'nr_proposta'])
      .executeTakeFirst();
    if (inserted) await receiveProposal(trx, inserted.id, seller.userId, now);
    await trx
      .updateTable('quotes')
      .set({ status: 'PROPOSTA_EM_ANALISE', etapa: product.finalStep, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    const stored =
      inserted ?? (await trx.selectFrom('proposals').select('nr_proposta').where('quote_id', '=', row.id).executeTakeFirstOrThrow());
    return { nrProposta: stored.nr_proposta, quote: (await findQuote(trx, seller, nrCotacao, now))!, created: Boolean(inserted) };
  });
}

/** A quote the seller may see, as pages show it; undefined when it does not exist for them. */
export async function findQuote(db: DB, seller: Seller, nrCotacao: string, now = clockNow()): Promise<QuoteView | undefined> {
  const row = await visibleTo(seller)(quotesQuery(db))
    .innerJoin('offers as o', 'o.id', 'q.offer_id')
    .innerJoin('simulators as s', 's.id', 'o.simulator_id')
    .innerJoin('users as u', 'u.id', 'q.user_id')
    .leftJoin('companies as c', 'c.id', 'o.company_id')
    .leftJoin('proposals as p', 'p.quote_id', 'q.id')
    .leftJoin('policies as ap', 'ap.proposal_id', 'p.id')
    .leftJoin('policies as rp', 'rp.id', 'q.renova_policy_id')
    .selectAll('q')
    .select([
      'o.nome as offer_name',
      's.nome as simulator_name',
      'u.nome as seller_name',
      'c.razao_social',
      'c.cnpj',
      'c.susep',
      'p.id as proposal_id',
      'p.nr_proposta',
      'p.status as proposal_status',
      'p.created_at as proposal_created_at',
      'p.aceite_ate',
      'p.suspensa_desde',
      'p.motivo',
      'ap.nr_apolice',
      'ap.emitida_em',
      'rp.nr_apolice as renova_nr',
      'rp.fim_vigencia as renova_fim',
    ])
    .where('q.nr_cotacao', '=', nrCotacao)
    .where('q.generation', '=', seller.generation)
    .executeTakeFirst();
  if (!row) return undefined;
  const expired = isExpired(row, now);
  const status = row.status as QuoteStatus;
  return {
    nrCotacao: row.nr_cotacao,
    code: row.simulator_code,
    line: row.line as ProductLine,
    generation: row.generation,
    productName: row.simulator_name,
    offerName: row.offer_name,
    nrOferta: row.offer_id,
    status,
    statusLabel: statusLabel(status, expired, row.proposal_status),
    expired,
    mine: row.user_id === seller.userId,
    editable: status === 'EM_ELABORACAO' && !expired && row.user_id === seller.userId,
    etapa: row.etapa as QuoteStep,
    segurado: row.segurado as Record<string, unknown>,
    respostas: row.respostas as Answers,
    risco: row.risco as Answers | null,
    // A quote priced before decision 023 is shown with its stored net premium split over the coverages.
    selecao: row.selecao as Selection | null,
    precificacao: row.precificacao ? withCoverageShares(row.precificacao as unknown as StoredPricing) : null,
    contratacao: row.contratacao as QuoteView['contratacao'],
    commissionPercent: row.comissao_centesimos / 100,
    partner: row.razao_social && row.cnpj ? { razaoSocial: row.razao_social, cnpj: row.cnpj, susep: row.susep } : null,
    seller: row.seller_name,
    createdAt: new Date(row.created_at).toISOString(),
    validaAte: new Date(row.valida_ate).toISOString(),
    vencimentosDesde: brasiliaDay(row.emitida_em ?? now),
    proposta: row.proposal_id
      ? {
          nrProposta: row.nr_proposta!,
          status: PROPOSAL_STATUS_LABELS[row.proposal_status!],
          statusCode: row.proposal_status!,
          createdAt: new Date(row.proposal_created_at!).toISOString(),
          clock: proposalClock({ status: row.proposal_status!, deadline: row.aceite_ate, suspendedAt: row.suspensa_desde }, now),
          motivo: row.motivo,
          nrApolice: row.nr_apolice,
          timeline: await proposalTimeline(db, row.proposal_id),
        }
      : null,
    renovacao: row.renova_nr ? { nrApolice: row.renova_nr, ...nextTerm(row.renova_fim!) } : null,
  };
}

/** What happened to a proposal, oldest first. */
async function proposalTimeline(db: DB, proposalId: number): Promise<ProposalTimelineEntry[]> {
  const events = await db
    .selectFrom('proposal_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.tipo', 'e.detalhe', 'e.created_at', 'u.nome'])
    .where('e.proposal_id', '=', proposalId)
    .orderBy('e.id')
    .execute();
  return events.map((e) => ({
    label: PROPOSAL_EVENT_LABELS[e.tipo],
    detalhe: e.detalhe,
    by: e.nome,
    at: new Date(e.created_at).toISOString(),
  }));
}

/** The seller's latest open quote of a line: where a step route without a number resumes. */
export async function latestOpenQuote(db: DB, seller: Seller, line: ProductLine, now = clockNow()): Promise<string | undefined> {
  const row = await quotesQuery(db)
    .select('q.nr_cotacao')
    .where('q.user_id', '=', seller.userId)
    .where('q.generation', '=', seller.generation)
    .where('q.line', '=', line)
    .where('q.status', '=', 'EM_ELABORACAO')
    .where('q.valida_ate', '>=', now)
    .orderBy('q.updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.nr_cotacao;
}

/** The seller's latest sent quote of a line: where legacy's plain finalizacao resumes (SPEC §2 gives it no number). */
export async function latestProposal(db: DB, seller: Seller, line: ProductLine): Promise<string | undefined> {
  const row = await quotesQuery(db)
    .innerJoin('proposals as p', 'p.quote_id', 'q.id')
    .select('q.nr_cotacao')
    .where('q.user_id', '=', seller.userId)
    .where('q.generation', '=', seller.generation)
    .where('q.line', '=', line)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.nr_cotacao;
}

/** Pricing without saving (the planos step's instant re-price, checked by the server). */
export function priceSelection(code: string, answers: unknown, selection: unknown, now = clockNow()) {
  const product = productOf(code);
  const errors: Record<string, string[]> = {};
  const allQuestions = [...product.cadastroQuestions, ...product.riskQuestions];
  const parsedAnswers = parseOrCollect(answersSchema(allQuestions, now), answers ?? {}, 'respostas', errors);
  const parsedSelection = parseOrCollect(selectionSchema, selection, 'selecao', errors);
  throwIfAny(errors);
  const extra = (answers ?? {}) as Record<string, unknown>;
  const rating: Answers = { ...(parsedAnswers as Answers) };
  for (const key of ['tipoPessoa', 'dataNascimento', 'dataCotacao'] as const) if (typeof extra[key] === 'string') rating[key] = extra[key];
  const selectionErrors = validateSelection(product, rating, parsedSelection!);
  throwIfAny(Object.fromEntries(Object.entries(selectionErrors).map(([k, m]) => [`selecao.${k}`, [m]])));
  const pricing = price(product, rating, parsedSelection!);
  return {
    ...pricing,
    parcelas: Object.fromEntries(
      (['boleto', 'cartao', 'debito', 'pix'] as const).map((method) => [method, installmentOptions(product, pricing.total, method)]),
    ),
  };
}
