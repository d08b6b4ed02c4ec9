import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { createQuote } from '../../src/server/services/selling/quotes';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { salesDataScopeFor } from '../../src/server/services/identity/scope';
import { metricsOptions, resolveFilters, salesAttainment, salesEvolution, saveTarget } from '../../src/server/services/reporting/metrics';
import { METRICS_MESSAGES } from '../../src/lib/metrics';

/**
 * Issue 15, metrics and targets (decision 043): what the scope sold, month by month in Brasília, per
 * product and through the funnel, read from sales made through the real services; whose sales each
 * viewer counts; targets set only for subjects of the scope, replaced when set again.
 */
let db: DB;
let close: () => Promise<void>;

const PARTNER = 'parceiro@parceiro.demo';
const IGOR = 'igor.pereira@parceiro.demo';
const JULIANA = 'juliana.costa@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';
const TODAY = '2026-11-24';
const NOW = new Date('2026-11-24T15:00:00Z');

async function scopeOf(email: string) {
  return salesDataScopeFor(db, await viewerByEmail(db, email), 'METRICAS');
}

async function evolutionOf(email: string, filters: Parameters<typeof resolveFilters>[1] = {}) {
  const { scope } = await scopeOf(email);
  const options = await metricsOptions(db, scope);
  const resolved = resolveFilters(options, filters);
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.errors));
  return salesEvolution(db, scope, resolved.value, TODAY);
}

const premiumOf = async (nrApolice: string) =>
  (await db.selectFrom('policies').select('premio_total').where('nr_apolice', '=', nrApolice).executeTakeFirstOrThrow()).premio_total;

const sold: Record<string, string> = {};
/** The demo's own quotes and policies (this month's): what the sales below add to. */
let before: Awaited<ReturnType<typeof evolutionOf>>;
/** Policies issued in March and April 2026, the months only this file sells in. */
const marchApril = (e: Awaited<ReturnType<typeof evolutionOf>>) =>
  e.months.filter((m) => m.month === '2026-03' || m.month === '2026-04').reduce((sum, m) => sum + m.policies, 0);

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  before = await evolutionOf(ADMIN);
  // March in Brasília: one on the 2nd, one at 23:30 of the 31st (02:30Z of April 1st), paid by Pix at once.
  sold.march = (await sellResidential(db, { at: new Date('2026-03-02T13:00:00Z') })).nrApolice!;
  sold.lastOfMarch = (
    await sellResidential(db, { at: new Date('2026-04-01T02:30:00Z'), contratacao: { formaPagamento: 'pix', parcelas: 1 } })
  ).nrApolice!;
  const charge = await currentCharge(db, { kind: 'all' }, 'v2', sold.lastOfMarch, 1);
  await payCharge(db, { code: charge.pixCopiaECola!, externalId: 'metrics-1', origem: 'BANCO_DEMO' }, new Date('2026-04-01T12:00:00Z'));
  // April: Igor at Loja Centro (PV-0001), Juliana at Loja Savassi (PV-0002), Vale Verde's own.
  sold.igor = (await sellResidential(db, { email: IGOR, at: new Date('2026-04-10T13:00:00Z') })).nrApolice!;
  sold.juliana = (await sellResidential(db, { email: JULIANA, at: new Date('2026-04-12T13:00:00Z') })).nrApolice!;
  sold.valeVerde = (await sellResidential(db, { email: SUBAGENT, at: new Date('2026-04-15T13:00:00Z') })).nrApolice!;
  // A quote of November that never became a proposal: the funnel's first stage only.
  const user = await loadV2User(db, (await findUserByEmail(db, PARTNER))!, { fullyAuthenticated: true });
  const offer = (await sellableOffers(db, user, NOW)).find((o) => o.code === 'RES')!;
  await createQuote(
    db,
    await sellerFromV2(db, user),
    offer,
    {
      segurado: DEMO_INSURED.residencial,
      respostas: { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false },
    },
    NOW,
  );
}, 120_000);
afterAll(() => close());

