import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { createQuote } from '../../src/server/services/selling/quotes';
import { sellableOffersV1 } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV1User } from '../../src/server/services/identity/principals';
import { sellerFromV1 } from '../../src/server/services/selling/sellers';
import { salesDataScopeFor } from '../../src/server/services/identity/scope';
import { metricsOptions, resolveFilters, salesEvolution } from '../../src/server/services/reporting/metrics';
import { POINT_OF_SALE_MESSAGES as M } from '../../src/lib/points-of-sale';
import { METRICS_MESSAGES } from '../../src/lib/metrics';
import { USER_ADMIN_MESSAGES } from '../../src/lib/user-admin';

/**
 * Points of sale (issue 17, decision 051) through the BFF and the services: who manages which
 * (another company's is a 404), the code unique per company in any case, sellers moved only by whoever
 * may change them, an inactive point of sale taking no new sales nor sellers, nothing half-written,
 * and a seller's next sale recorded where they work now — which the metrics then filter by.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';
const ADMIN = 'admin';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const PARTNER = 'parceiro@parceiro.demo';
const IGOR = 'igor.pereira@parceiro.demo';
const JULIANA = 'juliana.costa@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const tokens: Record<string, string> = {};

async function v2Token(email: string) {
  const { json, status } = await signInApi(call, email);
  expect(status, JSON.stringify(json)).toBe(200);
  return tokenOf(json) as string;
}
const as = (email: string) => ({ authtoken: tokens[email]! });
const idOf = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const pointOf = async (codigo: string, cnpj = HORIZONTE) =>
  db
    .selectFrom('points_of_sale as p')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .selectAll('p')
    .where('p.codigo', '=', codigo)
    .where('c.cnpj', '=', cnpj)
    .executeTakeFirstOrThrow();
const workplaceOf = async (email: string) =>
  (await db.selectFrom('users').select('point_of_sale_id').where('email', '=', email).executeTakeFirstOrThrow()).point_of_sale_id;
const quotePointOf = async (nrCotacao: string) =>
  (await db.selectFrom('quotes').select('point_of_sale_id').where('nr_cotacao', '=', nrCotacao).executeTakeFirstOrThrow()).point_of_sale_id;

const body = (over: Record<string, unknown> = {}) => ({
  empresa: HORIZONTE,
  nome: 'Quiosque Shopping Norte',
  codigo: 'pv-0003',
  cep: '02011-000',
  logradouro: 'Avenida Otto Baumgart',
  numero: '500',
  complemento: 'Piso 1',
  bairro: 'Vila Guilherme',
  cidade: 'São Paulo',
  uf: 'SP',
  status: 'ativo',
  vendedores: [],
  ...over,
});

/** A PARCEIRO of Horizonte made a point-of-sale manager (and, when asked, a user manager). */
const STORE_MANAGER = 'gerente.loja@parceiro.demo';

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
  for (const email of [ADMIN, PARTNER_ADMIN, PARTNER, SUBAGENT]) tokens[email] = await v2Token(email);
  const partner = await db.selectFrom('users').selectAll().where('email', '=', PARTNER).executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('users')
    .values({
      email: STORE_MANAGER,
      nome: 'Renata Campos',
      cpf: '25350946064',
      generation: 'v2',
      profile: 'parceiro',
      status: 'ATIVO',
      password_hash: partner.password_hash,
      company_id: partner.company_id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_companies').values({ user_id: id, company_id: partner.company_id! }).execute();
  await db.insertInto('user_operations').values({ user_id: id, operation: 'GERENCIAR_PONTO_VENDA' }).execute();
  tokens[STORE_MANAGER] = await v2Token(STORE_MANAGER);
}, 120_000);
afterAll(() => close());

