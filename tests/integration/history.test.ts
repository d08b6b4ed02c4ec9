import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi } from '../fixtures/api';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { createQuote, findQuote, type Seller } from '../../src/server/services/selling/quotes';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { listQuotes } from '../../src/server/services/selling/quote-history';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { HISTORY_MESSAGES, HISTORY_PAGE_SIZE, type HistoryFilters, type HistoryRow } from '../../src/lib/history';
import { isValidCnpj } from '../../src/lib/validators';
import { keysetPager, pageRequestOf } from '../../src/lib/keyset-pages';

/**
 * The v2 quote history (listQuotes and GET /api/bff/v1/cotacoes) over the demo seed's quotes plus
 * the ones made here: visibility per profile, each filter, pagination, statuses and masking.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
/** Every statement the database runs: what one history page costs. */
let statements = 0;

const PARTNER = 'parceiro@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const COLLEAGUE = 'colega@parceiro.demo';

async function sellerOf(email: string): Promise<Seller> {
  const user = await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true });
  return sellerFromV2(db, user);
}
async function offer(email: string, code: string) {
  const user = await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true });
  return (await sellableOffers(db, user)).find((o) => o.code === code)!;
}
const list = async (email: string, filters: HistoryFilters = {}, page = 1) => listQuotes(db, await sellerOf(email), filters, { page });
const numbers = (rows: HistoryRow[]) => rows.map((r) => r.nrCotacao);

const person = (nome: string, cpf: string) => ({ ...DEMO_INSURED.residencial, nome, cpf });
const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false };
const COMPANY_CNPJ = '11.444.777/0001-61';
const company = {
  tipoPessoa: 'PJ',
  razaoSocial: 'Padaria Bom Dia Ltda.',
  cnpj: COMPANY_CNPJ,
  email: 'contato@bomdia.com.br',
  telefone: '(11) 3222-1100',
  endereco: DEMO_INSURED.residencial.endereco,
};

/** Rows without the seed's renewable sale of 335 days ago (seed-policies.ts), older than the dated quotes made here. */
const madeHere = <T extends { nomeSegurado: string }>(rows: T[]) => rows.filter((r) => r.nomeSegurado !== 'Helena Duarte Vasconcelos');

/** Quotes made here, by name. */
const made: Record<string, string> = {};
/**
 * The demo partner's seeded quotes: 3 of seed-quotes.ts (2 residential, 1 life) and 6 sold by seed-policies.ts (5 residential —
 * one ending in about 30 days for the renewals, one cancelled with a refund owed, issue 31 — and 1 life).
 */
const SEEDED = 9;
/** Of them, sent as proposals: all but two (one in progress, one expired). */
const SEEDED_SENT = 7;
/** Every row the partner sees, page after page (the seed and the quotes made here pass two pages). */
const listAll = async (email: string) => {
  const rows = [];
  for (let page = 1; ; page++) {
    const answer = await list(email, {}, page);
    rows.push(...answer.content);
    if (!answer.more) return rows;
  }
};

