import { generateCNPJ, generateCPF } from '@brazilian-utils/brazilian-utils';
import type { DB } from '../db/index';
import { sellableOffers, sellableOffersV1 } from '../services/network/offers';
import { findUserByEmail, loadV1User, loadV2User } from '../services/identity/principals';
import { createQuote, saveStep, sendProposal, type OfferToQuote, type Seller } from '../services/selling/quotes';
import { sellerFromV1, sellerFromV2 } from '../services/selling/sellers';
import { decideProposal } from '../services/after-sale/acceptance';
import { currentCharge, payCharge } from '../services/after-sale/charges';
import { cancellationContext, confirmCancellation, saveCoverages, saveReason } from '../services/after-sale/cancellation';
import { productFor } from '../../lib/products/catalog';
import type { Answers, Cents, ProductDef, Question } from '../../lib/products/types';
import { installmentOptions } from '../../lib/products/engine';
import { brasiliaDay } from '../../lib/format';
import { lastMonths } from '../../lib/metrics';
import { monthOf } from '../../lib/commissions';

/**
 * A year of sales for the demo (issue 15), so that the metrics, rankings, commission statements,
 * income statements and sales reports show real shapes on a first sign-in. Like the rest of the demo
 * it sells through the real services at past instants — pricing, acceptance, issuance, due dates,
 * payments, cancellations and their refunds follow their rules; nothing is inserted by hand.
 *
 * Deterministic (a seeded random sequence per sale), but not fast: ~150 sales take seconds, so only the
 * portal's own start asks for it (DEMO_HISTORY, on by default); tests start without it.
 */

const DAY_MS = 86_400_000;

/** Who sells, how often (weights), and how: the legacy seller sells residential only. */
const SELLERS = [
  { email: 'parceiro@parceiro.demo', weight: 4 },
  { email: 'igor.pereira@parceiro.demo', weight: 3 },
  { email: 'juliana.costa@parceiro.demo', weight: 3 },
  { email: 'substabelecido@parceiro.demo', weight: 2 },
  { email: 'vendedor@legado.demo', weight: 4 },
] as const;

/** The lines sold, by weight; a seller who may not sell one sells residential instead. */
const PRODUCTS = [
  { code: 'RES', weight: 9 },
  { code: 'VEU', weight: 5 },
  { code: 'IPU', weight: 3 },
  { code: 'EAU', weight: 2 },
  { code: 'MU', weight: 1 },
] as const;

/** Sales per month, a year back to now: a slow start, a dip after the holidays, a better second half. */
const MONTHLY_SALES = [9, 7, 8, 10, 11, 10, 12, 13, 12, 14, 15, 16];

/** What happens to a quote: most become proposals; a few policies are cancelled; a few boletos are left unpaid. */
const ODDS = { proposal: 0.8, cancelled: 0.07, unpaid: 0.06 };

const FIRST_NAMES = [
  'Lucas',
  'Mariana',
  'Pedro',
  'Camila',
  'Thiago',
  'Larissa',
  'Rodrigo',
  'Fernanda',
  'Gustavo',
  'Patrícia',
  'André',
  'Beatriz',
];
const LAST_NAMES = [
  'Almeida',
  'Barbosa',
  'Cardoso',
  'Duarte',
  'Esteves',
  'Freitas',
  'Gomes',
  'Moreira',
  'Nunes',
  'Oliveira',
  'Ramos',
  'Teixeira',
];
const COMPANY_NAMES = [
  'Padaria Pão Dourado',
  'Oficina Mecânica Rota 10',
  'Mercearia Bom Preço',
  'Estúdio Foco Design',
  'Clínica Vida Plena',
];
const CITIES = [
  { cidade: 'São Paulo', uf: 'SP', cep: '01310-100', bairro: 'Bela Vista' },
  { cidade: 'Belo Horizonte', uf: 'MG', cep: '30140-071', bairro: 'Centro' },
  { cidade: 'Campinas', uf: 'SP', cep: '13010-111', bairro: 'Cambuí' },
  { cidade: 'Curitiba', uf: 'PR', cep: '80020-310', bairro: 'Centro' },
];

const SEED = 2026;

/** mulberry32: a small seeded generator, so every fresh demo has the same year. */
function randomSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
function weighted<T extends { weight: number }>(random: Random, list: readonly T[]): T {
  let left = random() * list.reduce((sum, item) => sum + item.weight, 0);
  for (const item of list) {
    left -= item.weight;
    if (left < 0) return item;
  }
  return list[list.length - 1]!;
}