describe('who manages which', () => {
  const codes = async (email: string, query = '') => {
    const { status, json } = await call('GET', `/api/bff/v1/pontos-venda${query}`, { headers: as(email) });
    expect(status, JSON.stringify(json)).toBe(200);
    return json.dado.content.map((p: { codigo: string }) => p.codigo);
  };

  it('ADMIN every company, PARCEIRO_ADMIN theirs, a holder of GERENCIAR_PONTO_VENDA its own; the others 403', async () => {
    // By company name (Agência Vale Verde, Corretora Horizonte), then code.
    expect(await codes(ADMIN)).toEqual(['VV-0001', 'PV-0001', 'PV-0002']);
    expect(await codes(PARTNER_ADMIN)).toEqual(['VV-0001', 'PV-0001', 'PV-0002']);
    expect(await codes(STORE_MANAGER)).toEqual(['PV-0001', 'PV-0002']);
    for (const email of [PARTNER, SUBAGENT]) {
      const { status, json } = await call('GET', '/api/bff/v1/pontos-venda', { headers: as(email) });
      expect(status).toBe(403);
      expect(json.message).toBe(M.forbidden);
    }
  });

  it('answers each row with its city, sellers and situation; filters by company, name or code and situation', async () => {
    const { json } = await call('GET', '/api/bff/v1/pontos-venda?busca=savassi', { headers: as(PARTNER_ADMIN) });
    expect(json.dado).toMatchObject({ totalElements: 1, totalPages: 1, page: 1 });
    // Juliana (v2) and the legacy seller work at Savassi.
    expect(json.dado.content[0]).toMatchObject({ codigo: 'PV-0002', cidade: 'Belo Horizonte', uf: 'MG', vendedores: 2, situacao: 'ATIVO' });
    expect(await codes(PARTNER_ADMIN, `?empresa=${VALE_VERDE}`)).toEqual(['VV-0001']);
    expect(await codes(PARTNER_ADMIN, '?situacao=INATIVO')).toEqual([]);
    const bad = await call('GET', '/api/bff/v1/pontos-venda?situacao=FECHADO&page=0', { headers: as(PARTNER_ADMIN) });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toEqual({ situacao: ['Situação inválida.'], page: ['Página inválida.'] });
  });

  it('another company’s point of sale is a 404, not told apart from one that does not exist', async () => {
    const valeVerde = await pointOf('VV-0001', VALE_VERDE);
    for (const path of [`/api/bff/v1/pontos-venda/${valeVerde.id}`, '/api/bff/v1/pontos-venda/999999', '/api/bff/v1/pontos-venda/abc']) {
      const { status, json } = await call('GET', path, { headers: as(STORE_MANAGER) });
      expect(status).toBe(404);
      expect(json.message).toBe(M.notFound);
    }
    const before = await pointOf('VV-0001', VALE_VERDE);
    const put = await call('PUT', `/api/bff/v1/pontos-venda/${valeVerde.id}`, {
      headers: as(STORE_MANAGER),
      body: body({ empresa: VALE_VERDE, codigo: 'VV-0001', nome: 'Tomada' }),
    });
    expect(put.status).toBe(404);
    expect(await pointOf('VV-0001', VALE_VERDE)).toEqual(before);
    // Nor may it create one there.
    const created = await call('POST', '/api/bff/v1/pontos-venda', { headers: as(STORE_MANAGER), body: body({ empresa: VALE_VERDE }) });
    expect(created.status).toBe(400);
    expect(created.json.erros).toEqual({ empresa: [M.empresa] });
  });
});

