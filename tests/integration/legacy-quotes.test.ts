import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesSettled, type DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi } from '../fixtures/api';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { price } from '../../src/lib/products/engine';
import { RESIDENCIAL } from '../../src/lib/products/residencial';
import type { Selection } from '../../src/lib/products/types';
import { findUserByEmail, loadV1User } from '../../src/server/services/identity/principals';
import { legacyOffers, sellableOffersV1 } from '../../src/server/services/network/offers';
import { ratingAnswers } from '../../src/server/services/selling/quotes';

/**
 * The legacy quote API (docs/decisions/019-legacy-sell.md): the same calls as the BFF's under the
 * platform base (POST/GET/PUT /api/plataforma/v1/cotacoes…, /v1/precificacao, the history), with the
 * legacy token; the offer permissions of SPEC §6 (403 for a product the user may not sell); and each
 * generation seeing only its own quotes.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
});
afterAll(() => close());

const SELLER = 'vendedor@legado.demo';
const CONSULTANT = 'consultor@legado.demo';
const LEGACY_ADMIN = 'admin@legado.demo';
const PARTNER = 'parceiro@parceiro.demo';

const tokens = new Map<string, string>();
async function token(email: string): Promise<string> {
  if (!tokens.has(email)) {
    const legacy = email.endsWith('@legado.demo');
    const { status, json } = await signInApi(call, email);
    expect(status, JSON.stringify(json)).toBe(200);
    tokens.set(email, legacy ? (json.resultado?.token ?? json.dado?.token) : (json.token ?? json.dado?.token));
  }
  return tokens.get(email)!;
}

const as = async (email: string) => ({ authtoken: await token(email) });
const P = '/api/plataforma/v1';

/** The nrOferta of a code among the legacy offers in force for this user. */
async function offerNumber(email: string, code: string): Promise<number> {
  const user = await loadV1User(db, (await findUserByEmail(db, email))!);
  const offers = await sellableOffersV1(db, user);
  const offer = offers.find((o) => o.code === code);
  expect(offer, `${email} should see an offer of ${code}`).toBeDefined();
  return offer!.nrOferta;
}

const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false };
const CONFORTO: Selection = { plan: 'conforto', capitals: { danosEletricos: 15_000_00, roubo: 10_000_00 } };
const PIX = { formaPagamento: 'pix', parcelas: 1, diaVencimento: 10 };

async function createResidential(email = SELLER): Promise<string> {
  const { status, json } = await call('POST', `${P}/cotacoes`, {
    headers: await as(email),
    body: { nrOferta: await offerNumber(email, 'RES'), segurado: DEMO_INSURED.residencial, respostas: HOUSE },
  });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.resultado.cotacao.nrCotacao;
}

