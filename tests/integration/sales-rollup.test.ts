import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { aggregatedRows, rollupRows, type RollupRow } from '../fixtures/sales-rollup';
import { HOUSE, sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { decideProposal } from '../../src/server/services/after-sale/acceptance';
import {
  applyScheduledCancellations,
  cancellationContext,
  confirmCancellation,
  saveCoverages,
  saveReason,
  undoScheduledCancellation,
} from '../../src/server/services/after-sale/cancellation';
import { createQuote, saveStep, sendProposal } from '../../src/server/services/selling/quotes';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { salesDataScopeFor, scopeFor } from '../../src/server/services/identity/scope';
import { metricsOptions, resolveFilters, salesEvolution } from '../../src/server/services/reporting/metrics';

/**
 * Issue 29 (migration 028): the metrics' rollup sales_monthly is kept by the database as the real
 * services sell, propose, issue, collect and cancel — after every step it holds exactly what an
 * aggregation over quotes, proposals, policies and installments gives — and an operator's UPDATE
 * moving a sale to another seller, day or quote moves its counts with it.
 */
let db: DB;
let close: () => Promise<void>;

const PARTNER = 'parceiro@parceiro.demo';
const IGOR = 'igor.pereira@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const TODAY = '2026-11-24';
const at = (iso: string) => new Date(`${iso}T15:00:00Z`);
const PIX = { tipo: 'PIX', chave: DEMO_INSURED.residencial.cpf };

async function expectRollupRight() {
  const [kept, aggregated] = await Promise.all([rollupRows(db), aggregatedRows(db)]);
  expect(kept).toEqual(aggregated);
  return kept;
}

const totalOf = (rows: RollupRow[], counter: string) => rows.reduce((sum, r) => sum + Number(r[counter]), 0);

async function sellerOf(email: string) {
  const user = await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true });
  return { user, seller: await sellerFromV2(db, user) };
}

async function pay(nrApolice: string, numero: number, when: Date) {
  const boletos = await scopeFor(db, await viewerByEmail(db, PARTNER), 'BOLETOS');
  const charge = await currentCharge(db, boletos, 'v2', nrApolice, numero);
  await payCharge(db, { code: charge.linhaDigitavel, externalId: `rollup-${nrApolice}-${numero}`, origem: 'BANCO_DEMO' }, when);
}

async function policyRow(nrApolice: string) {
  return db
    .selectFrom('policies')
    .select(['id', 'id_contratacao', 'quote_id', 'user_id', 'company_id', 'status'])
    .where('nr_apolice', '=', nrApolice)
    .executeTakeFirstOrThrow();
}

async function cancel(idContratacao: number, efetivaEm: string, when: Date) {
  const viewer = await viewerByEmail(db, PARTNER);
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const actor = { userId: viewer.user.idUsuario, insurerStaff: false };
  const context = () => cancellationContext(db, scope, 'v2', idContratacao, actor, when.toISOString().slice(0, 10));
  await saveReason(db, await context(), { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm }, when);
  await saveCoverages(db, await context(), { escopo: 'TOTAL' }, when);
  const { draft } = await context();
  await confirmCancellation(db, scope, 'v2', idContratacao, actor, { chave: draft!.chave, conta: PIX }, when);
  return { scope, actor };
}

async function evolutionOf(filters: Parameters<typeof resolveFilters>[1] = {}) {
  const { scope } = await salesDataScopeFor(db, await viewerByEmail(db, ADMIN), 'METRICAS');
  const resolved = resolveFilters(await metricsOptions(db, scope), filters);
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.errors));
  return salesEvolution(db, scope, resolved.value, TODAY);
}

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
}, 120_000);
afterAll(() => close());