describe('creating and changing', () => {
  it('creates a point of sale with its address and sellers, and logs who did it', async () => {
    const { status, json } = await call('POST', '/api/bff/v1/pontos-venda', {
      headers: as(PARTNER_ADMIN),
      body: body({ vendedores: [await idOf(IGOR)] }),
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.dado).toMatchObject({
      codigo: 'PV-0003',
      situacao: 'ATIVO',
      endereco: { cep: '02011000', cidade: 'São Paulo', uf: 'SP', complemento: 'Piso 1' },
      vendedores: [{ email: IGOR, geracao: 'v2' }],
    });
    const point = await pointOf('PV-0003');
    expect(await workplaceOf(IGOR)).toBe(point.id);
    const actor = await idOf(PARTNER_ADMIN);
    const events = await db.selectFrom('access_events').selectAll().where('actor_id', '=', actor).orderBy('id').execute();
    expect(events.map((e) => [e.event, e.user_id === null ? null : e.email])).toEqual([
      ['PONTO_VENDA_CRIADO', null],
      ['USUARIO_ALTERADO', IGOR],
    ]);
    expect(events[0]!.detalhe).toBe(`ponto de venda PV-0003 (${HORIZONTE}): criado; vendedores: +${IGOR}`);
    expect(events[1]!.detalhe).toBe('ponto de venda: PV-0001 → PV-0003');
  });

  it('keeps codes unique per company whatever their case; another company may use the same code', async () => {
    const count = async () => (await db.selectFrom('points_of_sale').select('id').execute()).length;
    const before = await count();
    const again = await call('POST', '/api/bff/v1/pontos-venda', { headers: as(PARTNER_ADMIN), body: body({ codigo: 'Pv-0003' }) });
    expect(again.status).toBe(409);
    expect(again.json.erros).toEqual({ codigo: [M.codigoDuplicado] });
    expect(await count()).toBe(before);
    const renamed = await call('PUT', `/api/bff/v1/pontos-venda/${(await pointOf('PV-0002')).id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'pv-0001', nome: 'Loja Savassi — Belo Horizonte', vendedores: [await idOf(JULIANA)] }),
    });
    expect(renamed.status).toBe(409);
    expect((await pointOf('PV-0002')).nome).toBe('Loja Savassi — Belo Horizonte');
    const elsewhere = await call('POST', '/api/bff/v1/pontos-venda', {
      headers: as(PARTNER_ADMIN),
      body: body({ empresa: VALE_VERDE, nome: 'Agência Vale Verde — Jundiaí' }),
    });
    expect(elsewhere.status, JSON.stringify(elsewhere.json)).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('answers two saves of one code at the same moment with one point of sale and one 409', async () => {
    const results = await Promise.all(
      ['pv-0009', 'PV-0009'].map((codigo) =>
        call('POST', '/api/bff/v1/pontos-venda', { headers: as(PARTNER_ADMIN), body: body({ codigo }) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await db.selectFrom('points_of_sale').select('id').where('codigo', '=', 'PV-0009').execute()).toHaveLength(1);
  });

  it('answers bad input with pt-BR field errors, never a 500, and stores nothing', async () => {
    const before = await db.selectFrom('points_of_sale').selectAll().execute();
    const { status, json } = await call('POST', '/api/bff/v1/pontos-venda', {
      headers: as(PARTNER_ADMIN),
      body: { empresa: 7, nome: ['x'], codigo: '--', cep: '1', uf: 'ZZ', vendedores: 'todos' },
    });
    expect(status).toBe(400);
    expect(Object.keys(json.erros).sort()).toEqual([
      'bairro',
      'cep',
      'cidade',
      'codigo',
      'empresa',
      'logradouro',
      'nome',
      'numero',
      'uf',
      'vendedores',
    ]);
    expect(json.erros.codigo).toEqual([M.codigo]);
    expect(await db.selectFrom('points_of_sale').selectAll().execute()).toEqual(before);
  });

  it('does not move a point of sale to another company', async () => {
    const point = await pointOf('PV-0003');
    const { status, json } = await call('PUT', `/api/bff/v1/pontos-venda/${point.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ empresa: VALE_VERDE, vendedores: [await idOf(IGOR)] }),
    });
    expect(status).toBe(400);
    expect(json.erros).toEqual({ empresa: [M.empresaFixa] });
  });
});