/** An answer any product accepts for a question: its first option, a value inside its bounds. */
function answerOf(question: Question, random: Random): Answers[string] | undefined {
  const { min = 1, max = min * 10 } = question;
  const between = () => Math.round(min + (max - min) * (0.15 + random() * 0.3));
  // Sums insured near the bottom of their range, as a retail partner's customers buy: a few
  // thousand reais of premium, not the largest risk the product accepts.
  const modest = () => Math.round((min + (max - min) * (0.01 + random() * 0.04)) / 100) * 100;
  const answers: Record<Question['kind'], () => Answers[string] | undefined> = {
    select: () => question.options?.[0]?.value,
    radio: () => question.options?.[0]?.value,
    boolean: () => false,
    integer: between,
    area: between,
    money: modest,
    text: () => 'Não se aplica',
    date: () => undefined,
  };
  return answers[question.kind]();
}

const answersOf = (questions: readonly Question[], random: Random): Answers =>
  Object.fromEntries(questions.map((q) => [q.name, answerOf(q, random)]).filter(([, value]) => value !== undefined));

/** Residential answers of a real shape (the generic ones would price every home alike). */
const home = (random: Random): Answers => ({
  tipoImovel: random() < 0.6 ? 'casa' : 'apartamento',
  uso: 'habitual',
  construcao: 'alvenaria',
  valorImovel: Math.round(180 + random() * 620) * 1000_00,
  alarme: random() < 0.5,
});

function insuredFor(product: ProductDef, random: Random, at: Date) {
  const city = pick(random, CITIES);
  const endereco = {
    cep: city.cep,
    logradouro: 'Rua das Palmeiras',
    numero: String(10 + Math.floor(random() * 900)),
    bairro: city.bairro,
    cidade: city.cidade,
    uf: city.uf,
  };
  const telefone = `(11) 9${String(1000 + Math.floor(random() * 8999))}-${String(1000 + Math.floor(random() * 8999))}`;
  if (product.insured === 'PJ') {
    const razaoSocial = `${pick(random, COMPANY_NAMES)} ${pick(random, LAST_NAMES)} Ltda.`;
    return { tipoPessoa: 'PJ', razaoSocial, cnpj: generateCNPJ(), email: 'contato@empresa.exemplo.com.br', telefone, endereco };
  }
  const nome = `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)} ${pick(random, LAST_NAMES)}`;
  const birthYear = at.getUTCFullYear() - 25 - Math.floor(random() * 35);
  const email = `${nome
    .split(' ')[0]!
    .normalize('NFD')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase()}.cliente@exemplo.com.br`;
  return { tipoPessoa: 'PF', nome, cpf: generateCPF(), dataNascimento: `${birthYear}-05-14`, email, telefone, endereco };
}

interface HistorySeller {
  seller: Seller;
  offers: (at: Date) => Promise<(OfferToQuote & { code: string })[]>;
  /** Who confirms the cancellations of their sales (the seller, in the generation they sell in). */
  cancelAs: { userId: number; generation: 'v1' | 'v2' };
}

async function historySeller(db: DB, email: string): Promise<HistorySeller | undefined> {
  const row = await findUserByEmail(db, email);
  if (!row) return undefined;
  if (row.generation === 'v1') {
    const user = await loadV1User(db, row);
    return {
      seller: await sellerFromV1(db, user),
      offers: (at) => sellableOffersV1(db, user, at),
      cancelAs: { userId: row.id, generation: 'v1' },
    };
  }
  const user = await loadV2User(db, row, { fullyAuthenticated: true });
  return {
    seller: await sellerFromV2(db, user),
    offers: (at) => sellableOffers(db, user, at),
    cancelAs: { userId: row.id, generation: 'v2' },
  };
}

/** One sale from cadastro to proposal at `at`, a few minutes per step, as a seller does it. */
async function sell(db: DB, random: Random, who: HistorySeller, offer: OfferToQuote & { code: string }, at: Date) {
  const product = productFor(offer.code)!;
  const step = (minutes: number) => new Date(at.getTime() + minutes * 60_000);
  const respostas = offer.code === 'RES' ? home(random) : answersOf(product.cadastroQuestions, random);
  const quote = await createQuote(db, who.seller, offer, { segurado: insuredFor(product, random, at), respostas }, at);
  if (random() >= ODDS.proposal) return undefined; // priced and left: a quote that never became a proposal
  if (product.riskQuestions.length > 0)
    await saveStep(db, who.seller, quote.nrCotacao, 'risco', { risco: answersOf(product.riskQuestions, random) }, step(2));
  const priced = await saveStep(
    db,
    who.seller,
    quote.nrCotacao,
    'planos',
    { selecao: { plan: pick(random, product.plans).id, capitals: {} } },
    step(4),
  );
  const pix = random() < 0.3;
  const contratacao = {
    formaPagamento: pix ? 'pix' : 'boleto',
    parcelas: pix ? 1 : installmentsFor(product, priced.precificacao!.total, random),
    diaVencimento: pick(random, [5, 10, 15, 20]),
    ...(product.beneficiaries ? { beneficiarios: [{ nome: 'Beneficiário da Silva', parentesco: 'conjuge', percentual: 100 }] } : {}),
  };
  await saveStep(db, who.seller, quote.nrCotacao, 'contratacao', { contratacao }, step(6));
  return sendProposal(db, who.seller, quote.nrCotacao, { aceiteTermo: true }, step(8));
}

