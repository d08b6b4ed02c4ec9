import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { brasiliaDay } from '../../src/lib/format';
import { nextTerm, RENEWAL_MESSAGES, RENEWAL_STATE_LABELS } from '../../src/lib/renewals';
import { POLICY_STATUS_LABELS } from '../../src/lib/policies';
import { newCountOf } from '../../src/lib/worklist';
import { price } from '../../src/lib/products/engine';
import { productFor } from '../../src/lib/products/catalog';
import { ratingAnswers } from '../../src/lib/quotes';
import { scopeFor, salesDataScopeFor } from '../../src/server/services/identity/scope';
import { sellableOffersV1 } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV1User } from '../../src/server/services/identity/principals';
import { createQuote, findQuote, saveStep, sendProposal, type Seller } from '../../src/server/services/selling/quotes';
import { sellerFromV1, sellerFromV2 } from '../../src/server/services/selling/sellers';
import { listRenewals, renewalSummary, startRenewal } from '../../src/server/services/selling/renewals';
import { findPolicy, listPolicies } from '../../src/server/services/after-sale/policies';
import { renewalRates } from '../../src/server/services/reporting/metrics';
import { worklist, worklistNewCount } from '../../src/server/services/reporting/worklist';
import type { SessionViewer } from '../../src/lib/session';
import { keysetPager, pageRequestOf } from '../../src/lib/keyset-pages';

/**
 * Issue 31: renewals. Who sees which policy coming up for renewal (the one scoping function), one open
 * renewal quote per policy, the renewal sold through the usual steps and the policies linked both
 * ways, refusals in pt-BR, and the renewal rate's rollup (migration 039) equal to a recount after
 * renewals and cancellations.
 */
let db: DB;
let close: () => Promise<void>;

const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const IGOR = 'igor.pereira@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const LEGACY = 'vendedor@legado.demo';
const DAY_MS = 86_400_000;
const NOW = new Date();
const TODAY = brasiliaDay(NOW);
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
/** Brasília's midnight of today: a cancellation then takes effect today, whatever the hour in UTC. */
const TODAY_START = new Date(`${TODAY}T03:00:00Z`);

/** Sold 340 days ago: its term ends in about 25 days. */
let partnerEnding: string;
let igorEnding: string;
let legacyEnding: string;
/** Sold 290 days ago: ends in about 75 days, outside the window. */
let partnerLater: string;

async function sellLegacy(at: Date) {
  const user = await loadV1User(db, (await findUserByEmail(db, LEGACY))!);
  const seller = await sellerFromV1(db, user);
  const offer = (await sellableOffersV1(db, user, at)).find((o) => o.code === 'RES')!;
  const quote = await createQuote(db, seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, at);
  await saveStep(db, seller, quote.nrCotacao, 'planos', { selecao: { plan: 'conforto', capitals: {} } }, at);
  await saveStep(db, seller, quote.nrCotacao, 'contratacao', { contratacao: { formaPagamento: 'pix', parcelas: 1 } }, at);
  const { quote: sent } = await sendProposal(db, seller, quote.nrCotacao, { aceiteTermo: true }, at);
  return sent.proposta!.nrApolice!;
}
const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 450_000_00, alarme: true };

async function sellerAndScope(email: string): Promise<{ viewer: SessionViewer; seller: Seller }> {
  const viewer = await viewerByEmail(db, email);
  const seller = viewer.generation === 'v2' ? await sellerFromV2(db, viewer.user) : await sellerFromV1(db, viewer.user);
  return { viewer, seller };
}

const listed = async (email: string, filters = {}) => {
  const viewer = await viewerByEmail(db, email);
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const page = await listRenewals(db, scope, viewer.generation, filters, { page: 1 }, TODAY, NOW);
  return page.content;
};

