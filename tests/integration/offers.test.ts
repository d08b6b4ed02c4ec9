import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesSettled, type DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi } from '../fixtures/api';
import { findSellableOffer, sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { V2_SIMULATOR_CODES } from '../../src/lib/simulators';
import type { V2SessionUser } from '../../src/lib/session';
import { now } from '../../src/server/clock';
import { brasiliaDay } from '../../src/lib/format';
import { demoOfferTerm } from '../../src/lib/offer-validity';

/** Offers: who sells what (service and API), the simulator start, and the admin's offer management. */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const tokens = new Map<string, string>();

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
});
afterAll(() => close());

const TODAY = now();
/** The seed's offers run from the first day of last year to the last day of the year after next. */
const TERM = demoOfferTerm(brasiliaDay(TODAY));

async function v2User(email: string): Promise<V2SessionUser> {
  const user = await findUserByEmail(db, email);
  return loadV2User(db, user!, { fullyAuthenticated: true });
}

/** One sign-in per account for the whole file (sign-in is rate-limited). */
async function token(email: string): Promise<string> {
  if (!tokens.has(email)) {
    const { status, json } = await signInApi(call, email);
    expect(status, JSON.stringify(json)).toBe(200);
    tokens.set(email, (json.resultado?.token ?? json.token ?? json.dado?.token) as string);
  }
  return tokens.get(email)!;
}
const as = async (email: string) => ({ authtoken: await token(email) });

const ADMIN = 'admin@seguradora.demo';
const PARTNER = 'parceiro@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';

const companyId = async (cnpj: string) =>
  (await db.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirstOrThrow()).id;
const simulatorId = async (code: string) =>
  (await db.selectFrom('simulators').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';

describe('sellableOffers', () => {
  it('a sub-delegated user sells exactly the partner’s RES, IPU and VEU offers (inherited from the parent company)', async () => {
    const offers = await sellableOffers(db, await v2User(SUBAGENT), TODAY);
    expect(offers.map((o) => o.code).sort()).toEqual(['IPU', 'RES', 'VEU']);
    expect(offers.every((o) => o.companyName === 'Horizonte Seguros')).toBe(true);
    // Sorted by simulator name: Itens Pessoais, Residencial, Vida.
    expect(offers.map((o) => o.simulatorName)).toEqual(['Itens Pessoais', 'Residencial', 'Vida']);
  });

  it('returns the documented shape, with the start route of each offer', async () => {
    const [residencial] = (await sellableOffers(db, await v2User(SUBAGENT), TODAY)).filter((o) => o.code === 'RES');
    expect(residencial).toEqual({
      nrOferta: expect.any(Number),
      idSimulador: expect.any(Number),
      code: 'RES',
      simulatorName: 'Residencial',
      offerName: 'Residencial — Horizonte',
      line: 'residencial',
      companyName: 'Horizonte Seguros',
      vigenciaFim: TERM.fim,
      commissionPercent: 20,
      startPath: `/v2/simulador-residencial/cadastro/iniciar/${residencial!.idSimulador}/${residencial!.nrOferta}`,
    });
    const [itens] = (await sellableOffers(db, await v2User(SUBAGENT), TODAY)).filter((o) => o.code === 'IPU');
    expect(itens!.startPath).toBe(`/v2/simulador-itens-pessoais/cadastro/iniciar/${itens!.nrOferta}`);
  });

  it('a partner with every offer operation sells every v2 code; the provider admin sees every offer', async () => {
    const v2Codes = V2_SIMULATOR_CODES.map((s) => s.code).sort();
    expect((await sellableOffers(db, await v2User(PARTNER), TODAY)).map((o) => o.code).sort()).toEqual(v2Codes);
    expect((await sellableOffers(db, await v2User(ADMIN), TODAY)).map((o) => o.code).sort()).toEqual(v2Codes);
  });

  it('hides offers outside their validity, inactive offers and offers of inactive simulators', async () => {
    const subagent = await v2User(SUBAGENT);
    const noon = (day: string, days = 0) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000);
    expect(await sellableOffers(db, subagent, noon(TERM.inicio, -1))).toEqual([]);
    expect(await sellableOffers(db, subagent, noon(TERM.fim, 1))).toEqual([]);
    expect(await sellableOffers(db, subagent, noon(TERM.fim))).toHaveLength(3);

    const res = await simulatorId('RES');
    const vida = await simulatorId('VEU');
    await db.updateTable('simulators').set({ ativo: false }).where('id', '=', res).execute();
    await db.updateTable('offers').set({ ativo: false }).where('simulator_id', '=', vida).execute();
    await changesSettled(db);
    try {
      expect((await sellableOffers(db, subagent, TODAY)).map((o) => o.code)).toEqual(['IPU']);
    } finally {
      await db.updateTable('simulators').set({ ativo: true }).where('id', '=', res).execute();
      await db.updateTable('offers').set({ ativo: true }).where('simulator_id', '=', vida).execute();
      await changesSettled(db);
    }
  });

  it('an offer of the sub-delegated company is not the partner’s (inheritance goes down, not up), and with one of its own the sub sells exactly its own (decision 052)', async () => {
    // A substabelecido's own offer derives from its partner's (its steps write it; here, by hand).
    const parent = await db
      .selectFrom('offers as o')
      .innerJoin('simulators as s', 's.id', 'o.simulator_id')
      .select(['o.id', 'o.simulator_id'])
      .where('s.code', '=', 'RES')
      .where('o.company_id', '=', await companyId(HORIZONTE))
      .executeTakeFirstOrThrow();
    const created = await db
      .insertInto('offers')
      .values({
        simulator_id: parent.simulator_id,
        company_id: await companyId(VALE_VERDE),
        nome: 'Residencial — Vale Verde',
        vigencia_inicio: '2026-01-01',
        vigencia_fim: null,
        comissao_centesimos: 15_00,
        parent_offer_id: parent.id,
      })
      .returning('id as nrOferta')
      .executeTakeFirstOrThrow();
    await changesSettled(db);
    try {
      expect((await sellableOffers(db, await v2User(SUBAGENT), TODAY)).map((o) => o.offerName)).toEqual(['Residencial — Vale Verde']);
      expect(await findSellableOffer(db, await v2User(PARTNER), created.nrOferta, TODAY)).toBeUndefined();
      expect(await findSellableOffer(db, await v2User(SUBAGENT), created.nrOferta, TODAY)).toMatchObject({
        vigenciaFim: null,
        commissionPercent: 15,
      });
    } finally {
      await db.deleteFrom('offers').where('id', '=', created.nrOferta).execute();
      await changesSettled(db);
    }
  });

  it('findSellableOffer refuses an offer of a code the user may not sell', async () => {
    const [agricola] = (await sellableOffers(db, await v2User(PARTNER), TODAY)).filter((o) => o.code === 'AFU');
    expect(await findSellableOffer(db, await v2User(PARTNER), agricola!.nrOferta, TODAY)).toMatchObject({ code: 'AFU' });
    expect(await findSellableOffer(db, await v2User(SUBAGENT), agricola!.nrOferta, TODAY)).toBeUndefined();
  });
});