describe('sellers', () => {
  it('are moved only by whoever may change them: a manager of points of sale without GERENCIAR_USUARIOS moves nobody', async () => {
    const savassi = await pointOf('PV-0002');
    const put = (vendedores: number[]) =>
      call('PUT', `/api/bff/v1/pontos-venda/${savassi.id}`, {
        headers: as(STORE_MANAGER),
        body: body({ codigo: 'PV-0002', nome: 'Loja Savassi — Belo Horizonte', vendedores }),
      });
    const juliana = await idOf(JULIANA);
    const igor = await idOf(IGOR);
    const refused = await put([juliana, igor]);
    expect(refused.status).toBe(400);
    expect(refused.json.erros).toEqual({ vendedores: [M.vendedorFora] });
    expect(await workplaceOf(IGOR)).toBe((await pointOf('PV-0003')).id);
    // Saving without anyone checked leaves Juliana (not theirs to move) where she is, and the address changes.
    const saved = await put([]);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(await workplaceOf(JULIANA)).toBe(savassi.id);
    expect((await pointOf('PV-0002')).logradouro).toBe('Avenida Otto Baumgart');
  });

  it('with GERENCIAR_USUARIOS too, moves the partners they manage, but never the partner’s administrator nor another company’s user', async () => {
    await db
      .insertInto('user_operations')
      .values({ user_id: await idOf(STORE_MANAGER), operation: 'GERENCIAR_USUARIOS' })
      .execute();
    const centro = await pointOf('PV-0001');
    const put = async (emails: string[]) =>
      call('PUT', `/api/bff/v1/pontos-venda/${centro.id}`, {
        headers: as(STORE_MANAGER),
        body: body({ codigo: 'PV-0001', nome: 'Loja Centro — São Paulo', vendedores: await Promise.all(emails.map(idOf)) }),
      });
    for (const outsider of [PARTNER_ADMIN, SUBAGENT]) {
      const refused = await put([PARTNER, outsider]);
      expect(refused.status).toBe(400);
      expect(refused.json.erros).toEqual({ vendedores: [M.vendedorFora] });
    }
    const moved = await put([PARTNER, JULIANA]);
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect(await workplaceOf(JULIANA)).toBe(centro.id);
    expect(await workplaceOf(PARTNER_ADMIN)).toBeNull();
  });

  it('a seller’s next sale is made where they work now, and the metrics filter by it', async () => {
    const igor = await sellResidential(db, { email: IGOR, contratacao: { formaPagamento: 'pix', parcelas: 1 } });
    const quiosque = await pointOf('PV-0003');
    expect(await quotePointOf(igor.nrCotacao)).toBe(quiosque.id);
    // Moved back to the Centro: the very next quote records it (the cached principal was told at once).
    const centro = await pointOf('PV-0001');
    const moved = await call('PUT', `/api/bff/v1/pontos-venda/${centro.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0001', nome: 'Loja Centro — São Paulo', vendedores: await Promise.all([PARTNER, JULIANA, IGOR].map(idOf)) }),
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    const next = await sellResidential(db, { email: IGOR });
    expect(await quotePointOf(next.nrCotacao)).toBe(centro.id);

    const { scope } = await salesDataScopeFor(db, await viewerByEmail(db, PARTNER_ADMIN), 'METRICAS');
    const options = await metricsOptions(db, scope);
    expect(options.pointsOfSale.find((p) => p.code === 'PV-0003' && p.companyId === quiosque.company_id)).toMatchObject({ active: true });
    const filtered = resolveFilters(options, { empresa: HORIZONTE, pontoVenda: 'pv-0003' });
    if (!filtered.ok) throw new Error(JSON.stringify(filtered.errors));
    expect(filtered.value.pointOfSaleId).toBe(quiosque.id);
    const evolution = await salesEvolution(db, scope, filtered.value, new Date().toISOString().slice(0, 10));
    expect(evolution.totals.policies).toBe(igor.nrApolice ? 1 : 0);
    expect(igor.nrApolice).toBeDefined();
    // PV-0003 is Horizonte's and Vale Verde's: without the company it is ambiguous, never a guess.
    expect(resolveFilters(options, { pontoVenda: 'PV-0003' })).toEqual({
      ok: false,
      errors: { pontoVenda: [METRICS_MESSAGES.pontoVendaAmbiguo] },
    });
  });
});

describe('an inactive point of sale', () => {
  it('is not deactivated while active sellers are there; nothing of the refused save is written', async () => {
    const centro = await pointOf('PV-0001');
    const sellers = await Promise.all([PARTNER, JULIANA, IGOR].map(idOf));
    const { status, json } = await call('PUT', `/api/bff/v1/pontos-venda/${centro.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0001', nome: 'Loja Centro — fechada', status: 'inativo', vendedores: sellers }),
    });
    expect(status).toBe(409);
    expect(json.erros).toEqual({ status: [M.comVendedores(3)] });
    expect(await pointOf('PV-0001')).toEqual(centro);
  });

  it('is deactivated once its sellers are unchecked; they then sell at the company’s first active point of sale', async () => {
    const quiosque = await pointOf('PV-0003');
    const { status, json } = await call('PUT', `/api/bff/v1/pontos-venda/${quiosque.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0003', status: 'inativo', vendedores: [] }),
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.dado.situacao).toBe('INATIVO');
    const events = await db
      .selectFrom('access_events')
      .select('event')
      .where('event', 'like', 'PONTO_VENDA_%')
      .orderBy('id', 'desc')
      .execute();
    expect(events[0]!.event).toBe('PONTO_VENDA_DESATIVADO');
  });

  it('takes no new sellers, from its own form or from the user registration; one already there may stay', async () => {
    const quiosque = await pointOf('PV-0003');
    const refused = await call('PUT', `/api/bff/v1/pontos-venda/${quiosque.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0003', status: 'inativo', vendedores: [await idOf(JULIANA)] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.json.erros.vendedores).toEqual([M.inativoSemNovos]);
    const user = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(PARTNER_ADMIN),
      body: {
        cpf: '123.456.781-43',
        nome: 'Marina Teixeira',
        email: 'marina.teixeira@parceiro.demo',
        celular: '(11) 98888-7777',
        perfil: 'PARCEIRO',
        empresas: [HORIZONTE],
        pontoVenda: String(quiosque.id),
        operacoes: ['COTAR_VENDER'],
      },
    });
    expect(user.status).toBe(400);
    expect(user.json.erros).toEqual({ pontoVenda: [USER_ADMIN_MESSAGES.pointOfSaleInactive] });
    expect(
      await db.selectFrom('users').select('id').where('email', '=', 'marina.teixeira@parceiro.demo').executeTakeFirst(),
    ).toBeUndefined();

    // A seller who left while working there keeps the link (history); reactivated, they may keep it.
    const igor = await idOf(IGOR);
    await db.updateTable('users').set({ status: 'INATIVO', point_of_sale_id: quiosque.id }).where('id', '=', igor).execute();
    const group = (await db.selectFrom('users').select('permission_group_id').where('id', '=', igor).executeTakeFirstOrThrow())
      .permission_group_id;
    const back = await call('PUT', `/api/plataforma/v1/usuarios/${igor}`, {
      headers: as(PARTNER_ADMIN),
      body: {
        cpf: '349.367.653-09',
        nome: 'Igor Pereira',
        email: IGOR,
        celular: '(11) 98888-1234',
        perfil: 'PARCEIRO',
        empresas: [HORIZONTE],
        pontoVenda: String(quiosque.id),
        grupoPermissao: String(group),
        operacoes: [],
        status: 'ativo',
      },
    });
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(await workplaceOf(IGOR)).toBe(quiosque.id);
  });

  it('is not where a sale is made: a legacy seller still linked to one sells at the company’s first active one', async () => {
    const savassi = await pointOf('PV-0002');
    // Juliana has moved to the Centro; only the legacy seller is left at Savassi, and does not hold it open.
    const closed = await call('PUT', `/api/bff/v1/pontos-venda/${savassi.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0002', nome: 'Loja Savassi — Belo Horizonte', status: 'inativo', vendedores: [] }),
    });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    expect(await workplaceOf('vendedor@legado.demo')).toBe(savassi.id);
    const legacy = await loadV1User(db, (await findUserByEmail(db, 'vendedor@legado.demo'))!);
    const offer = (await sellableOffersV1(db, legacy)).find((o) => o.code === 'RES')!;
    const quote = await createQuote(db, await sellerFromV1(db, legacy), offer, {
      segurado: DEMO_INSURED.residencial,
      respostas: { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false },
    });
    expect(await quotePointOf(quote.nrCotacao)).toBe((await pointOf('PV-0001')).id);
    // Its history stays: the metrics still offer it, marked inactive.
    const { scope } = await salesDataScopeFor(db, await viewerByEmail(db, 'admin@seguradora.demo'), 'METRICAS');
    expect((await metricsOptions(db, scope)).pointsOfSale.find((p) => p.id === savassi.id)).toMatchObject({ active: false });
  });

  it('and reactivated, it takes sellers again', async () => {
    const savassi = await pointOf('PV-0002');
    const { status, json } = await call('PUT', `/api/bff/v1/pontos-venda/${savassi.id}`, {
      headers: as(PARTNER_ADMIN),
      body: body({ codigo: 'PV-0002', nome: 'Loja Savassi — Belo Horizonte', status: 'ativo', vendedores: [await idOf(JULIANA)] }),
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(await workplaceOf(JULIANA)).toBe(savassi.id);
  });

  it('never ends up holding an active seller, whichever of a deactivation and a registration there comes first', async () => {
    const point = await pointOf('VV-0001', VALE_VERDE);
    const [closing, registering] = await Promise.all([
      call('PUT', `/api/bff/v1/pontos-venda/${point.id}`, {
        headers: as(PARTNER_ADMIN),
        body: body({ empresa: VALE_VERDE, codigo: 'VV-0001', nome: point.nome, status: 'inativo', vendedores: [] }),
      }),
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(PARTNER_ADMIN),
        body: {
          cpf: '135.411.348-95',
          nome: 'Otávio Rezende',
          email: 'otavio.rezende@parceiro.demo',
          celular: '(19) 98888-7777',
          perfil: 'SUBSTABELECIDO',
          empresas: [VALE_VERDE],
          pontoVenda: String(point.id),
          operacoes: ['COTAR_VENDER'],
        },
      }),
    ]);
    // Either may win. The registration first: the close counts the new user — refused (409), or, as
    // this form checks nobody, released with the close (both 200). The close first: the registration
    // reads it closed (400). Never a user put at a point of sale closed under them.
    expect([closing.status, registering.status]).toContain(200);
    expect([200, 409]).toContain(closing.status);
    expect([200, 400]).toContain(registering.status);
    const status = (await pointOf('VV-0001', VALE_VERDE)).status;
    const active = await db
      .selectFrom('users')
      .select('id')
      .where('point_of_sale_id', '=', point.id)
      .where('generation', '=', 'v2')
      .where('status', '<>', 'INATIVO')
      .execute();
    expect(status === 'INATIVO' && active.length > 0).toBe(false);
  });
});