/** Renovar as the user of `email` would click it. */
async function renew(email: string, nrApolice: string, now = NOW) {
  const viewer = await viewerByEmail(db, email);
  const scope = await scopeFor(db, viewer, 'APOLICES');
  return startRenewal(db, scope, viewer, nrApolice, brasiliaDay(now), now);
}

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  partnerEnding = (await sellResidential(db, { at: daysAgo(340), contratacao: { formaPagamento: 'pix', parcelas: 1 } })).nrApolice!;
  igorEnding = (await sellResidential(db, { email: IGOR, at: daysAgo(345), contratacao: { formaPagamento: 'pix', parcelas: 1 } }))
    .nrApolice!;
  partnerLater = (await sellResidential(db, { at: daysAgo(290), contratacao: { formaPagamento: 'pix', parcelas: 1 } })).nrApolice!;
  legacyEnding = await sellLegacy(daysAgo(340));
}, 120_000);
afterAll(() => close());

describe('the renewals list', () => {
  const sold = () => ({ partnerEnding, igorEnding, legacyEnding });
  type Sold = keyof ReturnType<typeof sold>;
  it.each<[string, string, Sold[], Sold[]]>([
    ['the seller sees their own', PARTNER, ['partnerEnding'], ['igorEnding']],
    ['another seller of the company, theirs', IGOR, ['igorEnding'], ['partnerEnding']],
    ['the partner admin, the company’s', PARTNER_ADMIN, ['partnerEnding', 'igorEnding'], []],
    ['the provider’s admin, every v2 policy', ADMIN, ['partnerEnding', 'igorEnding'], ['legacyEnding']],
    ['a sub-delegated user without the operation, none', SUBAGENT, [], ['partnerEnding', 'igorEnding']],
    ['the legacy seller, their legacy one only', LEGACY, ['legacyEnding'], ['partnerEnding', 'igorEnding']],
  ])('%s', async (_, email, sees, doesNot) => {
    const numbers = (await listed(email)).map((r) => r.nrApolice);
    for (const key of sees) expect(numbers).toContain(sold()[key]);
    for (const key of doesNot) expect(numbers).not.toContain(sold()[key]);
    // Never a policy ending after the window.
    expect(numbers).not.toContain(partnerLater);
  });

  it('orders by end date, says the days left, and filters by seller and product', async () => {
    const rows = await listed(PARTNER_ADMIN);
    const ends = rows.map((r) => r.fimVigencia);
    expect(ends).toEqual([...ends].sort());
    const igor = rows.find((r) => r.nrApolice === igorEnding)!;
    expect(igor).toMatchObject({ state: 'NAO_RENOVADA', productName: expect.any(String), seller: expect.any(String) });
    expect(igor.daysLeft).toBeGreaterThan(15);
    expect(igor.daysLeft).toBeLessThan(25);
    const igorId = (await findUserByEmail(db, IGOR))!.id;
    expect((await listed(PARTNER_ADMIN, { vendedor: igorId })).map((r) => r.nrApolice)).toEqual([igorEnding]);
    expect(await listed(PARTNER_ADMIN, { produto: 'VEU' })).toEqual([]);
  });
});

