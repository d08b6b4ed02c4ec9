import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { HOUSE, cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { decideProposal } from '../../src/server/services/after-sale/acceptance';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { sellableOffers } from '../../src/server/services/network/offers';
import { createQuote } from '../../src/server/services/selling/quotes';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { useManualClock as manualClock } from '../../src/server/clock';
import { markAllRead, markRead, worklist, worklistNewCount } from '../../src/server/services/reporting/worklist';
import type { WorklistItem, WorklistKind } from '../../src/lib/worklist';

/**
 * Issue 31, the worklist: each kind of item is read through the scope of the page that shows its
 * record — a seller sees their own, a partner admin their companies', the provider's ADMIN every
 * one, and an item of another company or seller never appears — and read marks make an item old
 * (an action) or take it away (a notice), per user.
 */
let db: DB;
let close: () => Promise<void>;

const PARTNER = 'parceiro@parceiro.demo';
const COLLEAGUE = 'igor.pereira@parceiro.demo';
const OUTSIDER = 'juliana.costa@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const LEGACY_SELLER = 'vendedor@legado.demo';

const SOLD_AT = new Date('2026-11-20T13:00:00Z');
const NOW = new Date('2026-11-25T13:00:00Z');
const MISTA = { ...HOUSE, construcao: 'mista' };

/** Per seller: a policy (accepted at once) and a proposal referred for analysis; numbers to look for. */
interface Sale {
  nrApolice: string;
  nrPropostaAceita: string;
  nrPropostaReferida: string;
  nrCotacaoAberta: string;
  policyId: number;
}
const sales: Record<string, Sale> = {};
let otherCompanyId: number;

async function openQuote(email: string): Promise<string> {
  const user = await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true });
  const seller = await sellerFromV2(db, user);
  const offer = (await sellableOffers(db, user, SOLD_AT)).find((o) => o.code === 'RES')!;
  const quote = await createQuote(db, seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, SOLD_AT);
  return quote.nrCotacao;
}

async function sellAs(email: string): Promise<Sale> {
  const accepted = await sellResidential(db, { email, at: SOLD_AT });
  const referred = await sellResidential(db, { email, respostas: MISTA, at: SOLD_AT });
  const nrCotacaoAberta = await openQuote(email);
  const policy = await db.selectFrom('policies').select('id').where('nr_apolice', '=', accepted.nrApolice!).executeTakeFirstOrThrow();
  return {
    nrApolice: accepted.nrApolice!,
    nrPropostaAceita: accepted.nrProposta,
    nrPropostaReferida: referred.nrProposta,
    nrCotacaoAberta,
    policyId: policy.id,
  };
}

// The file holds its own clock: the demo's seed and every write are dated at the sale, before NOW.
let clock: ReturnType<typeof manualClock>;