/**
 * 1, 2 or 4 installments, among those the product offers for this premium: the premium moves with
 * the day the year is generated (ages, due dates), and a small one does not split in four.
 */
function installmentsFor(product: ProductDef, total: Cents, random: Random): number {
  const wanted = pick(random, [1, 2, 4]);
  const offered = installmentOptions(product, total, 'boleto').map((option) => option.count);
  return offered.includes(wanted) ? wanted : Math.max(...offered.filter((count) => count <= wanted));
}

/** Pays what fell due before `now`, on its due day, by the policy's boleto or Pix — and leaves a few unpaid. */
async function payDue(db: DB, random: Random, nrApolice: string, now: Date) {
  const installments = await db
    .selectFrom('installments as i')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['i.numero', 'i.vencimento', 'a.forma_pagamento', 'a.generation'])
    .where('a.nr_apolice', '=', nrApolice)
    .orderBy('i.numero')
    .execute();
  for (const { numero, vencimento, forma_pagamento: method, generation } of installments) {
    const paidOn = new Date(`${vencimento}T14:00:00-03:00`);
    if (paidOn > now || random() < ODDS.unpaid) return;
    const charge = await currentCharge(db, { kind: 'all' }, generation, nrApolice, numero);
    const code = method === 'pix' ? charge.pixCopiaECola : charge.linhaDigitavel;
    await payCharge(db, { code, externalId: `demo-historico:${nrApolice}:${numero}`, origem: 'BANCO_DEMO' }, paidOn);
  }
}

/** The insured cancels (total, sold the insured good) at `at`, refunded to their CPF's Pix key. */
async function cancel(db: DB, who: HistorySeller, nrApolice: string, at: Date) {
  const { userId, generation } = who.cancelAs;
  const policy = await db
    .selectFrom('policies')
    .select(['id_contratacao', 'generation'])
    .where('nr_apolice', '=', nrApolice)
    .executeTakeFirstOrThrow();
  if (policy.generation !== generation) return;
  const day = brasiliaDay(at);
  const actor = { userId, insurerStaff: false };
  const context = () => cancellationContext(db, { kind: 'all' }, generation, policy.id_contratacao, actor, day);
  await saveReason(db, await context(), { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: day }, at);
  await saveCoverages(db, await context(), { escopo: 'TOTAL' }, at);
  const { draft, insuredDocument } = await context();
  if (!draft) return;
  const conta = { tipo: 'PIX', chave: insuredDocument };
  await confirmCancellation(db, { kind: 'all' }, generation, policy.id_contratacao, actor, { chave: draft.chave, conta }, at);
}

/** The instant of the `index`-th of `count` sales of the month starting at `monthStart`, between 9h and 18h Brasília. */
function saleInstant(random: Random, monthStart: Date, monthEnd: Date, index: number, count: number): Date {
  const span = monthEnd.getTime() - monthStart.getTime();
  const dayStart = monthStart.getTime() + Math.floor((((index + random()) / count) * span) / DAY_MS) * DAY_MS;
  return new Date(dayStart + (12 + random() * 9) * 3_600_000); // monthStart is 03:00 UTC = 00:00 in Brasília
}