describe('evolução de vendas', () => {
  it('counts each policy in its month in Brasília, with its premium, and fills the other months with zeros', async () => {
    const evolution = await evolutionOf(ADMIN);
    expect(evolution.months.map((m) => m.month)).toEqual(expect.arrayContaining(['2025-12', '2026-03', '2026-11']));
    expect(evolution.months).toHaveLength(12);
    const byMonth = Object.fromEntries(evolution.months.map((m) => [m.month, m]));
    expect(byMonth['2026-03']).toMatchObject({
      policies: 2,
      premium: (await premiumOf(sold.march!)) + (await premiumOf(sold.lastOfMarch!)),
    });
    expect(byMonth['2026-04']!.policies).toBe(3);
    expect(byMonth['2026-05']).toMatchObject({ policies: 0, premium: 0 });
    expect(evolution.totals.policies).toBe(before.totals.policies + 5);
    const residential = (e: typeof evolution) => e.products.find((p) => p.code === 'RES')?.policies ?? 0;
    expect(residential(evolution)).toBe(residential(before) + 5);
    expect(evolution.products.reduce((sum, p) => sum + p.share, 0)).toBeCloseTo(1);
  });

  it('follows the funnel from the quotes of the year to the first installment paid', async () => {
    const { funnel } = await evolutionOf(ADMIN);
    const added = funnel.map((stage, i) => [stage.key, stage.count - before.funnel[i]!.count]);
    expect(added).toEqual([
      ['quotes', 6],
      ['proposals', 5],
      ['policies', 5],
      ['paid', 1],
    ]);
  });

  it('keeps a policy cancelled later in the month it was sold, and counts it apart', async () => {
    await cancelWholePolicy(db, JULIANA, sold.juliana!, new Date('2026-05-20T15:00:00Z'));

    const april = (await evolutionOf(ADMIN)).months.find((m) => m.month === '2026-04')!;
    expect(april).toMatchObject({ policies: 3, cancelled: 1 });
    expect((await evolutionOf(ADMIN)).months.find((m) => m.month === '2026-05')).toMatchObject({ policies: 0, cancelled: 0 });
  });

  it('filters by point of sale, seller, company and product', async () => {
    const horizonte = await metricsOptions(db, (await scopeOf(ADMIN)).scope);
    const igor = horizonte.sellers.find((s) => s.name === 'Igor Pereira')!;
    expect(marchApril(await evolutionOf(ADMIN, { pontoVenda: 'PV-0002' }))).toBe(1);
    expect(marchApril(await evolutionOf(ADMIN, { pontoVenda: 'PV-0001' }))).toBe(3); // Eduarda's two and Igor's
    expect((await evolutionOf(ADMIN, { vendedor: igor.id })).totals.premium).toBe(await premiumOf(sold.igor!));
    expect(marchApril(await evolutionOf(ADMIN, { empresa: VALE_VERDE }))).toBe(1);
    expect(marchApril(await evolutionOf(ADMIN, { produto: 'VEU' }))).toBe(0);
  });
});

describe('whose sales each viewer counts', () => {
  it('a partner with METRICAS counts the company they act for; the partner admin both companies; the insurer all', async () => {
    expect(marchApril(await evolutionOf(PARTNER))).toBe(4);
    expect(marchApril(await evolutionOf(PARTNER_ADMIN))).toBe(5);
    expect(marchApril(await evolutionOf(ADMIN))).toBe(5);
    // The legacy seller's group holds RELATORIO_GESTAO: Horizonte, the company they work for.
    expect(marchApril(await evolutionOf('vendedor@legado.demo'))).toBe(4);
    expect((await scopeOf(SUBAGENT)).scope).toEqual({ kind: 'none' });
    expect((await scopeOf('consultor@legado.demo')).scope).toEqual({ kind: 'none' });
  });

  it('offers only the scope’s companies, points of sale and sellers, and refuses a filter outside them', async () => {
    const options = await metricsOptions(db, (await scopeOf(PARTNER)).scope);
    expect(options.companies.map((c) => c.cnpj)).toEqual([HORIZONTE]);
    expect(options.pointsOfSale.map((p) => p.code)).toEqual(['PV-0001', 'PV-0002']);
    expect(options.sellers.map((s) => s.name)).not.toContain('Felipe Araújo');
    const valeVerdeSeller = (await findUserByEmail(db, SUBAGENT))!.id;
    expect(resolveFilters(options, { empresa: VALE_VERDE, vendedor: valeVerdeSeller, pontoVenda: 'PV-9999' })).toEqual({
      ok: false,
      errors: { empresa: [METRICS_MESSAGES.empresa], pontoVenda: [METRICS_MESSAGES.pontoVenda], vendedor: [METRICS_MESSAGES.vendedor] },
    });
  });
});