beforeAll(async () => {
  clock = manualClock(SOLD_AT.getTime());
  ({ db, close } = await freshDatabase());
  for (const email of [PARTNER, COLLEAGUE, OUTSIDER, SUBAGENT]) sales[email] = await sellAs(email);
  // The outsider's sales move to a company nobody here administers: another partner's.
  const channel = await db.selectFrom('companies').select('channel_id').limit(1).executeTakeFirstOrThrow();
  otherCompanyId = (
    await db
      .insertInto('companies')
      .values({
        cnpj: '44555666000181',
        razao_social: 'Outra Corretora Ltda',
        nome_fantasia: 'Outra',
        tipo: 'PARCEIRO',
        parent_id: null,
        channel_id: channel.channel_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const outsider = sales[OUTSIDER]!;
  const quoteIds = db.selectFrom('quotes').select('id').where('nr_cotacao', 'in', [outsider.nrCotacaoAberta]);
  await db.updateTable('quotes').set({ company_id: otherCompanyId }).where('id', 'in', quoteIds).execute();
  await db
    .updateTable('quotes')
    .set({ company_id: otherCompanyId })
    .where(
      'id',
      'in',
      db.selectFrom('proposals').select('quote_id').where('nr_proposta', 'in', [outsider.nrPropostaAceita, outsider.nrPropostaReferida]),
    )
    .execute();
  await db.updateTable('policies').set({ company_id: otherCompanyId }).where('id', '=', outsider.policyId).execute();
  // Every sale: its policy ends in 30 days, its 1st installment is 5 days overdue, its open quote expires in 2 days.
  for (const sale of Object.values(sales)) {
    await db.updateTable('policies').set({ fim_vigencia: '2026-12-25' }).where('id', '=', sale.policyId).execute();
    await db
      .updateTable('installments')
      .set({ vencimento: '2026-11-20' })
      .where('policy_id', '=', sale.policyId)
      .where('numero', '=', 1)
      .execute();
    await db
      .updateTable('quotes')
      .set({ valida_ate: new Date('2026-11-27T13:00:00Z') })
      .where('nr_cotacao', '=', sale.nrCotacaoAberta)
      .execute();
  }
  // The underwriter asks each referred proposal for documents, but the subagent's (left in analysis).
  const admin = (await findUserByEmail(db, ADMIN))!;
  for (const [email, sale] of Object.entries(sales))
    if (email !== SUBAGENT)
      await decideProposal(
        db,
        admin.id,
        sale.nrPropostaReferida,
        { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Fotos da fachada.' },
        new Date('2026-11-21T13:00:00Z'),
      );
});
afterAll(async () => {
  clock.restore();
  await close();
});

const itemsOf = async (email: string, kind: WorklistKind, now = NOW): Promise<WorklistItem[]> =>
  (await worklist(db, await viewerByEmail(db, email), { kind, now })).flatMap((g) => g.items);

/** Which of the test's sellers' records a kind shows a viewer, by the text that names them. */
async function sellersSeen(email: string, kind: WorklistKind, number: (sale: Sale) => string): Promise<string[]> {
  const items = await itemsOf(email, kind);
  return Object.entries(sales)
    .filter(([, sale]) => items.some((i) => i.what.includes(number(sale))))
    .map(([seller]) => seller)
    .sort();
}

const ALL = [PARTNER, COLLEAGUE, OUTSIDER, SUBAGENT].sort();
const ADMINS_COMPANIES = [PARTNER, COLLEAGUE, SUBAGENT].sort();

describe('each kind through its scope', () => {
  it('proposals waiting for documents: own, the companies, all; with the clock suspended', async () => {
    expect(await sellersSeen(PARTNER, 'DOCUMENTOS', (s) => s.nrPropostaReferida)).toEqual([PARTNER]);
    expect(await sellersSeen(PARTNER_ADMIN, 'DOCUMENTOS', (s) => s.nrPropostaReferida)).toEqual([PARTNER, COLLEAGUE].sort());
    expect(await sellersSeen(ADMIN, 'DOCUMENTOS', (s) => s.nrPropostaReferida)).toEqual([PARTNER, COLLEAGUE, OUTSIDER].sort());
    const [item] = (await itemsOf(PARTNER, 'DOCUMENTOS')).filter((i) => i.what.includes(sales[PARTNER]!.nrPropostaReferida));
    expect(item!.deadlineText).toMatch(/^Prazo suspenso desde 21\/11\/2026: aguarda documentos \(restam 24 dias\)$/);
    expect(item!.href).toBe(`/v2/documentos/envio?proposta=${sales[PARTNER]!.nrPropostaReferida}`);
  });

  it('proposals decided lately: own, the companies; not the insurer, who decided them', async () => {
    expect(await sellersSeen(PARTNER, 'DECISAO', (s) => s.nrPropostaAceita)).toEqual([PARTNER]);
    expect(await sellersSeen(PARTNER_ADMIN, 'DECISAO', (s) => s.nrPropostaAceita)).toEqual(ADMINS_COMPANIES);
    // The insurer's staff decided them: no notice to itself.
    expect(await sellersSeen(ADMIN, 'DECISAO', (s) => s.nrPropostaAceita)).toEqual([]);
  });

  it('overdue installments: the 2ª via scope (the subagent holds no policy nor boleto operation)', async () => {
    expect(await sellersSeen(PARTNER, 'PARCELA_VENCIDA', (s) => s.nrApolice)).toEqual([PARTNER]);
    expect(await sellersSeen(SUBAGENT, 'PARCELA_VENCIDA', (s) => s.nrApolice)).toEqual([]);
    expect(await sellersSeen(PARTNER_ADMIN, 'PARCELA_VENCIDA', (s) => s.nrApolice)).toEqual(ADMINS_COMPANIES);
    expect(await sellersSeen(ADMIN, 'PARCELA_VENCIDA', (s) => s.nrApolice)).toEqual(ALL);
    const [item] = (await itemsOf(PARTNER, 'PARCELA_VENCIDA')).filter((i) => i.what.includes(sales[PARTNER]!.nrApolice));
    expect(item!.deadlineText).toBe('venceu há 5 dias (20/11/2026)');
    expect(item!.href).toBe(`/v2/boleto?nrApolice=${sales[PARTNER]!.nrApolice}`);
  });

  it('a legacy overdue installment links to the payments lookup, or to the policy for whoever may not open it', async () => {
    // A seeded legacy policy moved to the consultant, who sees its policies but not the payments lookup.
    const consultant = (await findUserByEmail(db, 'consultor@legado.demo'))!;
    const installment = await db
      .selectFrom('installments as i')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select(['i.id', 'a.id as policyId', 'a.nr_apolice'])
      .where('a.generation', '=', 'v1')
      .where('a.status', '=', 'VIGENTE')
      .where('i.status', '=', 'ABERTA')
      .orderBy('i.id')
      .executeTakeFirstOrThrow();
    await db.updateTable('policies').set({ user_id: consultant.id }).where('id', '=', installment.policyId).execute();
    await db.updateTable('installments').set({ vencimento: '2026-11-19' }).where('id', '=', installment.id).execute();
    const itemOf = async (email: string) =>
      (await itemsOf(email, 'PARCELA_VENCIDA')).find((i) => i.what.includes(`apólice nº ${installment.nr_apolice} `));
    expect(await itemOf('consultor@legado.demo')).toMatchObject({
      href: `/apolices/${installment.nr_apolice}`,
      action: 'Ver a apólice',
    });
    expect(await itemOf('admin@legado.demo')).toMatchObject({
      href: `/consulta-pagamento?nrApolice=${installment.nr_apolice}`,
      action: 'Emitir a 2ª via',
    });
  });

  it('policies ending within 60 days: the policies scope, linking to the renewal', async () => {
    expect(await sellersSeen(PARTNER, 'RENOVACAO', (s) => s.nrApolice)).toEqual([PARTNER]);
    expect(await sellersSeen(PARTNER_ADMIN, 'RENOVACAO', (s) => s.nrApolice)).toEqual(ADMINS_COMPANIES);
    expect(await sellersSeen(ADMIN, 'RENOVACAO', (s) => s.nrApolice)).toEqual(ALL);
    const [item] = (await itemsOf(PARTNER, 'RENOVACAO')).filter((i) => i.what.includes(sales[PARTNER]!.nrApolice));
    expect(item!.href).toBe(`/v2/renovacoes/${sales[PARTNER]!.nrApolice}`);
    expect(item!.deadlineText).toBe('termina em 30 dias (25/12/2026)');
    // Past the window, not yet.
    expect(
      (await itemsOf(PARTNER, 'RENOVACAO', new Date('2026-10-01T13:00:00Z'))).some((i) => i.what.includes(sales[PARTNER]!.nrApolice)),
    ).toBe(false);
  });

  it('quotes about to expire without a proposal: the seller’s own only — only they continue one (issue 42)', async () => {
    expect(await sellersSeen(PARTNER, 'COTACAO_EXPIRANDO', (s) => s.nrCotacaoAberta)).toEqual([PARTNER]);
    expect(await sellersSeen(COLLEAGUE, 'COTACAO_EXPIRANDO', (s) => s.nrCotacaoAberta)).toEqual([COLLEAGUE]);
    expect(await sellersSeen(PARTNER_ADMIN, 'COTACAO_EXPIRANDO', (s) => s.nrCotacaoAberta)).toEqual([]);
    expect(await sellersSeen(ADMIN, 'COTACAO_EXPIRANDO', (s) => s.nrCotacaoAberta)).toEqual([]);
  });

  it('the acceptance queue and the refunds to pay are the staff’s only', async () => {
    const nr = sales[SUBAGENT]!.nrPropostaReferida;
    expect((await itemsOf(ADMIN, 'ANALISE')).some((i) => i.what.includes(nr))).toBe(true);
    for (const email of [PARTNER, PARTNER_ADMIN, SUBAGENT]) expect(await itemsOf(email, 'ANALISE')).toEqual([]);
    await cancelWholePolicy(db, ADMIN, sales[COLLEAGUE]!.nrApolice, new Date('2026-11-22T13:00:00Z'));
    // Nothing was paid, so nothing is owed back: the refund a paid premium would have left.
    const policyId = sales[COLLEAGUE]!.policyId;
    const endorsement = await db.selectFrom('endorsements').select('id').where('policy_id', '=', policyId).executeTakeFirstOrThrow();
    await db
      .insertInto('refunds')
      .values({
        endorsement_id: endorsement.id,
        policy_id: policyId,
        valor: 12_345,
        estorno_comissao: 0,
        destino: null,
        prevista_para: '2026-11-01',
      })
      .execute();
    const refunds = await itemsOf(ADMIN, 'RESTITUICAO');
    expect(refunds.some((i) => i.what.includes(sales[COLLEAGUE]!.nrApolice))).toBe(true);
    expect(refunds.find((i) => i.what.includes(sales[COLLEAGUE]!.nrApolice))!.href).toBe(
      `/v2/restituicoes?nrApolice=${sales[COLLEAGUE]!.nrApolice}`,
    );
    // The insurer's v2 queue lists no legacy refund: nor does its bell count one (the demo owes one of each).
    expect(refunds.every((i) => i.href.startsWith('/v2/restituicoes?'))).toBe(true);
    const legacy = await db
      .selectFrom('refunds as r')
      .innerJoin('policies as a', 'a.id', 'r.policy_id')
      .select('a.nr_apolice')
      .where('r.generation', '=', 'v1')
      .where('r.status', '=', 'DEVIDA')
      .execute();
    expect(legacy.length).toBeGreaterThan(0);
    for (const { nr_apolice } of legacy) expect(refunds.some((i) => i.what.includes(nr_apolice))).toBe(false);
    expect((await itemsOf('admin@legado.demo', 'RESTITUICAO')).map((i) => i.href)).toEqual(
      legacy.map((r) => `/restituicoes?nrApolice=${r.nr_apolice}`),
    );
    for (const email of [PARTNER, PARTNER_ADMIN, COLLEAGUE]) expect(await itemsOf(email, 'RESTITUICAO')).toEqual([]);
  });

  it('reports, notas fiscais and imports: the owner’s, the commissions scope', async () => {
    const user = async (email: string) => (await findUserByEmail(db, email))!;
    const partner = await user(PARTNER);
    const colleague = await user(COLLEAGUE);
    const finished = new Date('2026-11-24T13:00:00Z');
    const [report] = await db
      .insertInto('sales_reports')
      .values({
        user_id: partner.id,
        generation: 'v2',
        pedido: JSON.stringify({}),
        filtro: JSON.stringify({}),
        status: 'PRONTO',
        total: 3,
        linhas: 3,
        finished_at: finished,
      } as never)
      .returning('id')
      .execute();
    await db
      .insertInto('user_imports')
      .values({
        actor_id: colleague.id,
        generation: 'v2',
        file_name: 'equipe.csv',
        encoding: 'utf-8',
        status: 'CONCLUIDO',
        total_rows: 2,
        valid_rows: 2,
        processed_rows: 2,
        error: null,
        ip: null,
        confirmed_at: finished,
        claimed_at: finished,
        finished_at: finished,
      })
      .execute();
    const companyOf = async (email: string) => (await user(email)).company_id!;
    for (const [companyId, numero] of [
      [await companyOf(PARTNER), '101'],
      [otherCompanyId, '202'],
    ] as const)
      await db
        .insertInto('notas_fiscais')
        .values({
          company_id: companyId,
          competencia: '2026-10',
          numero,
          valor: 1000,
          nome: 'nf.pdf',
          mime: 'application/pdf',
          tamanho: 10,
          sha256: 'a'.repeat(64),
          status: 'APROVADA',
          user_id: partner.id,
          decidida_em: finished,
        } as never)
        .execute();
    expect((await itemsOf(PARTNER, 'RELATORIO')).map((i) => i.href)).toEqual([`/v2/relatorios/vendas/arquivo/${report!.id}`]);
    expect(await itemsOf(COLLEAGUE, 'RELATORIO')).toEqual([]);
    expect((await itemsOf(COLLEAGUE, 'IMPORTACAO')).map((i) => i.what)).toEqual([
      'Importação de usuários "equipe.csv" concluída (2 linhas)',
    ]);
    expect(await itemsOf(PARTNER, 'IMPORTACAO')).toEqual([]);
    // In production the commission pages do not exist (SPEC §2): no nota fiscal is counted, whoever's it is
    // (outside it, worklist-reach.test.ts opens each one on the scoped page of notas).
    for (const email of [PARTNER, PARTNER_ADMIN, ADMIN, SUBAGENT, LEGACY_SELLER]) expect(await itemsOf(email, 'NOTA_FISCAL')).toEqual([]);
  });

  it('a legacy seller sees none of the v2 sales', async () => {
    const groups = await worklist(db, await viewerByEmail(db, LEGACY_SELLER), { now: NOW });
    const numbers = Object.values(sales).flatMap((s) => [s.nrApolice, s.nrPropostaAceita, s.nrPropostaReferida, s.nrCotacaoAberta]);
    expect(groups.flatMap((g) => g.items).filter((i) => numbers.some((n) => i.what.includes(n)))).toEqual([]);
  });
});

describe('read and unread, per user', () => {
  it('an action read stays listed but is no longer new; a notice read leaves; the count follows; another user is untouched', async () => {
    const viewer = await viewerByEmail(db, PARTNER);
    const before = await worklistNewCount(db, viewer, NOW);
    const adminBefore = await worklistNewCount(db, await viewerByEmail(db, PARTNER_ADMIN), NOW);
    const [waiting] = (await itemsOf(PARTNER, 'DOCUMENTOS')).filter((i) => i.what.includes(sales[PARTNER]!.nrPropostaReferida));
    expect(waiting!.isNew).toBe(true);
    await markRead(db, viewer.user.idUsuario, waiting!.key, NOW);
    const [after] = (await itemsOf(PARTNER, 'DOCUMENTOS')).filter((i) => i.what.includes(sales[PARTNER]!.nrPropostaReferida));
    expect(after!.isNew).toBe(false);
    expect(await worklistNewCount(db, viewer, NOW)).toBe(before - 1);

    const [decision] = (await itemsOf(PARTNER, 'DECISAO')).filter((i) => i.what.includes(sales[PARTNER]!.nrPropostaAceita));
    await markRead(db, viewer.user.idUsuario, decision!.key, NOW);
    expect((await itemsOf(PARTNER, 'DECISAO')).some((i) => i.key === decision!.key)).toBe(false);
    expect(await worklistNewCount(db, viewer, NOW)).toBe(before - 2);
    // The partner admin sees the same proposals: still new for them.
    expect(await worklistNewCount(db, await viewerByEmail(db, PARTNER_ADMIN), NOW)).toBe(adminBefore);
  });

  it('an item that changes again is new again (documents asked for a second time)', async () => {
    const viewer = await viewerByEmail(db, PARTNER);
    const nr = sales[PARTNER]!.nrPropostaReferida;
    const old = (await itemsOf(PARTNER, 'DOCUMENTOS')).find((i) => i.what.includes(nr))!;
    expect(old.isNew).toBe(false);
    await db
      .updateTable('proposals')
      .set({ suspensa_desde: new Date('2026-11-24T13:00:00Z') })
      .where('nr_proposta', '=', nr)
      .execute();
    const renewed = (await itemsOf(PARTNER, 'DOCUMENTOS')).find((i) => i.what.includes(nr))!;
    expect(renewed.key).not.toBe(old.key);
    expect(renewed.isNew).toBe(true);
    expect(await worklistNewCount(db, viewer, NOW)).toBeGreaterThan(0);
  });

  it('"Marcar todas" reads everything up to now, and the count is 0 until something new happens', async () => {
    const viewer = await viewerByEmail(db, PARTNER);
    await markAllRead(db, viewer.user.idUsuario, NOW);
    expect(await worklistNewCount(db, viewer, NOW)).toBe(0);
    const groups = await worklist(db, viewer, { now: NOW });
    expect(groups.flatMap((g) => g.items).every((i) => !i.isNew)).toBe(true);
    // Actions stay (still to do); notices went.
    expect(groups.some((g) => g.kind === 'DOCUMENTOS')).toBe(true);
    expect(groups.some((g) => g.kind === 'DECISAO' || g.kind === 'RELATORIO')).toBe(false);
    const left = await db.selectFrom('worklist_reads').select('item_key').where('user_id', '=', viewer.user.idUsuario).execute();
    expect(left).toEqual([]);
    // An installment falling overdue after the mark is new.
    await db
      .updateTable('installments')
      .set({ vencimento: '2026-12-02' })
      .where('policy_id', '=', sales[PARTNER]!.policyId)
      .where('numero', '=', 2)
      .execute();
    const later = new Date('2026-12-04T13:00:00Z');
    const overdue = (await itemsOf(PARTNER, 'PARCELA_VENCIDA', later)).filter((i) => i.what.includes(sales[PARTNER]!.nrApolice));
    expect(overdue.map((i) => [i.what.slice(0, 9), i.isNew])).toEqual([
      ['Parcela 1', false],
      ['Parcela 2', true],
    ]);
    expect(await worklistNewCount(db, viewer, later)).toBeGreaterThanOrEqual(1);
  });

  it('counts no further than 99 + 1', async () => {
    const viewer = await viewerByEmail(db, ADMIN);
    await sql`update installments set vencimento = '2026-11-20' where status = 'ABERTA'`.execute(db);
    expect(await worklistNewCount(db, viewer, NOW)).toBeLessThanOrEqual(100);
  });
});