beforeAll(async () => {
  ({ db, close } = await freshDatabase({
    onQuery: () => {
      statements += 1;
    },
  }));
  call = apiClient(db);

  // A second seller of the partner's company: the partner admin sees their quotes, the partner does not.
  const horizonte = await db.selectFrom('companies').select('id').where('cnpj', '=', '11222333000181').executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('users')
    .values({
      email: COLLEAGUE,
      nome: 'Helena Prado',
      cpf: '27418596391',
      generation: 'v2',
      profile: 'parceiro',
      status: 'ATIVO',
      company_id: horizonte.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_companies').values({ user_id: id, company_id: horizonte.id }).execute();
  await db
    .insertInto('user_operations')
    .values(
      ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA', 'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL'].map((operation) => ({
        user_id: id,
        operation,
      })),
    )
    .execute();

  const partner = await sellerOf(PARTNER);
  const res = await offer(PARTNER, 'RES');
  // 9 more of the partner's, a minute apart, so the partner's history (3 seeded) spans two pages.
  for (let i = 1; i <= 9; i++) {
    const quote = await createQuote(
      db,
      partner,
      res,
      { segurado: person(`Cliente Número ${i}`, '59381726400'), respostas: HOUSE },
      new Date(Date.now() - (3 * 86_400_000 + i * 60_000)),
    );
    made[`extra${i}`] = quote.nrCotacao;
  }
  // Brasília midnight: 2026-03-10 02:30 UTC is still 9 March, 23:30 in Brasília.
  made.lateNight = (
    await createQuote(
      db,
      partner,
      res,
      { segurado: person('Noite Tardia Souza', '59381726400'), respostas: HOUSE },
      new Date('2026-03-10T02:30:00Z'),
    )
  ).nrCotacao;
  made.nextMorning = (
    await createQuote(
      db,
      partner,
      res,
      { segurado: person('Manhã Seguinte Lima', '59381726400'), respostas: HOUSE },
      new Date('2026-03-10T03:00:00Z'),
    )
  ).nrCotacao;
  made.company = (await createQuote(db, partner, await offer(PARTNER, 'EAU'), { segurado: company, respostas: {} })).nrCotacao;
  made.colleague = (
    await createQuote(db, await sellerOf(COLLEAGUE), await offer(COLLEAGUE, 'RES'), {
      segurado: person('Cliente da Colega', '46281937546'),
      respostas: HOUSE,
    })
  ).nrCotacao;
  // A legacy quote: the v2 history never lists the other generation.
  const vendedor = (await findUserByEmail(db, 'vendedor@legado.demo'))!;
  made.legacy = (
    await createQuote(
      db,
      { generation: 'v1', userId: vendedor.id, companyId: null, pointOfSaleId: null, scope: { kind: 'own' }, canSell: () => true },
      res,
      {
        segurado: person('Cliente Legado Silva', '59381726400'),
        respostas: HOUSE,
      },
    )
  ).nrCotacao;
});
afterAll(() => close());