describe('the legacy quote calls on the platform API', () => {
  it('a legacy seller goes from cadastro to one proposal, priced on the server', async () => {
    const nr = await createResidential();
    const headers = await as(SELLER);
    const quote = await call('GET', `${P}/cotacoes/${nr}`, { headers });
    expect(quote.status).toBe(200);
    expect(quote.json).toMatchObject({
      status: 'OK',
      resultado: { cotacao: { nrCotacao: nr, generation: 'v1', code: 'RES', etapa: 'planos' } },
    });

    const planos = await call('PUT', `${P}/cotacoes/${nr}/planos`, { headers, body: { selecao: CONFORTO } });
    expect(planos.status).toBe(200);
    const stored = await db.selectFrom('quotes').selectAll().where('nr_cotacao', '=', nr).executeTakeFirstOrThrow();
    const expected = price(RESIDENCIAL, ratingAnswers({ ...stored, createdAt: stored.created_at }), CONFORTO);
    expect(planos.json.resultado.cotacao.precificacao).toEqual(expected);
    expect(stored.premio_total).toBe(expected.total);
    expect((await call('PUT', `${P}/cotacoes/${nr}/contratacao`, { headers, body: { contratacao: PIX } })).status).toBe(200);

    const first = await call('POST', `${P}/cotacoes/${nr}/proposta`, { headers, body: { aceiteTermo: true } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const again = await call('POST', `${P}/cotacoes/${nr}/proposta`, { headers, body: { aceiteTermo: true } });
    expect(again.json.resultado.nrProposta).toBe(first.json.resultado.nrProposta);
    expect(first.json.resultado.cotacao).toMatchObject({ status: 'PROPOSTA_EM_ANALISE', etapa: 'finalizacao' });
  });

  it('bad input is 400 with the fields named, and saves nothing', async () => {
    const before = await db.selectFrom('quotes').select(db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const { status, json } = await call('POST', `${P}/cotacoes`, {
      headers: await as(SELLER),
      body: {
        nrOferta: await offerNumber(SELLER, 'RES'),
        segurado: { ...DEMO_INSURED.residencial, cpf: '111.111.111-11' },
        respostas: HOUSE,
      },
    });
    expect(status).toBe(400);
    expect(Object.keys(json.erros)).toEqual(['segurado.cpf']);
    const after = await db.selectFrom('quotes').select(db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('an offer that has ended is listed as such and cannot start a quote', async () => {
    const residencial = await db.selectFrom('simulators').select('id').where('code', '=', 'RES').executeTakeFirstOrThrow();
    const company = await db.selectFrom('users').select('company_id').where('email', '=', SELLER).executeTakeFirstOrThrow();
    await db
      .insertInto('offers')
      .values({
        simulator_id: residencial.id,
        company_id: company.company_id!,
        nome: 'Residencial — Campanha 2025',
        vigencia_inicio: '2025-01-01',
        vigencia_fim: '2025-12-31',
        comissao_centesimos: 2500,
      })
      .execute();
    await changesSettled(db);
    const ended = (await legacyOffers(db, await loadV1User(db, (await findUserByEmail(db, SELLER))!))).find(
      (o) => o.situacao === 'ENCERRADA',
    )!;
    expect(ended).toMatchObject({
      offerName: 'Residencial — Campanha 2025',
      startPath: `/simulador-residencial/cadastro?oferta=${ended.nrOferta}`,
    });
    const { status } = await call('POST', `${P}/cotacoes`, {
      headers: await as(SELLER),
      body: { nrOferta: ended.nrOferta, segurado: DEMO_INSURED.residencial, respostas: HOUSE },
    });
    expect(status).toBe(404);
  });

  it('pricing without saving answers the same figures as the engine', async () => {
    const { status, json } = await call('POST', `${P}/precificacao`, {
      headers: await as(SELLER),
      body: { cdSimulador: 'RES', respostas: { ...HOUSE, tipoPessoa: 'PF', dataNascimento: '1985-04-12' }, selecao: CONFORTO },
    });
    expect(status).toBe(200);
    expect(json.resultado.precificacao.total).toBe(
      price(RESIDENCIAL, { ...HOUSE, tipoPessoa: 'PF', dataNascimento: '1985-04-12' }, CONFORTO).total,
    );
  });
});

describe('who may sell what (SPEC §6 offer permissions)', () => {
  it('the consultant sells residential and life, and gets 403 for the lines it may not sell', async () => {
    const headers = await as(CONSULTANT);
    expect(await createResidential(CONSULTANT)).toMatch(/^\d+$/);
    const vg = await offerNumber(SELLER, 'VG');
    const refused = await call('POST', `${P}/cotacoes`, { headers, body: { nrOferta: vg, segurado: DEMO_INSURED.vida, respostas: {} } });
    expect(refused.status).toBe(403);
    const agro = await call('POST', `${P}/precificacao`, { headers, body: { cdSimulador: 'AFU', respostas: {}, selecao: {} } });
    expect(agro.status).toBe(403);
  });

  it('the consultant is shown only its two products among the offers', async () => {
    const user = await loadV1User(db, (await findUserByEmail(db, CONSULTANT))!);
    expect([...new Set((await sellableOffersV1(db, user)).map((o) => o.code))].sort()).toEqual(['RES', 'VEU']);
  });

  it('a v2 token does not open the platform quote calls, nor a legacy token the BFF ones', async () => {
    const nr = await createResidential();
    expect((await call('GET', `${P}/cotacoes/${nr}`, { headers: await as(PARTNER) })).status).toBe(401);
    expect((await call('GET', `/api/bff/v1/cotacoes/${nr}`, { headers: await as(SELLER) })).status).toBe(401);
    expect((await call('GET', `${P}/cotacoes/${nr}`)).status).toBe(401);
  });
});

describe('visibility', () => {
  it('each generation sees only its own quotes; the legacy admin group sees every legacy quote', async () => {
    const legacyNr = await createResidential();
    const v2Nr = (await db.selectFrom('quotes').select('nr_cotacao').where('generation', '=', 'v2').executeTakeFirstOrThrow()).nr_cotacao;

    expect((await call('GET', `${P}/cotacoes/${v2Nr}`, { headers: await as(LEGACY_ADMIN) })).status).toBe(404);
    expect((await call('GET', `${P}/cotacoes/${v2Nr}`, { headers: await as(SELLER) })).status).toBe(404);
    expect((await call('GET', `${P}/cotacoes/${legacyNr}`, { headers: await as(LEGACY_ADMIN) })).status).toBe(200);
    // Another legacy seller's quote is not the consultant's.
    expect((await call('GET', `${P}/cotacoes/${legacyNr}`, { headers: await as(CONSULTANT) })).status).toBe(404);

    const legacyHistory = await call('GET', `${P}/cotacoes`, { headers: await as(SELLER) });
    expect(legacyHistory.status).toBe(200);
    const legacyNumbers = legacyHistory.json.resultado.content.map((r: { nrCotacao: string }) => r.nrCotacao);
    expect(legacyNumbers).toContain(legacyNr);
    expect(legacyNumbers).not.toContain(v2Nr);
    expect(legacyHistory.json.resultado.content[0].pdf.cotacao).toMatch(/^\/relatorios\/cotacao\/\d+$/);

    const v2History = await call('GET', '/api/bff/v1/cotacoes', { headers: await as(PARTNER) });
    const v2Numbers = v2History.json.dado.content.map((r: { nrCotacao: string }) => r.nrCotacao);
    expect(v2Numbers).toContain(v2Nr);
    expect(v2Numbers).not.toContain(legacyNr);
  });

  it("the legacy history takes the header's funcionalidade as the line, and the same filters as v2", async () => {
    const headers = await as(SELLER);
    const residential = await call('GET', `${P}/cotacoes?funcionalidade=residencial`, { headers });
    expect(residential.status).toBe(200);
    expect(residential.json.resultado.totalElements).toBeGreaterThan(0);
    expect(residential.json.resultado.content.every((r: { line: string }) => r.line === 'residencial')).toBe(true);
    const life = await call('GET', `${P}/cotacoes?funcionalidade=vida`, { headers });
    expect(life.json.resultado.totalElements).toBe(0);
    const bad = await call('GET', `${P}/cotacoes?de=2026-02-31`, { headers });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toHaveProperty('de');
  });
});