describe('the renewals list’s pages', () => {
  it('walks by cursor soonest first, each policy once, forward and back', async () => {
    for (let i = 0; i < 11; i++)
      await sellResidential(db, { email: IGOR, at: daysAgo(330 + i), contratacao: { formaPagamento: 'pix', parcelas: 1 } });
    const viewer = await viewerByEmail(db, PARTNER_ADMIN);
    const scope = await scopeFor(db, viewer, 'APOLICES');
    const page = (request: { page: number; cursor?: string }) =>
      listRenewals(db, scope, 'v2', {}, pageRequestOf(request.page, request.cursor), TODAY, NOW);
    const first = await page({ page: 1 });
    expect(first.content).toHaveLength(10);
    const next = keysetPager(first).next!;
    const second = await page(next);
    const seen = [...first.content, ...second.content].map((r) => `${r.fimVigencia} ${r.nrApolice}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => a.slice(0, 10).localeCompare(b.slice(0, 10))));
    expect(first.total).toBe(seen.length);
    const back = await page(keysetPager(second).previous!);
    expect(back.content.map((r) => r.nrApolice)).toEqual(first.content.map((r) => r.nrApolice));
  });
});

describe('Renovar', () => {
  it('outside the scope is a 404, and a policy not yet in its window is refused in pt-BR', async () => {
    await expect(renew(IGOR, partnerEnding)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(renew(PARTNER, partnerLater)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('60 dias') });
  });

  it('makes one quote for the next term, pre-filled and re-priced today; a second click goes to it', async () => {
    const first = await renew(PARTNER, partnerEnding);
    expect(first.created).toBe(true);
    expect(first.href).toBe(`/v2/simulador-residencial/cadastro/${first.nrCotacao}/editar`);
    const again = await renew(PARTNER, partnerEnding);
    expect(again).toMatchObject({ nrCotacao: first.nrCotacao, created: false });

    const { seller } = await sellerAndScope(PARTNER);
    const quote = (await findQuote(db, seller, first.nrCotacao, NOW))!;
    const original = await db
      .selectFrom('policies as a')
      .innerJoin('quotes as q', 'q.id', 'a.quote_id')
      .select(['a.id', 'a.fim_vigencia', 'q.segurado', 'q.respostas', 'q.selecao'])
      .where('a.nr_apolice', '=', partnerEnding)
      .executeTakeFirstOrThrow();
    expect(quote.segurado).toEqual(original.segurado);
    expect(quote.respostas).toEqual(original.respostas);
    expect(quote.selecao).toEqual(original.selecao);
    expect(quote.etapa).toBe('resumo');
    const product = productFor('RES')!;
    const today = price(product, ratingAnswers({ ...quote, createdAt: NOW }), quote.selecao!);
    expect(quote.precificacao?.total).toBe(today.total);
    const stored = await db
      .selectFrom('quotes')
      .select('renova_policy_id')
      .where('nr_cotacao', '=', first.nrCotacao)
      .executeTakeFirstOrThrow();
    expect(stored.renova_policy_id).toBe(original.id);

    const row = (await listed(PARTNER)).find((r) => r.nrApolice === partnerEnding)!;
    expect(row).toMatchObject({ state: 'COTADA', openQuote: { nrCotacao: first.nrCotacao } });
  });

  it('sold through the usual steps, the new policy starts the day after and both link; no second renewal', async () => {
    const { nrCotacao } = await renew(PARTNER, partnerEnding);
    const { seller, viewer } = await sellerAndScope(PARTNER);
    const { quote } = await sendProposal(db, seller, nrCotacao, { aceiteTermo: true }, NOW);
    const renewal = quote.proposta!.nrApolice!;
    expect(renewal).toBeTruthy();
    const scope = await scopeFor(db, viewer, 'APOLICES');
    const [old, fresh] = await Promise.all([
      findPolicy(db, scope, 'v2', partnerEnding, TODAY),
      findPolicy(db, scope, 'v2', renewal, TODAY),
    ]);
    expect(old!.renovadaPor).toBe(renewal);
    expect(fresh!.renova).toBe(partnerEnding);
    expect({ inicio: fresh!.inicioVigencia, fim: fresh!.fimVigencia }).toEqual(nextTerm(old!.fimVigencia));

    const row = (await listed(PARTNER)).find((r) => r.nrApolice === partnerEnding)!;
    expect(row).toMatchObject({ state: 'RENOVADA', renovadaPor: renewal, openQuote: null });
    await expect(renew(PARTNER, partnerEnding)).rejects.toMatchObject({ message: RENEWAL_MESSAGES.renewed(renewal) });
    const summary = await renewalSummary(db, scope, viewer, partnerEnding, TODAY, NOW);
    expect(summary?.refusal).toBe(RENEWAL_MESSAGES.renewed(renewal));
  });

  it('two clicks at once make one quote (the policy row is locked while deciding)', async () => {
    const [a, b] = await Promise.all([renew(IGOR, igorEnding), renew(IGOR, igorEnding)]);
    expect(a.nrCotacao).toBe(b.nrCotacao);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    const { id } = await db.selectFrom('policies').select('id').where('nr_apolice', '=', igorEnding).executeTakeFirstOrThrow();
    const quotes = await db.selectFrom('quotes').select('nr_cotacao').where('renova_policy_id', '=', id).execute();
    expect(quotes).toHaveLength(1);
  });

  it('a legacy policy renews in the legacy simulator', async () => {
    const started = await renew(LEGACY, legacyEnding);
    expect(started.href).toBe(`/simulador-residencial/cadastro/${started.nrCotacao}/editar`);
  });

  it('a cancelled policy cannot be renewed', async () => {
    const nr = (await sellResidential(db, { email: IGOR, at: daysAgo(342), contratacao: { formaPagamento: 'pix', parcelas: 1 } }))
      .nrApolice!;
    await cancelWholePolicy(db, IGOR, nr, TODAY_START);
    await expect(renew(IGOR, nr)).rejects.toMatchObject({ kind: 'conflict', message: RENEWAL_MESSAGES.cancelled });
    expect((await listed(IGOR)).map((r) => r.nrApolice)).not.toContain(nr);
  });

  it('a policy whose cancellation is scheduled is refused, naming the day, until the schedule is undone', async () => {
    const nr = (await sellResidential(db, { email: IGOR, at: daysAgo(341), contratacao: { formaPagamento: 'pix', parcelas: 1 } }))
      .nrApolice!;
    const policy = await db.selectFrom('policies').select(['id', 'user_id']).where('nr_apolice', '=', nr).executeTakeFirstOrThrow();
    const day = brasiliaDay(new Date(NOW.getTime() + 5 * DAY_MS));
    // As the cancellation's service leaves it (cancellation.test.ts schedules through the steps).
    const scheduled = await db
      .insertInto('scheduled_cancellations')
      .values({
        policy_id: policy.id,
        user_id: policy.user_id,
        chave: `agendado-${nr}`,
        dados: JSON.stringify({}),
        conta: null,
        solicitada_em: TODAY,
        efetiva_em: day,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = RENEWAL_MESSAGES.scheduledCancellation(day.split('-').reverse().join('/'));
    await expect(renew(IGOR, nr)).rejects.toMatchObject({ kind: 'conflict', message });
    const viewer = await viewerByEmail(db, IGOR);
    const summary = await renewalSummary(db, await scopeFor(db, viewer, 'APOLICES'), viewer, nr, TODAY, NOW);
    expect(summary!.refusal).toBe(message);
    // Nor is it on the worklist to renew meanwhile.
    const toRenew = async () =>
      (await worklist(db, viewer, { kind: 'RENOVACAO', now: NOW })).flatMap((g) => g.items).some((i) => i.what.includes(nr));
    expect(await toRenew()).toBe(false);
    await db.updateTable('scheduled_cancellations').set({ status: 'DESFEITO' }).where('id', '=', scheduled.id).execute();
    expect(await toRenew()).toBe(true);
    expect((await renew(IGOR, nr)).created).toBe(true);
  });
});

/** A policy of `email` sold `daysBefore` days ago, paid at once: it ends in about 365 − daysBefore days. */
const soldEnding = async (email: string, daysBefore: number) =>
  (await sellResidential(db, { email, at: daysAgo(daysBefore), contratacao: { formaPagamento: 'pix', parcelas: 1 } })).nrApolice!;

/** Renovar as `email`, then the renewal quote sold through to its policy by its seller: the renewal's number. */
async function renewAndSell(email: string, nrApolice: string): Promise<string> {
  const { nrCotacao } = await renew(email, nrApolice);
  const owner = await db
    .selectFrom('quotes as q')
    .innerJoin('users as u', 'u.id', 'q.user_id')
    .select('u.email')
    .where('q.nr_cotacao', '=', nrCotacao)
    .executeTakeFirstOrThrow();
  const { seller } = await sellerAndScope(owner.email);
  const { quote } = await sendProposal(db, seller, nrCotacao, { aceiteTermo: true }, NOW);
  return quote.proposta!.nrApolice!;
}

const summaryAs = async (email: string, nrApolice: string) => {
  const viewer = await viewerByEmail(db, email);
  return (await renewalSummary(db, await scopeFor(db, viewer, 'APOLICES'), viewer, nrApolice, TODAY, NOW))!;
};

const toRenewOf = async (email: string, nrApolice: string) =>
  (await worklist(db, await viewerByEmail(db, email), { kind: 'RENOVACAO', now: NOW }))
    .flatMap((g) => g.items)
    .find((i) => i.what.includes(nrApolice));

describe('issue 42: what a renewal says and does', () => {
  let renewal: string;

  it('a policy whose renewal is quoted says "Continuar a renovação"; once renewed it leaves "Apólices a renovar" and the bell', async () => {
    const nr = await soldEnding(PARTNER, 338);
    expect(await toRenewOf(PARTNER, nr)).toMatchObject({ action: 'Renovar', href: `/v2/renovacoes/${nr}` });
    await renew(PARTNER, nr);
    expect(await toRenewOf(PARTNER, nr)).toMatchObject({ action: 'Continuar a renovação' });
    renewal = await renewAndSell(PARTNER, nr);
    expect(await toRenewOf(PARTNER, nr)).toBeUndefined();
    const viewer = await viewerByEmail(db, PARTNER);
    const groups = await worklist(db, viewer, { now: NOW });
    expect(groups.flatMap((g) => g.items).some((i) => i.kind === 'RENOVACAO' && i.what.includes(nr))).toBe(false);
    expect(await worklistNewCount(db, viewer, NOW)).toBe(newCountOf(groups));
  });

  it('a renewal not yet in force reads "A iniciar", not "Vigente" — in the list, its page and its filter', async () => {
    const viewer = await viewerByEmail(db, PARTNER);
    const scope = await scopeFor(db, viewer, 'APOLICES');
    const detail = (await findPolicy(db, scope, 'v2', renewal, TODAY))!;
    expect(detail.inicioVigencia > TODAY).toBe(true);
    expect(detail.status).toBe('A_INICIAR');
    const numbers = async (situacao: string) =>
      (await listPolicies(db, scope, 'v2', { situacao } as never, { page: 1 }, TODAY)).content.map((r) => r.nrApolice);
    expect(await numbers('A_INICIAR')).toContain(renewal);
    expect(await numbers('VIGENTE')).not.toContain(renewal);
    expect(POLICY_STATUS_LABELS.A_INICIAR).toBe('A iniciar');
  });

  it('the renewal quote says what it renews: the policy and the next term', async () => {
    const nr = await soldEnding(PARTNER, 337);
    const { nrCotacao } = await renew(PARTNER, nr);
    const { seller } = await sellerAndScope(PARTNER);
    const quote = (await findQuote(db, seller, nrCotacao, NOW))!;
    const policy = await db.selectFrom('policies').select('fim_vigencia').where('nr_apolice', '=', nr).executeTakeFirstOrThrow();
    expect(quote.renovacao).toEqual({ nrApolice: nr, ...nextTerm(policy.fim_vigencia) });
    const other = await sellResidential(db, { at: NOW });
    expect((await findQuote(db, seller, other.nrCotacao, NOW))!.renovacao).toBeNull();
  });

  it('a renewal cancelled from its first day (never in force) leaves the policy it renewed renewable again', async () => {
    const nr = await soldEnding(IGOR, 336);
    const first = await renewAndSell(IGOR, nr);
    expect((await summaryAs(IGOR, nr)).renovadaPor).toBe(first);
    const start = (await db.selectFrom('policies').select('inicio_vigencia').where('nr_apolice', '=', first).executeTakeFirstOrThrow())
      .inicio_vigencia;
    await cancelWholePolicy(db, IGOR, first, NOW, start);
    // Never paid, never in force: nothing "covers" a period, and the seller is not told of a refund (issue 42, item 15).
    const mail = async (template: string) =>
      (
        await db
          .selectFrom('emails')
          .select('text_body')
          .where('template', '=', template)
          .where('text_body', 'like', `%${first}%`)
          .executeTakeFirstOrThrow()
      ).text_body;
    const insured = await mail('cancelamento-segurado');
    expect(insured).toContain('Não há valor a restituir: nada foi pago nesta apólice.');
    expect(insured).not.toContain('cobre o período');
    const seller = await mail('cancelamento-vendedor');
    expect(seller).toContain('Restituição ao segurado: nenhuma.');
    expect(seller).toContain('O segurado foi avisado por e-mail do cancelamento; não há restituição.');
    expect(seller).not.toContain('recebe a restituição');
    const summary = await summaryAs(IGOR, nr);
    expect(summary).toMatchObject({ renovadaPor: null, state: 'NAO_RENOVADA' });
    expect(summary.refusal).toBeUndefined();
    expect((await listed(IGOR)).find((r) => r.nrApolice === nr)).toMatchObject({ state: 'NAO_RENOVADA', renovadaPor: null });
    expect(await toRenewOf(IGOR, nr)).toMatchObject({ action: 'Renovar' });
    // Renewed again: a second renewal policy of the same one (the cancelled one keeps its link back).
    const second = await renewAndSell(IGOR, nr);
    expect((await summaryAs(IGOR, nr)).renovadaPor).toBe(second);
    const viewer = await viewerByEmail(db, IGOR);
    expect((await findPolicy(db, await scopeFor(db, viewer, 'APOLICES'), 'v2', first, TODAY))!.renova).toBe(nr);
  });

  it('a policy whose cancellation is scheduled is not offered "Renovar" in the list, which says why', async () => {
    const nr = await soldEnding(IGOR, 335);
    const policy = await db.selectFrom('policies').select(['id', 'user_id']).where('nr_apolice', '=', nr).executeTakeFirstOrThrow();
    const day = brasiliaDay(new Date(NOW.getTime() + 7 * DAY_MS));
    await db
      .insertInto('scheduled_cancellations')
      .values({
        policy_id: policy.id,
        user_id: policy.user_id,
        chave: `agendado-${nr}`,
        dados: JSON.stringify({}),
        conta: null,
        solicitada_em: TODAY,
        efetiva_em: day,
      })
      .execute();
    const row = (await listed(IGOR)).find((r) => r.nrApolice === nr)!;
    expect(row.state).toBe('CANCELAMENTO_AGENDADO');
    expect(row.refusal).toBe(RENEWAL_MESSAGES.scheduledCancellation(day.split('-').reverse().join('/')));
    expect(RENEWAL_STATE_LABELS[row.state]).toBe('Cancelamento agendado');
  });

  it('the policy’s seller sells the renewal while active, whoever clicks; else the one who clicks — and the page says who first', async () => {
    const JULIANA = 'juliana.costa@parceiro.demo';
    const [igor, juliana, manager] = await Promise.all([IGOR, JULIANA, PARTNER_ADMIN].map((e) => findUserByEmail(db, e)));
    // The manager clicks on Igor's policy: Igor keeps it.
    const igors = await soldEnding(IGOR, 334);
    expect((await summaryAs(PARTNER_ADMIN, igors)).renewalSeller).toEqual({ nome: igor!.nome, policySeller: true, viewer: false });
    expect((await summaryAs(IGOR, igors)).renewalSeller).toEqual({ nome: igor!.nome, policySeller: true, viewer: true });
    const started = await renew(PARTNER_ADMIN, igors);
    const quote = await db.selectFrom('quotes').selectAll().where('nr_cotacao', '=', started.nrCotacao).executeTakeFirstOrThrow();
    const sold = await db.selectFrom('policies').selectAll().where('nr_apolice', '=', igors).executeTakeFirstOrThrow();
    expect({ user: quote.user_id, company: quote.company_id, pos: quote.point_of_sale_id }).toEqual({
      user: igor!.id,
      company: sold.company_id,
      pos: sold.point_of_sale_id,
    });
    // The manager reads it (only its seller changes it): the address opens it read-only.
    expect(started.href).toMatch(/\/visualizar$/);
    // Juliana left: whoever clicks sells it, and is told so before.
    const julianas = await soldEnding(JULIANA, 333);
    await db.updateTable('users').set({ status: 'INATIVO' }).where('id', '=', juliana!.id).execute();
    try {
      expect((await summaryAs(PARTNER_ADMIN, julianas)).renewalSeller).toEqual({
        nome: manager!.nome,
        policySeller: false,
        viewer: true,
        instead: juliana!.nome,
      });
      const mine = await renew(PARTNER_ADMIN, julianas);
      const made = await db.selectFrom('quotes').select('user_id').where('nr_cotacao', '=', mine.nrCotacao).executeTakeFirstOrThrow();
      expect(made.user_id).toBe(manager!.id);
      expect(mine.href).toMatch(/\/editar$/);
    } finally {
      await db.updateTable('users').set({ status: 'ATIVO' }).where('id', '=', juliana!.id).execute();
    }
  });
});

describe('the renewal rate', () => {
  const recount = async () => {
    const { rows } = await sql<
      Record<string, unknown>
    >`select mes::text as mes, coalesce(company_id, 0) as c, coalesce(point_of_sale_id, 0) as p,
        user_id, simulator_code, sum(ending)::int as ending, sum(renewed)::int as renewed from (
        select date_trunc('month', fim_vigencia)::date as mes, company_id, point_of_sale_id, user_id, simulator_code,
          (status <> 'CANCELADA')::int as ending, (status <> 'CANCELADA' and renovada_por_id is not null)::int as renewed
        from policies) x group by 1, 2, 3, 4, 5 having sum(ending) <> 0 order by 1, 2, 3, 4, 5`.execute(db);
    return rows;
  };
  const kept = async () => {
    const { rows } = await sql<
      Record<string, unknown>
    >`select mes::text as mes, coalesce(company_id, 0) as c, coalesce(point_of_sale_id, 0) as p,
        user_id, simulator_code, sum(ending)::int as ending, sum(renewed)::int as renewed from renewals_monthly
        group by 1, 2, 3, 4, 5 having sum(ending) <> 0 order by 1, 2, 3, 4, 5`.execute(db);
    return rows;
  };

  it('the rollup equals a recount after renewals and cancellations, and after a rebuild', async () => {
    expect(await kept()).toEqual(await recount());
    await sql`select rebuild_renewals_monthly()`.execute(db);
    expect(await kept()).toEqual(await recount());
  });

  it('counts the renewed over the ending of the month, cancelled ones out', async () => {
    const viewer = await viewerByEmail(db, PARTNER_ADMIN);
    const { scope } = await salesDataScopeFor(db, viewer, 'METRICAS');
    const month = (
      await db.selectFrom('policies').select('fim_vigencia').where('nr_apolice', '=', partnerEnding).executeTakeFirstOrThrow()
    ).fim_vigencia.slice(0, 7);
    const before = (await renewalRates(db, scope, {}, [month])).months[0]!;
    // partnerEnding was renewed above; the policies of the company ending that month are counted.
    expect(before.renewed).toBeGreaterThanOrEqual(1);
    const { rows } = await sql<{ ending: number; renewed: number }>`select count(*)::int as ending,
        count(*) filter (where renovada_por_id is not null)::int as renewed
      from policies a join companies c on c.id = a.company_id
      where to_char(a.fim_vigencia, 'YYYY-MM') = ${month} and a.status <> 'CANCELADA'
        and a.company_id in (select company_id from users where email = ${PARTNER_ADMIN})`.execute(db);
    expect({ ending: before.ending, renewed: before.renewed }).toEqual(rows[0]);
    // Cancelling the one renewed takes it out of both.
    await cancelWholePolicy(db, PARTNER, partnerEnding, TODAY_START);
    const after = (await renewalRates(db, scope, {}, [month])).months[0]!;
    expect(after).toMatchObject({ ending: before.ending - 1, renewed: before.renewed - 1 });
    expect(await kept()).toEqual(await recount());
  });
});