describe('visibility: the same rule as opening a quote', () => {
  it('a partner sees only their own quotes', async () => {
    const all = await listAll(PARTNER);
    expect(all).toHaveLength(SEEDED + 9 + 3);
    expect(new Set(all.map((r) => r.seller))).toEqual(new Set(['Eduarda Lima']));
    expect(numbers(all)).not.toContain(made.colleague);
  });

  it('a sub-delegated user sees their own quote and none of the partner’s', async () => {
    const { content, total } = await list(SUBAGENT);
    expect(total).toBe(1);
    expect(content[0]).toMatchObject({ seller: 'Felipe Araújo', nomeSegurado: DEMO_INSURED.substabelecido.nome, code: 'RES' });
  });

  it('a partner admin sees every quote of their companies, another seller’s included', async () => {
    const { total } = await list(PARTNER_ADMIN);
    expect(total).toBe(SEEDED + 12 + 1 + 1); // the partner's, the sub-delegated user's, the colleague's
    expect(numbers((await list(PARTNER_ADMIN, { numero: made.colleague })).content)).toEqual([made.colleague]);
    expect((await list(PARTNER_ADMIN, { documento: '59381726400', de: '2026-03-09', ate: '2026-03-10' })).total).toBe(2);
    const sellers = new Set([...(await list(PARTNER_ADMIN)).content, ...(await list(PARTNER_ADMIN, {}, 2)).content].map((r) => r.seller));
    expect(sellers).toEqual(new Set(['Eduarda Lima', 'Felipe Araújo', 'Helena Prado']));
  });

  it('the provider admin sees every v2 quote, and no legacy one', async () => {
    const v2Quotes = await db
      .selectFrom('quotes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('generation', '=', 'v2')
      .executeTakeFirstOrThrow();
    expect((await list(ADMIN)).total).toBe(Number(v2Quotes.n));
    expect((await list(ADMIN, { numero: made.legacy })).total).toBe(0);
  });
});

describe('filters', () => {
  it('simulador: one product', async () => {
    const life = await list(PARTNER, { simulador: ['VEU'] });
    expect(life.content.map((r) => [r.code, r.productName])).toEqual([
      ['VEU', 'Vida'],
      ['VEU', 'Vida'],
    ]);
    const residential = await list(PARTNER, { simulador: ['RES'] });
    expect(residential.total).toBe(SEEDED - 2 + 9 + 2);
    expect(residential.content.every((r) => r.code === 'RES')).toBe(true);
    // Several at once (the embedded apps' consultation asks for EMP,IP,VE): each product's quotes, no other.
    const both = await list(PARTNER, { simulador: ['RES', 'VEU'] });
    expect(both.total).toBe(residential.total! + life.total!);
    expect(new Set(both.content.map((r) => r.code))).toEqual(new Set(['RES', 'VEU']));
  });

  it('linha: one product line', async () => {
    expect(numbers((await list(PARTNER, { linha: 'empresarial' })).content)).toEqual([made.company]);
    expect((await list(PARTNER, { linha: 'vida' })).content.map((r) => r.code)).toEqual(['VEU', 'VEU']);
  });

  it('status: in progress, expired (unsent and past its validity) and proposals', async () => {
    const sent = await list(PARTNER, { status: 'PROPOSTA_EM_ANALISE' });
    expect(new Map(sent.content.map((r) => [r.nomeSegurado, r.statusLabel]))).toEqual(
      new Map([
        [DEMO_INSURED.vida.nome, 'Proposta aceita'],
        ['Fernanda Lima Souza', 'Proposta aceita'],
        ['Eduardo Martins Reis', 'Proposta aceita'],
        ['Sérgio Almeida Prado', 'Proposta em análise'],
        ['Lívia Campos Teixeira', 'Proposta aguardando documentos'],
        ['Helena Duarte Vasconcelos', 'Proposta aceita'],
        // Sold and cancelled later (issue 31): the history shows the proposal's outcome.
        ['Renata Oliveira Duarte', 'Proposta aceita'],
      ]),
    );
    expect(sent.content.every((r) => /^\d+$/.test(r.nrProposta ?? ''))).toBe(true);

    const expired = await list(PARTNER, { status: 'VENCIDA' });
    expect(new Set(expired.content.map((r) => r.nomeSegurado))).toEqual(
      new Set([DEMO_INSURED.vencida.nome, 'Noite Tardia Souza', 'Manhã Seguinte Lima']),
    );
    expect(expired.content.every((r) => r.status === 'VENCIDA' && r.statusLabel === 'Vencida' && r.nrProposta === null)).toBe(true);

    const open = await list(PARTNER, { status: 'EM_ELABORACAO' });
    expect(open.total).toBe(SEEDED + 12 - SEEDED_SENT - 3);
    expect(open.content.every((r) => r.statusLabel === 'Em elaboração')).toBe(true);
  });

  it('documento: a CPF or CNPJ, typed with or without its mask', async () => {
    const masked = await list(PARTNER, { documento: '38192645746' });
    expect(masked.content.map((r) => r.nomeSegurado)).toEqual([DEMO_INSURED.vida.nome]);
    expect(isValidCnpj(COMPANY_CNPJ)).toBe(true);
    expect(numbers((await list(PARTNER, { documento: '11444777000161' })).content)).toEqual([made.company]);
    // Through the API the filter arrives masked, as typed.
    const token = await tokenOf(PARTNER);
    const viaApi = await call('GET', `/api/bff/v1/cotacoes?documento=${encodeURIComponent('381.926.457-46')}`, {
      headers: { authtoken: token },
    });
    expect(viaApi.json.dado.content.map((r: HistoryRow) => r.nomeSegurado)).toEqual([DEMO_INSURED.vida.nome]);
    const company = await call('GET', `/api/bff/v1/cotacoes?documento=${encodeURIComponent(COMPANY_CNPJ)}`, {
      headers: { authtoken: token },
    });
    expect(company.json.dado.content.map((r: HistoryRow) => r.nrCotacao)).toEqual([made.company]);
  });

  it('numero: the quote number or the proposal number', async () => {
    const [sent] = (await list(PARTNER, { status: 'PROPOSTA_EM_ANALISE' })).content;
    expect(numbers((await list(PARTNER, { numero: sent!.nrCotacao })).content)).toEqual([sent!.nrCotacao]);
    expect(numbers((await list(PARTNER, { numero: sent!.nrProposta! })).content)).toEqual([sent!.nrCotacao]);
    expect(numbers((await list(PARTNER, { numero: made.extra3! })).content)).toEqual([made.extra3]);
    expect((await list(PARTNER, { numero: '999999999999' })).total).toBe(0);
  });

  it('de and ate: inclusive calendar days in Brasília time', async () => {
    expect(numbers((await list(PARTNER, { de: '2026-03-09', ate: '2026-03-09' })).content)).toEqual([made.lateNight]);
    expect(numbers((await list(PARTNER, { de: '2026-03-10', ate: '2026-03-10' })).content)).toEqual([made.nextMorning]);
    expect(numbers(madeHere((await list(PARTNER, { ate: '2026-03-10' })).content))).toEqual([made.nextMorning, made.lateNight]);
    expect(numbers((await list(PARTNER, { de: '2026-03-11' })).content)).not.toContain(made.nextMorning);
  });

  it('filters combine', async () => {
    expect((await list(PARTNER, { simulador: ['RES'], status: 'VENCIDA', de: '2026-03-10' })).content.map((r) => r.nomeSegurado)).toEqual(
      expect.arrayContaining(['Manhã Seguinte Lima', DEMO_INSURED.vencida.nome]),
    );
    expect((await list(PARTNER, { simulador: ['VEU'], status: 'VENCIDA' })).total).toBe(0);
  });
});

describe('pagination', () => {
  it('pages of 10, newest first, with the totals', async () => {
    const total = SEEDED + 12;
    const lastPage = Math.ceil(total / HISTORY_PAGE_SIZE);
    const first = await list(PARTNER);
    expect(first).toMatchObject({ total, more: true, page: 1 });
    expect(first.content).toHaveLength(HISTORY_PAGE_SIZE);
    // A page number alone (an old link) reads by offset within the count's bound (lib/keyset-pages.ts).
    const pages = [first];
    for (let page = 2; page <= lastPage; page++) pages.push(await list(PARTNER, {}, page));
    const last = pages[pages.length - 1]!;
    expect(last).toMatchObject({ total, more: false, page: lastPage });
    expect(last.content).toHaveLength(total - HISTORY_PAGE_SIZE * (lastPage - 1));
    const all = pages.flatMap((p) => p.content);
    expect(new Set(numbers(all)).size).toBe(total);
    const created = all.map((r) => r.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(numbers(madeHere(all)).slice(-2)).toEqual([made.nextMorning, made.lateNight]);
  });

  it('a page past the last shows the last', async () => {
    const lastPage = Math.ceil((SEEDED + 12) / HISTORY_PAGE_SIZE);
    const past = await list(PARTNER, {}, lastPage + 1);
    expect(past).toMatchObject({ total: SEEDED + 12, more: false, page: lastPage });
    expect(numbers(past.content)).toEqual(numbers((await list(PARTNER, {}, lastPage)).content));
  });

  it('the next page is reached by the cursor of the last row shown, and back', async () => {
    const first = await list(PARTNER);
    const pager = keysetPager(first);
    const next = await listQuotes(db, await sellerOf(PARTNER), {}, pageRequestOf(2, pager.next!.cursor));
    expect(numbers(next.content)).toEqual(numbers((await list(PARTNER, {}, 2)).content));
    const back = keysetPager(next).previous!;
    expect(numbers((await listQuotes(db, await sellerOf(PARTNER), {}, pageRequestOf(back.page, back.cursor))).content)).toEqual(
      numbers(first.content),
    );
  });

  it('no quote: no pages', async () => {
    expect(await list(PARTNER, { numero: '1' })).toEqual({ content: [], total: 0, more: false, page: 1, pageSize: HISTORY_PAGE_SIZE });
  });
});

describe('rows', () => {
  it('mask the document, and open each quote where it stopped: editable, expired or sent', async () => {
    const rows = [...(await list(PARTNER)).content, ...(await list(PARTNER, {}, 2)).content];
    const byName = (nome: string) => rows.find((r) => r.nomeSegurado === nome)!;
    expect(rows.every((r) => /^\*{3}\.\d{3}\.\d{3}-\*{2}$|^\*{2}\.\d{3}\.\d{3}\/\*{4}-\*{2}$/.test(r.documentoSegurado))).toBe(true);
    expect(byName('Padaria Bom Dia Ltda.').documentoSegurado).toBe('**.444.777/****-**');

    const open = byName(DEMO_INSURED.residencial.nome);
    expect(open).toMatchObject({
      code: 'RES',
      line: 'residencial',
      productName: 'Residencial',
      documentoSegurado: '***.185.963-**',
      premioTotal: null,
      status: 'EM_ELABORACAO',
      statusLabel: 'Em elaboração',
      nrProposta: null,
      seller: 'Eduarda Lima',
      href: `/v2/simulador-residencial/planos/${open.nrCotacao}/editar`,
      pdf: { cotacao: `/v2/relatorios/pdf/cotacao/${open.nrCotacao}`, proposta: null },
    });

    const expired = byName(DEMO_INSURED.vencida.nome);
    expect(expired).toMatchObject({
      status: 'VENCIDA',
      documentoSegurado: '***.819.375-**',
      premioTotal: expect.any(Number),
      href: `/v2/simulador-residencial/resumo/${expired.nrCotacao}/visualizar`,
    });
    expect(new Date(expired.validaAte).getTime()).toBeLessThan(Date.now());
    expect(Date.now() - new Date(expired.createdAt).getTime()).toBeGreaterThan(59 * 86_400_000);

    const sent = byName(DEMO_INSURED.vida.nome);
    expect(sent).toMatchObject({
      code: 'VEU',
      status: 'PROPOSTA_EM_ANALISE',
      premioTotal: expect.any(Number),
      href: `/v2/simulador-vida/proposta/${sent.nrCotacao}/visualizar`,
      pdf: { cotacao: `/v2/relatorios/pdf/cotacao/${sent.nrCotacao}`, proposta: `/v2/relatorios/pdf/proposta/${sent.nrCotacao}` },
    });
    expect(sent.premioTotal).toBeGreaterThan(0);
  });

  it('show an undecided proposal’s acceptance clock as its own page works it out, in the page’s one query', async () => {
    const seller = await sellerOf(PARTNER);
    const before = statements;
    const { content } = await listQuotes(db, seller, { status: 'PROPOSTA_EM_ANALISE' });
    // The page alone (a first page that holds every row needs no count, lib/keyset-pages.ts): a
    // proposal's clock comes with its row, never a query of its own.
    expect(statements - before).toBe(1);
    const byName = (nome: string) => content.find((r) => r.nomeSegurado === nome)!;
    // seed-policies.ts: referred 3 days ago; sent 8 days ago and waiting for documents since 6 days ago.
    expect(byName('Sérgio Almeida Prado').clock).toMatchObject({ state: 'running', daysLeft: 22 });
    expect(byName('Lívia Campos Teixeira').clock).toMatchObject({ state: 'suspended', daysLeft: 23 });
    expect(byName(DEMO_INSURED.vida.nome).clock).toEqual({ state: 'stopped' });
    for (const row of content) expect(row.clock).toEqual((await findQuote(db, seller, row.nrCotacao))!.proposta!.clock);
    // A quote never sent has no clock.
    expect((await list(PARTNER, { status: 'EM_ELABORACAO' })).content.every((r) => r.clock === null)).toBe(true);
  });

  it('never carries a whole CPF', async () => {
    const { content } = await list(ADMIN);
    const json = JSON.stringify(content);
    for (const insured of Object.values(DEMO_INSURED)) {
      expect(json).not.toContain(insured.cpf.replace(/\D/g, ''));
      expect(json).not.toContain(insured.cpf);
    }
  });
});

const tokens = new Map<string, string>();
async function tokenOf(email: string): Promise<string> {
  if (!tokens.has(email)) {
    const login = await signInApi(call, email);
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    tokens.set(email, (login.json.resultado?.token ?? login.json.token ?? login.json.dado?.token) as string);
  }
  return tokens.get(email)!;
}

describe('GET /api/bff/v1/cotacoes', () => {
  it('answers a page in the BFF envelope, with the seller’s visibility', async () => {
    const answer = await call('GET', '/api/bff/v1/cotacoes?simulador=res&page=2', { headers: { authtoken: await tokenOf(PARTNER) } });
    expect(answer.status).toBe(200);
    expect(answer.json.dado).toMatchObject({ totalElements: SEEDED - 2 + 9 + 2, totalPages: 2, page: 2 });
    expect(answer.json.dado.content).toHaveLength(SEEDED - 2 + 9 + 2 - HISTORY_PAGE_SIZE);
    // Keyset pages (lib/keyset-answer.ts): page 1 names the cursor of page 2, which reads the same rows.
    const first = await call('GET', '/api/bff/v1/cotacoes?simulador=res', { headers: { authtoken: await tokenOf(PARTNER) } });
    expect(first.json.dado).toMatchObject({ page: 1, more: true, next: { page: 2, cursor: expect.any(String) } });
    const next = await call('GET', `/api/bff/v1/cotacoes?simulador=res&page=2&cursor=${first.json.dado.next.cursor}`, {
      headers: { authtoken: await tokenOf(PARTNER) },
    });
    expect(next.json.dado).toMatchObject({ page: 2, more: false, previous: { page: 1 } });
    expect(next.json.dado.content).toEqual(answer.json.dado.content);
    const sent = await call('GET', '/api/bff/v1/cotacoes?status=PROPOSTA_EM_ANALISE', { headers: { authtoken: await tokenOf(PARTNER) } });
    expect(sent.json.dado.content.find((r: HistoryRow) => r.nomeSegurado === 'Sérgio Almeida Prado').clock).toMatchObject({
      state: 'running',
      daysLeft: 22,
      deadline: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const subagent = await call('GET', '/api/bff/v1/cotacoes', { headers: { authtoken: await tokenOf(SUBAGENT) } });
    expect(subagent.json.dado.totalElements).toBe(1);
  });

  it.each([
    ['de=2026-13-01', 'de', HISTORY_MESSAGES.date],
    ['de=2026-11-30&ate=2026-11-01', 'ate', HISTORY_MESSAGES.order],
    ['status=CANCELADA', 'status', HISTORY_MESSAGES.status],
    ['simulador=ABC', 'simulador', HISTORY_MESSAGES.product],
    ['documento=123.456.789-00', 'documento', HISTORY_MESSAGES.document],
    ['page=-1', 'page', HISTORY_MESSAGES.page],
  ])('400 with the field’s message for %s', async (query, field, message) => {
    const answer = await call('GET', `/api/bff/v1/cotacoes?${query}`, { headers: { authtoken: await tokenOf(PARTNER) } });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 400, message, erros: { [field]: [message] } });
  });

  it('401 without a v2 session', async () => {
    expect((await call('GET', '/api/bff/v1/cotacoes')).status).toBe(401);
    expect((await call('GET', '/api/bff/v1/cotacoes', { headers: { authtoken: await tokenOf('vendedor@legado.demo') } })).status).toBe(401);
  });

  it('403 for a v2 user the history page refuses, whatever the filters', async () => {
    await db
      .deleteFrom('user_operations')
      .where('user_id', '=', (await findUserByEmail(db, COLLEAGUE))!.id)
      .where('operation', '=', 'HISTORICO_COTACAO_PROPOSTA')
      .execute();
    await db
      .updateTable('users')
      .set({ password_hash: (await findUserByEmail(db, PARTNER))!.password_hash })
      .where('email', '=', COLLEAGUE)
      .execute();
    const token = await tokenOf(COLLEAGUE);
    expect((await call('GET', '/api/bff/v1/cotacoes', { headers: { authtoken: token } })).status).toBe(403);
    expect((await call('GET', '/api/bff/v1/cotacoes?status=XYZ', { headers: { authtoken: token } })).status).toBe(403);
  });
});