/** `progress` hears each month once its sales are made (the first start prints it: the server is not listening yet). */
export async function seedDemoHistory(db: DB, now: Date, progress?: (months: number, of: number) => void): Promise<void> {
  const sellers: { weight: number; who: HistorySeller }[] = [];
  for (const { email, weight } of SELLERS) {
    const who = await historySeller(db, email);
    if (who) sellers.push({ weight, who });
  }
  const adminId = (await findUserByEmail(db, 'admin@seguradora.demo'))?.id;
  if (sellers.length === 0 || adminId === undefined) return;
  const [year, month] = brasiliaDay(now).split('-').map(Number) as [number, number];
  const toCancel: { who: HistorySeller; nrApolice: string; at: Date }[] = [];

  for (const [position, count] of MONTHLY_SALES.entries()) {
    const back = MONTHLY_SALES.length - 1 - position;
    const monthStart = new Date(Date.UTC(year, month - 1 - back, 1, 3));
    const nextMonth = new Date(Date.UTC(year, month - back, 1, 3));
    // The current month runs up to yesterday: a sale of today would be later than the clock.
    const monthEnd = back === 0 ? new Date(Math.max(monthStart.getTime() + DAY_MS, now.getTime() - DAY_MS)) : nextMonth;
    const sales =
      back === 0 ? Math.round((count * (monthEnd.getTime() - monthStart.getTime())) / (nextMonth.getTime() - monthStart.getTime())) : count;
    for (let index = 0; index < sales; index++) {
      // Each sale draws from a sequence of its own: how many draws the clock lets happen (installments
      // due by now, cancellations already past) never shifts what the next sales are, so the year has
      // the same shape whatever the hour it is generated at.
      const random = randomSequence(SEED * 10_000 + position * 1_000 + index);
      const at = saleInstant(random, monthStart, monthEnd, index, sales);
      if (at >= now) continue;
      const { who } = weighted(random, sellers);
      const offers = await who.offers(at);
      const wanted = weighted(random, PRODUCTS).code;
      const offer = offers.find((o) => o.code === wanted) ?? offers.find((o) => o.code === 'RES');
      if (!offer) continue;
      const sent = await sell(db, random, who, offer, at);
      if (!sent) continue;
      let nrApolice = sent.quote.proposta?.nrApolice ?? undefined;
      // A referral the insurer accepts two days later, as its analysts would (none left waiting a year).
      if (!nrApolice && sent.nrProposta && at.getTime() + 2 * DAY_MS < now.getTime()) {
        await decideProposal(db, adminId, sent.nrProposta, { decisao: 'ACEITAR' }, new Date(at.getTime() + 2 * DAY_MS));
        nrApolice = (
          await db
            .selectFrom('policies as a')
            .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
            .select('a.nr_apolice')
            .where('p.nr_proposta', '=', sent.nrProposta)
            .executeTakeFirst()
        )?.nr_apolice;
      }
      if (!nrApolice) continue;
      const cancelAt = new Date(at.getTime() + (30 + Math.floor(random() * 60)) * DAY_MS);
      const cancelled = random() < ODDS.cancelled;
      if (cancelAt < now && cancelled) toCancel.push({ who, nrApolice, at: cancelAt });
      await payDue(db, random, nrApolice, toCancel.at(-1)?.nrApolice === nrApolice ? cancelAt : now);
    }
    progress?.(position + 1, MONTHLY_SALES.length);
  }
  // Cancelled in the order they happened, after every sale: the clawbacks fall in their months.
  for (const { who, nrApolice, at } of toCancel.sort((a, b) => a.at.getTime() - b.at.getTime())) await cancel(db, who, nrApolice, at);
  await seedTargets(db, randomSequence(SEED), adminId, now);
}

/**
 * Targets as a sales manager sets them: each company's past months at 80–130 % of what it went on to
 * sell (so the attainment varies as it does in life), and the current month — for each company, point
 * of sale and seller — at 110 % of its last three months' average.
 */
async function seedTargets(db: DB, random: Random, adminId: number, now: Date) {
  const months = lastMonths(brasiliaDay(now));
  const current = months[months.length - 1]!;
  const sold = new Map<string, number>();
  const subjects = new Map<string, { nivel: 'empresa' | 'ponto_venda' | 'vendedor'; ref: number; company: number }>();
  const policies = await db
    .selectFrom('policies')
    .select(['company_id', 'point_of_sale_id', 'user_id', 'emitida_em', 'premio_total'])
    .where('company_id', 'is not', null)
    .execute();
  for (const p of policies) {
    const company = p.company_id!;
    const month = monthOf(p.emitida_em);
    const refs = [
      ['empresa', company],
      ['ponto_venda', p.point_of_sale_id],
      ['vendedor', p.user_id],
    ] as const;
    for (const [nivel, ref] of refs) {
      if (ref === null) continue;
      subjects.set(`${nivel}:${ref}`, { nivel, ref, company });
      sold.set(`${nivel}:${ref}:${month}`, (sold.get(`${nivel}:${ref}:${month}`) ?? 0) + p.premio_total);
    }
  }
  const toHundreds = (cents: number) => Math.max(500_00, Math.round(cents / 500_00) * 500_00);
  const rows = [];
  for (const [key, { nivel, ref, company }] of subjects) {
    const of = (month: string) => sold.get(`${key}:${month}`) ?? 0;
    const recent = (of(months.at(-2)!) + of(months.at(-3)!) + of(months.at(-4)!)) / 3;
    const targets: [string, number][] = [[current, toHundreds(recent * 1.1)]];
    if (nivel === 'empresa') for (const month of months.slice(0, -1)) targets.push([month, toHundreds(of(month) * (0.8 + random() * 0.5))]);
    for (const [mes, valor] of targets)
      rows.push({ nivel, ref_id: ref, company_id: company, mes, valor, definida_por: adminId, updated_at: now });
  }
  if (rows.length > 0) await db.insertInto('sales_targets').values(rows).execute();
}