describe('sales_monthly follows the services, step by step', () => {
  it('holds the demo seed as the sales aggregate it', async () => {
    const rows = await expectRollupRight();
    expect(totalOf(rows, 'quotes')).toBeGreaterThan(0);
  });

  it('sell, refer, accept, pay the first installment, cancel', async () => {
    const { user, seller } = await sellerOf(PARTNER);
    const sold = at('2026-04-06');
    const offer = (await sellableOffers(db, user, sold)).find((o) => o.code === 'RES')!;
    const quote = await createQuote(
      db,
      seller,
      offer,
      { segurado: DEMO_INSURED.residencial, respostas: { ...HOUSE, construcao: 'mista' } },
      sold,
    );
    const afterQuote = await expectRollupRight();
    await saveStep(db, seller, quote.nrCotacao, 'planos', { selecao: { plan: 'conforto', capitals: {} } }, sold);
    await saveStep(
      db,
      seller,
      quote.nrCotacao,
      'contratacao',
      { contratacao: { formaPagamento: 'boleto', parcelas: 4, diaVencimento: 10 } },
      sold,
    );
    await expectRollupRight();

    // 'mista' is referred: a proposal in analysis, no policy yet.
    const { nrProposta } = await sendProposal(db, seller, quote.nrCotacao, { aceiteTermo: true }, sold);
    const referred = await expectRollupRight();
    expect(totalOf(referred, 'proposals')).toBe(totalOf(afterQuote, 'proposals') + 1);
    expect(totalOf(referred, 'converted')).toBe(totalOf(afterQuote, 'converted'));

    const adminId = (await findUserByEmail(db, ADMIN))!.id;
    await decideProposal(db, adminId, nrProposta, { decisao: 'ACEITAR' }, at('2026-04-07'));
    const issued = await expectRollupRight();
    expect(totalOf(issued, 'policies')).toBe(totalOf(referred, 'policies') + 1);
    expect(totalOf(issued, 'converted')).toBe(totalOf(referred, 'converted') + 1);

    const policy = await db
      .selectFrom('policies as a')
      .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
      .select(['a.nr_apolice', 'a.id_contratacao', 'a.premio_total'])
      .where('p.nr_proposta', '=', nrProposta)
      .executeTakeFirstOrThrow();
    expect(totalOf(issued, 'premium')).toBe(totalOf(referred, 'premium') + policy.premio_total);

    await pay(policy.nr_apolice, 1, at('2026-04-08'));
    const paid = await expectRollupRight();
    expect(totalOf(paid, 'paid')).toBe(totalOf(issued, 'paid') + 1);
    await pay(policy.nr_apolice, 2, at('2026-04-10'));
    expect(totalOf(await expectRollupRight(), 'paid')).toBe(totalOf(paid, 'paid'));

    await cancel(policy.id_contratacao, '2026-04-20', at('2026-04-20'));
    expect((await policyRow(policy.nr_apolice)).status).toBe('CANCELADA');
    const cancelled = await expectRollupRight();
    expect(totalOf(cancelled, 'cancelled')).toBe(totalOf(paid, 'cancelled') + 1);
    expect(totalOf(cancelled, 'policies')).toBe(totalOf(paid, 'policies'));
  });

  it('a cancellation scheduled, undone, scheduled again and applied on its day', async () => {
    const { nrApolice } = await sellResidential(db, { at: at('2026-03-02') });
    const policy = await policyRow(nrApolice!);
    await expectRollupRight();
    const { scope, actor } = await cancel(policy.id_contratacao, '2026-06-01', at('2026-04-01'));
    await expectRollupRight();
    await undoScheduledCancellation(db, scope, 'v2', policy.id_contratacao, actor, at('2026-04-02'));
    const undone = await expectRollupRight();
    await cancel(policy.id_contratacao, '2026-05-15', at('2026-04-03'));
    expect(await applyScheduledCancellations(db, at('2026-05-15'))).toBe(1);
    expect((await policyRow(nrApolice!)).status).toBe('CANCELADA');
    expect(totalOf(await expectRollupRight(), 'cancelled')).toBe(totalOf(undone, 'cancelled') + 1);
  });
});

describe('the filters’ choices', () => {
  it('a page of one generation offers that generation’s sellers only; without one, every seller', async () => {
    const generationOf = new Map((await db.selectFrom('users').select(['id', 'generation']).execute()).map((u) => [u.id, u.generation]));
    const all = (await metricsOptions(db, { kind: 'all' })).sellers;
    for (const generation of ['v1', 'v2'] as const) {
      const sellers = (await metricsOptions(db, { kind: 'all' }, generation)).sellers;
      expect(sellers.length).toBeGreaterThan(0);
      expect(sellers.every((s) => generationOf.get(s.id) === generation)).toBe(true);
      expect(sellers).toEqual(all.filter((s) => generationOf.get(s.id) === generation));
    }
  });
});