describe('targets and attainment', () => {
  it('who sets targets: the admins of the insurer and of the partner, not a seller', async () => {
    expect((await scopeOf(ADMIN)).editsTargets).toBe(true);
    expect((await scopeOf(PARTNER_ADMIN)).editsTargets).toBe(true);
    expect((await scopeOf('admin@legado.demo')).editsTargets).toBe(true);
    expect((await scopeOf(PARTNER)).editsTargets).toBe(false);
  });

  it('sets a target of the scope, replaces it when set again, and refuses a subject outside the scope', async () => {
    const admin = (await findUserByEmail(db, PARTNER_ADMIN))!.id;
    const options = await metricsOptions(db, (await scopeOf(PARTNER_ADMIN)).scope);
    const set = (nivel: 'empresa' | 'ponto_venda' | 'vendedor', alvo: string, mes: string, valor: number) =>
      saveTarget(db, options, admin, { nivel, alvo, mes, valor }, NOW);
    expect(await set('empresa', HORIZONTE, '2026-04', 1_000_00)).toEqual({ ok: true });
    expect(await set('empresa', HORIZONTE, '2026-04', 2_000_00)).toEqual({ ok: true });
    expect(await set('ponto_venda', 'PV-0001', '2026-04', 500_00)).toEqual({ ok: true });
    const rows = await db.selectFrom('sales_targets').select(['nivel', 'mes', 'valor']).where('nivel', '=', 'empresa').execute();
    expect(rows.map((r) => [r.nivel, r.mes, Number(r.valor)])).toEqual([['empresa', '2026-04', 2_000_00]]);

    // A partner's options know nothing of another partner: an unknown company or point of sale is refused.
    const partnerOptions = { ...options, companies: options.companies.filter((c) => c.cnpj === HORIZONTE), pointsOfSale: [] };
    expect(await saveTarget(db, partnerOptions, admin, { nivel: 'empresa', alvo: VALE_VERDE, mes: '2026-04', valor: 1 }, NOW)).toEqual({
      ok: false,
      errors: { alvo: [METRICS_MESSAGES.alvo] },
    });
    expect(await set('ponto_venda', 'PV-7777', '2026-04', 1)).toMatchObject({ ok: false });
    expect(await set('vendedor', '999999', '2026-04', 1)).toMatchObject({ ok: false });
  });

  it('compares each month with its target, ranks the points of sale, and projects the current month', async () => {
    const { scope } = await scopeOf(PARTNER_ADMIN);
    const options = await metricsOptions(db, scope);
    const horizonte = options.companies.find((c) => c.cnpj === HORIZONTE)!;
    const april = await salesAttainment(db, scope, options, { companyId: horizonte.id }, { mes: '2026-04', ranking: 'pontos' }, TODAY);
    const aprilSold = (await premiumOf(sold.igor!)) + (await premiumOf(sold.juliana!));
    expect(april.months.find((m) => m.month === '2026-04')).toEqual({
      month: '2026-04',
      sold: aprilSold,
      target: 2_000_00,
      attainment: aprilSold / 2_000_00,
    });
    expect(april.months.find((m) => m.month === '2026-03')!.target).toBeUndefined();
    expect(april.ranking.entries.map((e) => [e.detail, e.premium, e.target])).toEqual(
      [
        ['PV-0001', await premiumOf(sold.igor!), 500_00],
        ['PV-0002', await premiumOf(sold.juliana!), undefined],
      ].sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
    // November: what the demo sold so far, projected over the month's 30 days at 24 days' pace.
    expect(april.current.month).toBe('2026-11');
    expect(april.current.projection).toBe(Math.round((april.current.sold / 24) * 30));
    const sellers = await salesAttainment(db, scope, options, {}, { mes: '2026-04', ranking: 'vendedores' }, TODAY);
    expect(sellers.ranking.entries.map((e) => e.name).sort()).toEqual(['Felipe Araújo', 'Igor Pereira', 'Juliana Costa']);
  });
});