describe('platform endpoints', () => {
  it('GET /v1/simuladores lists the simulators merged with the code table, with each generation’s permission name', async () => {
    const v2 = await call('GET', '/api/plataforma/v1/simuladores', { headers: await as(PARTNER) });
    expect(v2.status).toBe(200);
    expect(v2.json.status).toBe('OK');
    expect(
      v2.json.resultado.find((s: { tipoSimulador: { cdTipoSimulador: string } }) => s.tipoSimulador.cdTipoSimulador === 'EMP'),
    ).toEqual({
      id: expect.any(Number),
      tipoSimulador: { cdTipoSimulador: 'EMP' },
      nome: 'Empresarial (antigo)',
      ativo: true,
      url: '/emissao/consulta-cotacao/iniciar/empresarial',
      tipo: 'empresarial',
      permissao: 'OFERTAS_DISPONIVEIS_SIMULADORES_EMPRESARIAL',
      grupoProduto: '0118',
    });
    const v1 = await call('GET', '/api/plataforma/v1/simuladores', { headers: await as('vendedor@legado.demo') });
    expect(
      v1.json.resultado.find((s: { tipoSimulador: { cdTipoSimulador: string } }) => s.tipoSimulador.cdTipoSimulador === 'EMP').permissao,
    ).toBe('OFERTAS_DISPONIVEIS_EMP');
    expect((await call('GET', '/api/plataforma/v1/simuladores')).status).toBe(401);
  });

  it('data-para-cotacao answers the offer and the selling channel', async () => {
    const res = await simulatorId('RES');
    const partner = await call('GET', `/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=${res}`, {
      headers: await as(PARTNER),
    });
    expect(partner).toMatchObject({
      status: 200,
      json: { status: 'OK', resultado: { nrOferta: expect.any(Number), meioCanal: 'PORTAL', canal: HORIZONTE, pontoVenda: 'PV-0001' } },
    });
    // A sub-delegated company sells the partner's offer as itself, at its own point of sale (its agency).
    const subagent = await call('GET', `/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=${res}`, {
      headers: await as(SUBAGENT),
    });
    expect(subagent.json.resultado).toEqual({
      nrOferta: partner.json.resultado.nrOferta,
      meioCanal: 'PORTAL',
      canal: VALE_VERDE,
      pontoVenda: 'VV-0001',
    });

    const agricola = await simulatorId('AFU');
    expect(
      (
        await call('GET', `/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=${agricola}`, {
          headers: await as(SUBAGENT),
        })
      ).status,
    ).toBe(403);
    const unknown = await call('GET', '/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=9999', {
      headers: await as(PARTNER),
    });
    expect(unknown).toMatchObject({ status: 404, json: { message: 'Simulador não encontrado.' } });
    expect(
      (await call('GET', '/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=abc', { headers: await as(PARTNER) }))
        .status,
    ).toBe(400);
    // The legacy generation gets its own rules later: a v1 token is not accepted here.
    expect(
      (
        await call('GET', `/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=${res}`, {
          headers: await as('vendedor@legado.demo'),
        })
      ).status,
    ).toBe(401);
  });

  it('data-para-cotacao is 404 with a pt-BR message when no offer is in force', async () => {
    const res = await simulatorId('RES');
    await db.updateTable('offers').set({ ativo: false }).where('simulator_id', '=', res).execute();
    try {
      const none = await call('GET', `/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=${res}`, {
        headers: await as(PARTNER),
      });
      expect(none).toMatchObject({ status: 404, json: { message: 'Não há oferta vigente deste produto para a sua empresa.' } });
      expect(
        (await call('POST', '/api/plataforma/v1/simuladores/iniciar', { headers: await as(PARTNER), body: { cdTipoSimulador: 'RES' } }))
          .status,
      ).toBe(404);
    } finally {
      await db.updateTable('offers').set({ ativo: true }).where('simulator_id', '=', res).execute();
    }
  });

  it('POST /v1/simuladores/iniciar answers the nrOferta, 403 to whoever may not sell the code', async () => {
    const started = await call('POST', '/api/plataforma/v1/simuladores/iniciar', {
      headers: await as(SUBAGENT),
      body: { cdTipoSimulador: 'ipu' },
    });
    const [itens] = (await sellableOffers(db, await v2User(SUBAGENT))).filter((o) => o.code === 'IPU');
    expect(started).toMatchObject({ status: 200, json: { status: 'OK', resultado: { nrOferta: itens!.nrOferta } } });
    expect(
      (await call('POST', '/api/plataforma/v1/simuladores/iniciar', { headers: await as(SUBAGENT), body: { cdTipoSimulador: 'AFU' } }))
        .status,
    ).toBe(403);
    // A legacy code has no v2 simulator: nobody sells it here.
    expect(
      (
        await call('POST', '/api/plataforma/v1/simuladores/iniciar', {
          headers: await as(PARTNER),
          body: { cdTipoSimulador: 'IP', nrGrupoProduto: '0171' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call('POST', '/api/plataforma/v1/simuladores/iniciar', { headers: await as(PARTNER), body: { cdTipoSimulador: 'XYZ' } }))
        .status,
    ).toBe(404);
    const invalid = await call('POST', '/api/plataforma/v1/simuladores/iniciar', { headers: await as(PARTNER), body: {} });
    expect(invalid).toMatchObject({ status: 400, json: { erros: { cdTipoSimulador: ['Tipo de simulador obrigatório'] } } });
  });
});

describe('BFF offer management', () => {
  /** A second partner: offers go to partners only (a substabelecido's derive from its partner's, decision 052). */
  const AURORA = '48392017000168';
  beforeAll(async () => {
    await db
      .insertInto('companies')
      .values({ cnpj: AURORA, razao_social: 'Aurora Corretora Ltda.', nome_fantasia: 'Aurora', tipo: 'PARCEIRO', parent_id: null })
      .execute();
  });
  const validBody = async () => ({
    idSimulador: await simulatorId('FL'),
    nome: 'Floresta — Campanha',
    empresas: [await companyId(HORIZONTE), await companyId(AURORA)],
    vigenciaInicio: '2026-03-01',
    vigenciaFim: '2026-12-31',
    comissao: '12,50',
    ativo: true,
  });

  it('GET /v1/ofertas: every offer for the admin, the sellable ones for the others', async () => {
    const admin = await call('GET', '/api/bff/v1/ofertas', { headers: await as(ADMIN) });
    const total = (await db.selectFrom('offers').select('id').execute()).length;
    expect(admin.json.dado).toHaveLength(total);
    expect(admin.json.dado[0]).toMatchObject({
      nrOferta: expect.any(Number),
      companyName: expect.any(String),
      comissaoCentesimos: expect.any(Number),
      ativo: expect.any(Boolean),
    });
    const fl = await simulatorId('FL');
    const filtered = await call('GET', `/api/bff/v1/ofertas?idSimulador=${fl}`, { headers: await as(ADMIN) });
    expect(filtered.json.dado.every((o: { idSimulador: number }) => o.idSimulador === fl)).toBe(true);

    const subagent = await call('GET', '/api/bff/v1/ofertas', { headers: await as(SUBAGENT) });
    expect(subagent.json.dado.map((o: { code: string }) => o.code).sort()).toEqual(['IPU', 'RES', 'VEU']);
  });

  it('creates one offer per company, updates one, and lists the change', async () => {
    const body = await validBody();
    const created = await call('POST', '/api/bff/v1/ofertas', { headers: await as(ADMIN), body });
    expect(created.status).toBe(200);
    expect(created.json.dado).toHaveLength(2);
    expect(created.json.dado.map((o: { companyName: string }) => o.companyName).sort()).toEqual(['Aurora', 'Horizonte Seguros']);
    expect(created.json.dado[0]).toMatchObject({
      offerName: 'Floresta — Campanha',
      comissaoCentesimos: 1250,
      vigenciaInicio: '2026-03-01',
      vigenciaFim: '2026-12-31',
      ativo: true,
    });

    const { nrOferta } = created.json.dado[0];
    const updated = await call('PUT', `/api/bff/v1/ofertas/${nrOferta}`, {
      headers: await as(ADMIN),
      body: { ...body, empresas: [created.json.dado[0].idEmpresa], comissao: 18, vigenciaFim: '', ativo: false },
    });
    expect(updated).toMatchObject({
      status: 200,
      json: { dado: { oferta: { nrOferta, comissaoCentesimos: 1800, vigenciaFim: null, ativo: false }, criadas: [] } },
    });
    const listed = await call('GET', '/api/bff/v1/ofertas', { headers: await as(ADMIN) });
    expect(listed.json.dado.find((o: { nrOferta: number }) => o.nrOferta === nrOferta)).toMatchObject({
      commissionPercent: 18,
      ativo: false,
    });
  });

  it('moving an offer to other companies keeps its number and copies it to the rest', async () => {
    const body = await validBody();
    const [offer] = (
      await call('POST', '/api/bff/v1/ofertas', { headers: await as(ADMIN), body: { ...body, empresas: [await companyId(HORIZONTE)] } })
    ).json.dado;
    const moved = await call('PUT', `/api/bff/v1/ofertas/${offer.nrOferta}`, {
      headers: await as(ADMIN),
      body: { ...body, empresas: [await companyId(AURORA)] },
    });
    expect(moved.json.dado.oferta).toMatchObject({ nrOferta: offer.nrOferta, companyName: 'Aurora' });
    const copied = await call('PUT', `/api/bff/v1/ofertas/${offer.nrOferta}`, {
      headers: await as(ADMIN),
      body: { ...body, empresas: [await companyId(HORIZONTE), await companyId(AURORA)] },
    });
    expect(copied.json.dado.oferta.companyName).toBe('Aurora');
    expect(copied.json.dado.criadas.map((o: { companyName: string }) => o.companyName)).toEqual(['Horizonte Seguros']);
  });

  it('gives offers to partners only: a substabelecido’s come from its partner’s, and its derived offer is neither moved nor copied', async () => {
    const sub = await companyId(VALE_VERDE);
    const before = (await db.selectFrom('offers').select('id').execute()).length;
    const refused = await call('POST', '/api/bff/v1/ofertas', {
      headers: await as(ADMIN),
      body: { ...(await validBody()), empresas: [sub] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.erros.empresas[0]).toContain('as ofertas dele vêm das do parceiro');
    expect((await db.selectFrom('offers').select('id').execute()).length).toBe(before);
    const parent = await db
      .selectFrom('offers')
      .select(['id', 'simulator_id'])
      .where('company_id', '=', await companyId(HORIZONTE))
      .executeTakeFirstOrThrow();
    const derived = await db
      .insertInto('offers')
      .values({
        simulator_id: parent.simulator_id,
        company_id: sub,
        nome: 'Derivada',
        vigencia_inicio: '2026-01-01',
        vigencia_fim: null,
        comissao_centesimos: 1,
        parent_offer_id: parent.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const body = { ...(await validBody()), idSimulador: parent.simulator_id, comissao: '0,02' };
      const moved = await call('PUT', `/api/bff/v1/ofertas/${derived.id}`, {
        headers: await as(ADMIN),
        body: { ...body, empresas: [await companyId(HORIZONTE)] },
      });
      expect(moved.status).toBe(400);
      const kept = await call('PUT', `/api/bff/v1/ofertas/${derived.id}`, { headers: await as(ADMIN), body: { ...body, empresas: [sub] } });
      expect(kept.status, JSON.stringify(kept.json)).toBe(200);
      expect(kept.json.dado.oferta).toMatchObject({ companyName: 'Vale Verde', comissaoCentesimos: 2, derivada: true });
    } finally {
      await db.deleteFrom('offers').where('id', '=', derived.id).execute();
    }
  });

  it('answers 400 with pt-BR field errors and saves nothing', async () => {
    const before = (await db.selectFrom('offers').select('id').execute()).length;
    const body = await validBody();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nome: 'ab' }, 'nome', 'O nome da oferta deve ter entre 3 e 120 caracteres'],
      [{ empresas: [] }, 'empresas', 'Selecione ao menos uma empresa'],
      [{ empresas: [999_999] }, 'empresas', 'Selecione apenas empresas cadastradas'],
      [{ vigenciaFim: '2026-01-01' }, 'vigenciaFim', 'O fim da vigência não pode ser anterior ao início'],
      [{ comissao: '100,50' }, 'comissao', 'Informe a comissão entre 0 e 100%, com até 2 casas decimais'],
      [{ comissao: 12.345 }, 'comissao', 'Informe a comissão entre 0 e 100%, com até 2 casas decimais'],
      [{ idSimulador: 999_999 }, 'idSimulador', 'Simulador não encontrado'],
    ];
    for (const [change, field, message] of cases) {
      const answer = await call('POST', '/api/bff/v1/ofertas', { headers: await as(ADMIN), body: { ...body, ...change } });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.json.erros[field], JSON.stringify(change)).toEqual([message]);
    }
    const [some] = (await call('GET', '/api/bff/v1/ofertas', { headers: await as(ADMIN) })).json.dado;
    const invalidUpdate = await call('PUT', `/api/bff/v1/ofertas/${some.nrOferta}`, {
      headers: await as(ADMIN),
      body: { ...body, nome: '' },
    });
    expect(invalidUpdate.status).toBe(400);
    expect((await db.selectFrom('offers').select('nome').where('id', '=', some.nrOferta).executeTakeFirstOrThrow()).nome).toBe(
      some.offerName,
    );
    expect(await db.selectFrom('offers').select('id').execute()).toHaveLength(before);
  });

  it('404 for an unknown offer; 403 for everyone but the provider admin, whatever they send', async () => {
    expect((await call('PUT', '/api/bff/v1/ofertas/999999', { headers: await as(ADMIN), body: await validBody() })).status).toBe(404);
    expect((await call('PUT', '/api/bff/v1/ofertas/abc', { headers: await as(ADMIN), body: await validBody() })).status).toBe(404);
    for (const email of ['parceiro.admin@parceiro.demo', PARTNER, SUBAGENT]) {
      expect((await call('POST', '/api/bff/v1/ofertas', { headers: await as(email), body: {} })).status).toBe(403);
      expect((await call('POST', '/api/bff/v1/ofertas', { headers: await as(email), body: await validBody() })).status).toBe(403);
      expect((await call('PUT', '/api/bff/v1/ofertas/1', { headers: await as(email), body: await validBody() })).status).toBe(403);
      expect((await call('GET', '/api/bff/v1/empresas', { headers: await as(email) })).status).toBe(403);
    }
    const companies = await call('GET', '/api/bff/v1/empresas', { headers: await as(ADMIN) });
    expect(companies.json.dado.map((c: { nome: string }) => c.nome)).toEqual(['Aurora', 'Horizonte Seguros', 'Vale Verde']);
    expect((await call('POST', '/api/bff/v1/ofertas', { body: await validBody() })).status).toBe(401);
  });
});