describe("an operator's fix moves the counts with the sale", () => {
  it('an UPDATE moving a policy to another seller moves its policy, premium and cancellation', async () => {
    const { nrApolice } = await sellResidential(db, { at: at('2026-02-10') });
    const policy = await policyRow(nrApolice!);
    const options = await metricsOptions(db, (await salesDataScopeFor(db, await viewerByEmail(db, ADMIN), 'METRICAS')).scope);
    const igor = options.sellers.find((s) => s.name === 'Igor Pereira')!;
    const eduarda = policy.user_id;
    const before = { igor: (await evolutionOf({ vendedor: igor.id })).totals, eduarda: (await evolutionOf({ vendedor: eduarda })).totals };

    await db.updateTable('policies').set({ user_id: igor.id }).where('id', '=', policy.id).execute();
    await expectRollupRight();
    const premium = (await db.selectFrom('policies').select('premio_total').where('id', '=', policy.id).executeTakeFirstOrThrow())
      .premio_total;
    const moved = { igor: (await evolutionOf({ vendedor: igor.id })).totals, eduarda: (await evolutionOf({ vendedor: eduarda })).totals };
    expect(moved.igor).toEqual({ ...before.igor, policies: before.igor.policies + 1, premium: before.igor.premium + premium });
    expect(moved.eduarda).toEqual({ ...before.eduarda, policies: before.eduarda.policies - 1, premium: before.eduarda.premium - premium });

    // To another company, issued a month later, cancelled: each column moves it.
    const valeVerde = (await findUserByEmail(db, SUBAGENT))!;
    await db
      .updateTable('policies')
      .set({
        user_id: valeVerde.id,
        company_id: valeVerde.company_id,
        point_of_sale_id: null,
        emitida_em: at('2026-03-10'),
        status: 'CANCELADA',
      })
      .where('id', '=', policy.id)
      .execute();
    await expectRollupRight();
    expect((await evolutionOf({ vendedor: igor.id })).totals).toEqual(before.igor);
  });

  it('a quote moved to another seller and day takes its proposal, policy and paid installment along; a policy moved to another quote too', async () => {
    const { nrCotacao, nrApolice } = await sellResidential(db, {
      at: at('2026-01-12'),
      contratacao: { formaPagamento: 'pix', parcelas: 1 },
    });
    const policy = await policyRow(nrApolice!);
    const charge = await currentCharge(db, { kind: 'all' }, 'v2', nrApolice!, 1);
    await payCharge(db, { code: charge.pixCopiaECola!, externalId: 'rollup-pix', origem: 'BANCO_DEMO' }, at('2026-01-12'));
    await expectRollupRight();
    const igor = (await findUserByEmail(db, IGOR))!;
    await sql`update quotes set user_id = ${igor.id}, created_at = ${at('2026-01-05')} where nr_cotacao = ${nrCotacao}`.execute(db);
    const rows = await expectRollupRight();
    const january = rows.find((r) => r.mes === '2026-01-01' && r.user_id === igor.id)!;
    expect(january).toMatchObject({ quotes: 1, proposals: 1, converted: 1, paid: 1 });

    // The policy's funnel stage (with its paid first installment) to another quote of the day before.
    const other = await sellResidential(db, { at: at('2026-01-04'), respostas: { ...HOUSE, construcao: 'mista' } });
    const otherQuote = await db.selectFrom('quotes').select('id').where('nr_cotacao', '=', other.nrCotacao).executeTakeFirstOrThrow();
    await db.updateTable('policies').set({ quote_id: otherQuote.id }).where('id', '=', policy.id).execute();
    await expectRollupRight();
    // An installment's own fix: the first one back to open, then paid again.
    await db.updateTable('installments').set({ status: 'ABERTA' }).where('policy_id', '=', policy.id).where('numero', '=', 1).execute();
    await expectRollupRight();
    await db.updateTable('installments').set({ status: 'PAGA' }).where('policy_id', '=', policy.id).where('numero', '=', 1).execute();
    await expectRollupRight();
  });

  it('a quote deleted with nothing hanging from it leaves the funnel; rebuild_sales_monthly() gives what the triggers kept', async () => {
    const { user, seller } = await sellerOf(PARTNER);
    const offer = (await sellableOffers(db, user, at('2026-05-05'))).find((o) => o.code === 'RES')!;
    const quote = await createQuote(db, seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, at('2026-05-05'));
    await expectRollupRight();
    await db.deleteFrom('quotes').where('nr_cotacao', '=', quote.nrCotacao).execute();
    const kept = await expectRollupRight();
    await sql`select rebuild_sales_monthly()`.execute(db);
    expect(await rollupRows(db)).toEqual(kept);
  });
});
