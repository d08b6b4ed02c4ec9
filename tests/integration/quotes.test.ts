import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi } from '../fixtures/api';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { installmentOptions, installmentSchedule, price } from '../../src/lib/products/engine';
import { RESIDENCIAL } from '../../src/lib/products/residencial';
import type { Answers, PaymentMethod, Pricing, Selection } from '../../src/lib/products/types';
import { formatBRL } from '../../src/lib/products/money';
import { renderQuotePdf } from '../../src/server/pdf/quote-pdf';
import { quoteDocument } from '../../src/server/services/selling/quote-document';
import { pdfText } from '../fixtures/pdf';
import { brasiliaDay, formatIsoDate } from '../../src/lib/format';
import { addDays } from '../../src/lib/calendar';

const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The v2 quote API (POST/GET/PUT /api/bff/v1/cotacoes…, POST /api/bff/v1/precificacao) end to end
 * through the API router: each step validated and priced on the server, the step order, the
 * idempotent proposal, expiry, a sent quote frozen, who may see and sell what, and re-pricing.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
});
afterAll(() => close());

const ADMIN = 'admin@seguradora.demo';
const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const LEGACY_SELLER = 'vendedor@legado.demo';

// ——— Sign-in: one per account and kind for the whole file ———

const tokens = new Map<string, string>();

async function remember(key: string, issue: () => Promise<{ status: number; json: any }>, read: (json: any) => string) {
  if (!tokens.has(key)) {
    const { status, json } = await issue();
    expect(status, JSON.stringify(json)).toBe(200);
    tokens.set(key, read(json));
  }
  return tokens.get(key)!;
}

/** The v2 portal token (`POST /api/gateway/login`). */
const signIn = (email: string) =>
  remember(
    `v2:${email}`,
    () => signInApi(call, email),
    (j) => j.token ?? j.dado?.token,
  );

/** The simulator token a fully authenticated partner quotes with. */
const simulatorToken = async (email: string) => {
  const v2 = await signIn(email);
  return remember(
    `sim:${email}`,
    () =>
      call('POST', '/api/plataforma/v1/login/token', {
        body: { nome: 'Portal', idCanalUltron: 1, nomeCanalUltron: 'Portal', email, cdAutenticacao: 'x', idCanal: 1 },
        headers: { authtoken: v2 },
      }),
    (j) => j.resultado.token,
  );
};

const v1Token = (email: string) =>
  remember(
    `v1:${email}`,
    () => signInApi(call, email),
    (j) => j.resultado?.token ?? j.dado?.token,
  );

// ——— The quote calls ———

const auth = (token?: string) => (token ? { authtoken: token } : undefined);
const postQuote = (token: string | undefined, body: unknown) => call('POST', '/api/bff/v1/cotacoes', { body, headers: auth(token) });
const getQuote = (token: string | undefined, nr: string) => call('GET', `/api/bff/v1/cotacoes/${nr}`, { headers: auth(token) });
const putStep = (token: string, nr: string, step: string, body: unknown) =>
  call('PUT', `/api/bff/v1/cotacoes/${nr}/${step}`, { body, headers: auth(token) });
const propose = (token: string, nr: string, aceiteTermo: unknown = true) =>
  call('POST', `/api/bff/v1/cotacoes/${nr}/proposta`, { body: { aceiteTermo }, headers: auth(token) });
const priceIt = (token: string, body: unknown) => call('POST', '/api/bff/v1/precificacao', { body, headers: auth(token) });

/** The nrOferta of a code among the offers `GET /api/bff/v1/ofertas` lists to this user. */
async function offerNumber(email: string, code: string): Promise<number> {
  const { status, json } = await call('GET', '/api/bff/v1/ofertas', { headers: { authtoken: await signIn(email) } });
  expect(status).toBe(200);
  const offer = (json.dado as { code: string; nrOferta: number }[]).find((o) => o.code === code);
  expect(offer, `${email} should see an offer of ${code}`).toBeDefined();
  return offer!.nrOferta;
}

const row = (nr: string) => db.selectFrom('quotes').selectAll().where('nr_cotacao', '=', nr).executeTakeFirstOrThrow();
const proposalRows = async (nr: string) => {
  const { id } = await row(nr);
  return db.selectFrom('proposals').selectAll().where('quote_id', '=', id).execute();
};
const quoteCount = async () =>
  Number(
    (
      await db
        .selectFrom('quotes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const yesterday = () => new Date(Date.now() - 86_400_000);
const expire = (nr: string) => db.updateTable('quotes').set({ valida_ate: yesterday() }).where('nr_cotacao', '=', nr).execute();

// ——— Answers and selections ———

const HOUSE = { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false };
const CONFORTO: Selection = { plan: 'conforto', capitals: { danosEletricos: 15_000_00, roubo: 10_000_00 } };
const ESSENCIAL: Selection = { plan: 'essencial', capitals: {} };
const COMPLETO: Selection = { plan: 'completo', capitals: {} };
const CARD_3X = { formaPagamento: 'cartao', parcelas: 3, diaVencimento: 10 };
const PHONE = { tipoItem: 'celular', marcaModelo: 'Galaxy S24', valorBem: 4_000_00, idadeBem: 6, usoProfissional: false };
const LIFE = { profissao: 'administrativa', fumante: false };
const beneficiary = (nome: string, percentual: number) => ({ nome, parentesco: 'filho', percentual });

/** The pricing the engine gives for residential answers, what the server must have stored. */
const residentialPrice = (answers: Answers, selection: Selection) => price(RESIDENCIAL, answers, selection);

async function createResidentialQuote(email = PARTNER, respostas: Answers = HOUSE): Promise<string> {
  const { status, json } = await postQuote(await simulatorToken(email), {
    nrOferta: await offerNumber(email, 'RES'),
    segurado: DEMO_INSURED.residencial,
    respostas,
  });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.dado.cotacao.nrCotacao;
}

/** Saves each step in order and expects each save to succeed. */
async function saveSteps(email: string, nr: string, steps: [string, unknown][]) {
  const token = await simulatorToken(email);
  for (const [step, body] of steps) {
    const { status, json } = await putStep(token, nr, step, body);
    expect(status, `${step}: ${JSON.stringify(json)}`).toBe(200);
  }
}

/** A residential quote filled up to the resumo (conforto, card in 3×). */
async function residentialAtResumo(email = PARTNER): Promise<string> {
  const nr = await createResidentialQuote(email);
  await saveSteps(email, nr, [
    ['planos', { selecao: CONFORTO }],
    ['contratacao', { contratacao: CARD_3X }],
  ]);
  return nr;
}

async function sentResidentialQuote(email = PARTNER): Promise<{ nr: string; nrProposta: string }> {
  const nr = await residentialAtResumo(email);
  const { status, json } = await propose(await simulatorToken(email), nr);
  expect(status, JSON.stringify(json)).toBe(200);
  return { nr, nrProposta: json.dado.nrProposta };
}

async function createPersonalItemsQuote(email = PARTNER): Promise<string> {
  const { status, json } = await postQuote(await simulatorToken(email), {
    nrOferta: await offerNumber(email, 'IPU'),
    segurado: DEMO_INSURED.residencial,
    respostas: {},
  });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.dado.cotacao.nrCotacao;
}

async function createLifeQuote(email = PARTNER): Promise<string> {
  const { status, json } = await postQuote(await simulatorToken(email), {
    nrOferta: await offerNumber(email, 'VEU'),
    segurado: DEMO_INSURED.vida,
    respostas: LIFE,
  });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.dado.cotacao.nrCotacao;
}

/** Runs a call that must fail and proves the quote's row did not change. */
async function expectRowUnchanged(nr: string, failing: () => Promise<{ status: number; json: any }>, status: number) {
  const before = await row(nr);
  const response = await failing();
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(await row(nr)).toEqual(before);
  return response.json;
}

// ——— The behaviours ———

describe('a full residential quote, cadastro to proposal', () => {
  it('saves each step, prices on the server with the engine, and sends the proposal', async () => {
    const token = await simulatorToken(PARTNER);
    const created = await postQuote(token, {
      nrOferta: await offerNumber(PARTNER, 'RES'),
      segurado: DEMO_INSURED.residencial,
      respostas: HOUSE,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const quote = created.json.dado.cotacao;
    expect(quote).toMatchObject({
      nrCotacao: expect.stringMatching(/^\d{10}$/),
      code: 'RES',
      line: 'residencial',
      etapa: 'planos',
      status: 'EM_ELABORACAO',
      statusLabel: 'Em elaboração',
      editable: true,
      precificacao: null,
      proposta: null,
    });
    // Stored unmasked: what is saved never depends on how the CPF was typed.
    expect(quote.segurado.cpf).toBe('27418596391');
    const nr: string = quote.nrCotacao;

    // A client-sent pricing is ignored: the server prices the selection itself.
    const planos = await putStep(token, nr, 'planos', { selecao: CONFORTO, precificacao: { total: 1, netPremium: 1 } });
    expect(planos.status, JSON.stringify(planos.json)).toBe(200);
    const expected = residentialPrice(HOUSE, CONFORTO);
    expect(planos.json.dado.cotacao.precificacao).toEqual(expected);
    expect(planos.json.dado.cotacao.etapa).toBe('contratacao');
    expect(expected.total).toBeGreaterThan(RESIDENCIAL.minimumPremium);
    expect((await row(nr)).premio_total).toBe(expected.total);

    const contratacao = await putStep(token, nr, 'contratacao', { contratacao: CARD_3X });
    expect(contratacao.status, JSON.stringify(contratacao.json)).toBe(200);
    expect(contratacao.json.dado.cotacao).toMatchObject({
      etapa: 'resumo',
      contratacao: { ...CARD_3X, opcao: installmentOptions(RESIDENCIAL, expected.total, 'cartao').find((o) => o.count === 3) },
    });

    const sent = await propose(token, nr, true);
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const nrProposta: string = sent.json.dado.nrProposta;
    expect(nrProposta).toMatch(/^\d{12}$/);

    const { status, json } = await getQuote(token, nr);
    expect(status).toBe(200);
    expect(json.dado.cotacao).toMatchObject({
      status: 'PROPOSTA_EM_ANALISE',
      // Within the residential rules: accepted straight through (issue 13).
      statusLabel: 'Proposta aceita',
      editable: false,
      expired: false,
      etapa: 'finalizacao',
      proposta: { nrProposta, status: 'Aceita' },
      precificacao: expected,
    });
  });
});

describe('bad input at each step: 400 with field errors, nothing saved', () => {
  it('cadastro of a new quote: segurado.cpf and respostas.valorImovel, and no quote is created', async () => {
    const token = await simulatorToken(PARTNER);
    const nrOferta = await offerNumber(PARTNER, 'RES');
    const before = await quoteCount();
    const badCpf = await postQuote(token, { nrOferta, segurado: { ...DEMO_INSURED.residencial, cpf: '111.111.111-11' }, respostas: HOUSE });
    expect(badCpf.status).toBe(400);
    expect(Object.keys(badCpf.json.erros)).toEqual(['segurado.cpf']);
    expect(badCpf.json.message).toBe('Informe um CPF válido.');
    const badValue = await postQuote(token, {
      nrOferta,
      segurado: DEMO_INSURED.residencial,
      respostas: { ...HOUSE, valorImovel: 10_000_00 },
    });
    expect(badValue.status).toBe(400);
    expect(Object.keys(badValue.json.erros)).toEqual(['respostas.valorImovel']);
    expect(await quoteCount()).toBe(before);
  });

  it('cadastro of a saved quote: the row keeps its answers', async () => {
    const nr = await residentialAtResumo();
    const json = await expectRowUnchanged(
      nr,
      async () =>
        putStep(await simulatorToken(PARTNER), nr, 'cadastro', {
          segurado: DEMO_INSURED.residencial,
          respostas: { ...HOUSE, valorImovel: 'muito' },
        }),
      400,
    );
    expect(json.erros).toHaveProperty(['respostas.valorImovel']);
  });

  it('risco (personal items): risco.<question>', async () => {
    const nr = await createPersonalItemsQuote();
    const json = await expectRowUnchanged(
      nr,
      async () => putStep(await simulatorToken(PARTNER), nr, 'risco', { risco: { ...PHONE, valorBem: 100_00, tipoItem: 'geladeira' } }),
      400,
    );
    expect(Object.keys(json.erros).sort()).toEqual(['risco.tipoItem', 'risco.valorBem']);
    expect((await row(nr)).risco).toBeNull();
  });

  it('planos: selecao.<coverageId> for a capital out of its range', async () => {
    const nr = await createResidentialQuote();
    const json = await expectRowUnchanged(
      nr,
      async () =>
        putStep(await simulatorToken(PARTNER), nr, 'planos', { selecao: { plan: 'essencial', capitals: { danosEletricos: 100_000_00 } } }),
      400,
    );
    expect(json.erros).toEqual({ 'selecao.danosEletricos': [expect.stringContaining('deve estar entre R$ 5.000,00 e R$ 30.000,00')] });
  });

  it('contratacao: contratacao.parcelas for a count the method does not offer (pix in 3×)', async () => {
    const nr = await residentialAtResumo();
    const json = await expectRowUnchanged(
      nr,
      async () =>
        putStep(await simulatorToken(PARTNER), nr, 'contratacao', {
          contratacao: { formaPagamento: 'pix', parcelas: 3, diaVencimento: 10 },
        }),
      400,
    );
    expect(Object.keys(json.erros)).toEqual(['contratacao.parcelas']);
  });

  it('contratacao (life): contratacao.beneficiarios when the shares do not add up to 100%', async () => {
    const nr = await createLifeQuote();
    await saveSteps(PARTNER, nr, [['planos', { selecao: ESSENCIAL }]]);
    const json = await expectRowUnchanged(
      nr,
      async () =>
        putStep(await simulatorToken(PARTNER), nr, 'contratacao', {
          contratacao: {
            formaPagamento: 'boleto',
            parcelas: 1,
            diaVencimento: 10,
            beneficiarios: [beneficiary('Ana Nogueira Pinto', 50), beneficiary('Caio Nogueira Pinto', 40)],
          },
        }),
      400,
    );
    expect(json.erros).toEqual({ 'contratacao.beneficiarios': ['Os percentuais dos beneficiários devem somar 100%.'] });
    expect((await row(nr)).contratacao).toBeNull();
  });

  it('proposta: aceiteTermo false is refused and no proposal is created', async () => {
    const nr = await residentialAtResumo();
    const json = await expectRowUnchanged(nr, async () => propose(await simulatorToken(PARTNER), nr, false), 400);
    expect(Object.keys(json.erros)).toEqual(['aceiteTermo']);
    expect(await proposalRows(nr)).toEqual([]);
  });
});

describe('step order', () => {
  it('contratacao before planos is 409', async () => {
    const nr = await createResidentialQuote();
    const json = await expectRowUnchanged(
      nr,
      async () => putStep(await simulatorToken(PARTNER), nr, 'contratacao', { contratacao: CARD_3X }),
      409,
    );
    expect(json.message).toBe('Conclua a etapa anterior antes de a contratação.');
  });

  it('planos before risco (a line with risco) is 409', async () => {
    const nr = await createPersonalItemsQuote();
    await expectRowUnchanged(nr, async () => putStep(await simulatorToken(PARTNER), nr, 'planos', { selecao: ESSENCIAL }), 409);
  });

  it('proposta before contratacao is 409 and creates no proposal', async () => {
    const nr = await createResidentialQuote();
    await saveSteps(PARTNER, nr, [['planos', { selecao: CONFORTO }]]);
    await expectRowUnchanged(nr, async () => propose(await simulatorToken(PARTNER), nr), 409);
    expect(await proposalRows(nr)).toEqual([]);
  });

  it('risco on a line without risco is 404', async () => {
    const nr = await createResidentialQuote();
    const json = await expectRowUnchanged(nr, async () => putStep(await simulatorToken(PARTNER), nr, 'risco', { risco: PHONE }), 404);
    expect(json.message).toBe('Este produto não tem a etapa de risco.');
  });
});

describe('the proposal is idempotent', () => {
  it('5 concurrent submits answer the same proposal, stored once', async () => {
    const nr = await residentialAtResumo();
    const token = await simulatorToken(PARTNER);
    const responses = await Promise.all(Array.from({ length: 5 }, () => propose(token, nr)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const numbers = new Set(responses.map((r) => r.json.dado.nrProposta));
    expect(numbers.size).toBe(1);
    const stored = await proposalRows(nr);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.nr_proposta).toBe([...numbers][0]);
  });
});

describe('expiry', () => {
  it('a quote past valida_ate is Vencida, read-only: every save and the proposal are 409 ("venceu")', async () => {
    const nr = await residentialAtResumo();
    await expire(nr);
    const token = await simulatorToken(PARTNER);
    const { json } = await getQuote(token, nr);
    expect(json.dado.cotacao).toMatchObject({ expired: true, statusLabel: 'Vencida', editable: false, status: 'EM_ELABORACAO' });

    const saves: [string, unknown][] = [
      ['cadastro', { segurado: DEMO_INSURED.residencial, respostas: HOUSE }],
      ['risco', { risco: PHONE }],
      ['planos', { selecao: CONFORTO }],
      ['contratacao', { contratacao: CARD_3X }],
    ];
    for (const [step, body] of saves) {
      const refused = await expectRowUnchanged(nr, () => putStep(token, nr, step, body), 409);
      expect(refused.message, step).toContain('venceu');
    }
    const proposal = await expectRowUnchanged(nr, () => propose(token, nr), 409);
    expect(proposal.message).toContain('venceu');
    expect(await proposalRows(nr)).toEqual([]);
  });

  it('a proposal sent before the expiry keeps its state ("Proposta aceita"), never "Vencida"', async () => {
    const { nr, nrProposta } = await sentResidentialQuote();
    await expire(nr);
    const { json } = await getQuote(await simulatorToken(PARTNER), nr);
    expect(json.dado.cotacao).toMatchObject({ expired: false, statusLabel: 'Proposta aceita', proposta: { nrProposta } });
    // Submitting again still answers the proposal that exists.
    const again = await propose(await simulatorToken(PARTNER), nr);
    expect(again).toMatchObject({ status: 200, json: { dado: { nrProposta } } });
  });
});

describe('a sent quote is frozen', () => {
  it('every PUT after the proposal is 409 ("já foi enviada")', async () => {
    const { nr } = await sentResidentialQuote();
    const token = await simulatorToken(PARTNER);
    const saves: [string, unknown][] = [
      ['cadastro', { segurado: DEMO_INSURED.residencial, respostas: { ...HOUSE, valorImovel: 400_000_00 } }],
      ['risco', { risco: PHONE }],
      ['planos', { selecao: ESSENCIAL }],
      ['contratacao', { contratacao: { ...CARD_3X, parcelas: 1 } }],
    ];
    for (const [step, body] of saves) {
      const refused = await expectRowUnchanged(nr, () => putStep(token, nr, step, body), 409);
      expect(refused.message, step).toContain('já foi enviada');
    }
  });
});

describe('authorization', () => {
  it('a sub-delegated user cannot quote an AFU offer: 404, the offer is not one they may sell', async () => {
    // AFU belongs to the partner company the sub-delegated company sells for, but the user lacks its
    // offer operation: findSellableOffer applies the same rule as their offer list, so to them the
    // offer does not exist (404), exactly like an unknown number.
    const afu = await offerNumber(PARTNER, 'AFU');
    const token = await simulatorToken(SUBAGENT);
    const before = await quoteCount();
    const refused = await postQuote(token, { nrOferta: afu, segurado: DEMO_INSURED.residencial, respostas: {} });
    expect(refused).toMatchObject({ status: 404, json: { message: 'Oferta não encontrada ou fora de vigência.' } });
    const unknown = await postQuote(token, { nrOferta: 999_999, segurado: DEMO_INSURED.residencial, respostas: {} });
    expect(unknown.json).toEqual(refused.json);
    expect(await quoteCount()).toBe(before);
    // The same user does quote the residential offer they may sell.
    await createResidentialQuote(SUBAGENT);
  });

  it('pricing AFU is 403 for the sub-delegated user; the partner gets past the permission check', async () => {
    const body = { cdSimulador: 'AFU', respostas: {}, selecao: { plan: 'x', capitals: {} } };
    expect((await priceIt(await simulatorToken(SUBAGENT), body)).status).toBe(403);
    expect((await priceIt(await simulatorToken(PARTNER), body)).status).toBe(400);
  });

  it("a sub-delegated user cannot read or change the partner's quote: 404, as for a number that does not exist", async () => {
    const nr = await createResidentialQuote(PARTNER);
    const token = await simulatorToken(SUBAGENT);
    const theirs = await getQuote(token, nr);
    expect(theirs.status).toBe(404);
    expect((await getQuote(token, '999999999999')).json).toEqual(theirs.json);
    await expectRowUnchanged(nr, () => putStep(token, nr, 'planos', { selecao: CONFORTO }), 404);
  });

  it("a partner admin reads a quote of their company's partner; the provider admin reads any", async () => {
    const nr = await createResidentialQuote(PARTNER);
    const ofSubagent = await createResidentialQuote(SUBAGENT);
    const partnerAdmin = await simulatorToken(PARTNER_ADMIN);
    expect(await getQuote(partnerAdmin, nr)).toMatchObject({
      status: 200,
      json: { dado: { cotacao: { nrCotacao: nr, seller: 'Eduarda Lima' } } },
    });
    const admin = await signIn(ADMIN);
    expect(await getQuote(admin, nr)).toMatchObject({ status: 200, json: { dado: { cotacao: { nrCotacao: nr } } } });
    expect(await getQuote(admin, ofSubagent)).toMatchObject({ status: 200, json: { dado: { cotacao: { seller: 'Felipe Araújo' } } } });
    // A partner sees only their own: not the sub-delegated user's quote.
    expect((await getQuote(await simulatorToken(PARTNER), ofSubagent)).status).toBe(404);
  });

  it("managers read, sellers write: the partner admin may not change or send the partner's quote (403), the partner may", async () => {
    const nr = await residentialAtResumo(PARTNER);
    const partnerAdmin = await simulatorToken(PARTNER_ADMIN);
    const read = await getQuote(partnerAdmin, nr);
    expect(read).toMatchObject({ status: 200, json: { dado: { cotacao: { mine: false, editable: false } } } });
    const refusal = await expectRowUnchanged(nr, () => putStep(partnerAdmin, nr, 'planos', { selecao: ESSENCIAL }), 403);
    expect(refusal.message).toMatch(/Só quem fez esta cotação/);
    await expectRowUnchanged(nr, () => propose(partnerAdmin, nr), 403);
    expect(await proposalRows(nr)).toHaveLength(0);
    expect((await getQuote(await simulatorToken(PARTNER), nr)).json.dado.cotacao).toMatchObject({ mine: true, editable: true });
    expect((await propose(await simulatorToken(PARTNER), nr)).status).toBe(200);
    // Once sent, the manager still gets 403 (not the proposal of someone else).
    expect((await propose(partnerAdmin, nr)).status).toBe(403);
  });

  it('no token and a legacy (v1) token are 401', async () => {
    const nr = await createResidentialQuote(PARTNER);
    expect((await getQuote(undefined, nr)).status).toBe(401);
    expect((await postQuote(undefined, { nrOferta: 1, segurado: {}, respostas: {} })).status).toBe(401);
    const legacy = await v1Token(LEGACY_SELLER);
    expect((await getQuote(legacy, nr)).status).toBe(401);
    expect((await putStep(legacy, nr, 'planos', { selecao: CONFORTO })).status).toBe(401);
    expect((await priceIt(legacy, { cdSimulador: 'RES', respostas: HOUSE, selecao: CONFORTO })).status).toBe(401);
  });
});

describe('re-pricing when the answers change', () => {
  it('a new valorImovel after planos re-prices the stored pricing and keeps the step', async () => {
    const nr = await createResidentialQuote();
    await saveSteps(PARTNER, nr, [['planos', { selecao: CONFORTO }]]);
    const bigger = { ...HOUSE, valorImovel: 600_000_00 };
    const { status, json } = await putStep(await simulatorToken(PARTNER), nr, 'cadastro', {
      segurado: DEMO_INSURED.residencial,
      respostas: bigger,
    });
    expect(status).toBe(200);
    const expected = residentialPrice(bigger, CONFORTO);
    expect(expected.total).not.toBe(residentialPrice(HOUSE, CONFORTO).total);
    expect(json.dado.cotacao).toMatchObject({ precificacao: expected, selecao: CONFORTO, etapa: 'contratacao' });
    expect((await row(nr)).premio_total).toBe(expected.total);
  });

  it('a capital the new answers put out of range drops the selection (and the contracting): back to planos', async () => {
    const nr = await createResidentialQuote();
    // Fire insurance is the property's value: a capital chosen for 300 mil no longer fits 350 mil.
    const pinned: Selection = { plan: 'essencial', capitals: { incendio: 300_000_00 } };
    await saveSteps(PARTNER, nr, [
      ['planos', { selecao: pinned }],
      ['contratacao', { contratacao: { ...CARD_3X, parcelas: 1 } }],
    ]);
    const { json } = await putStep(await simulatorToken(PARTNER), nr, 'cadastro', {
      segurado: DEMO_INSURED.residencial,
      respostas: { ...HOUSE, valorImovel: 350_000_00 },
    });
    expect(json.dado.cotacao).toMatchObject({ selecao: null, precificacao: null, contratacao: null, etapa: 'planos' });
    expect((await row(nr)).premio_total).toBeNull();
  });

  it('personal items: a lower valorBem than the chosen capital drops the selection', async () => {
    const nr = await createPersonalItemsQuote();
    await saveSteps(PARTNER, nr, [
      ['risco', { risco: PHONE }],
      ['planos', { selecao: { plan: 'essencial', capitals: { roubo: 4_000_00 } } }],
    ]);
    expect((await row(nr)).etapa).toBe('contratacao');
    const { json } = await putStep(await simulatorToken(PARTNER), nr, 'risco', { risco: { ...PHONE, valorBem: 3_000_00 } });
    expect(json.dado.cotacao).toMatchObject({ risco: { valorBem: 3_000_00 }, selecao: null, precificacao: null, etapa: 'planos' });
  });

  it('a cheaper premium that no longer allows the chosen installments drops the contracting: back to contratacao', async () => {
    const nr = await createResidentialQuote();
    const boleto10x = { formaPagamento: 'boleto', parcelas: 10, diaVencimento: 10 };
    await saveSteps(PARTNER, nr, [
      ['planos', { selecao: COMPLETO }],
      ['contratacao', { contratacao: boleto10x }],
    ]);
    expect((await row(nr)).etapa).toBe('resumo');
    const cheaper = residentialPrice(HOUSE, ESSENCIAL).total;
    expect(installmentOptions(RESIDENCIAL, cheaper, 'boleto').map((o) => o.count)).not.toContain(10);
    const { json } = await putStep(await simulatorToken(PARTNER), nr, 'planos', { selecao: ESSENCIAL });
    expect(json.dado.cotacao).toMatchObject({ contratacao: null, etapa: 'contratacao', precificacao: { total: cheaper } });
  });
});

describe('POST /api/bff/v1/precificacao', () => {
  it('answers the engine pricing and, per payment method, installments that add up to their totals', async () => {
    const { status, json } = await priceIt(await simulatorToken(PARTNER), { cdSimulador: 'RES', respostas: HOUSE, selecao: CONFORTO });
    expect(status, JSON.stringify(json)).toBe(200);
    const { parcelas, ...pricing } = json.dado.precificacao;
    const expected = residentialPrice(HOUSE, CONFORTO);
    expect(pricing).toEqual(expected);
    const methods: PaymentMethod[] = ['boleto', 'cartao', 'debito', 'pix'];
    expect(Object.keys(parcelas).sort()).toEqual([...methods].sort());
    for (const method of methods) {
      const options = parcelas[method] as ReturnType<typeof installmentOptions>;
      expect(options, method).toEqual(installmentOptions(RESIDENCIAL, expected.total, method));
      expect(options[0]).toMatchObject({ count: 1, total: expected.total });
      for (const option of options) {
        expect(
          installmentSchedule(option).reduce((a, b) => a + b, 0),
          `${method} ${option.count}×`,
        ).toBe(option.total);
        if (option.interestFree) expect(option.total).toBe(expected.total);
        else expect(option.total).toBeGreaterThan(expected.total);
      }
    }
    expect(parcelas.pix.map((o: { count: number }) => o.count)).toEqual([1]);
    expect(parcelas.cartao.length).toBeGreaterThan(1);
  });

  it('refuses a capital out of range with the same selecao.<coverageId> key as the planos step', async () => {
    const { status, json } = await priceIt(await simulatorToken(PARTNER), {
      cdSimulador: 'RES',
      respostas: HOUSE,
      selecao: { plan: 'essencial', capitals: { danosEletricos: 1_00 } },
    });
    expect(status).toBe(400);
    expect(Object.keys(json.erros)).toEqual(['selecao.danosEletricos']);
  });
});

describe('etapa never moves back when an earlier step is saved again', () => {
  it('cadastro and planos re-saved at the resumo keep etapa "resumo" while the selection still fits', async () => {
    const nr = await residentialAtResumo();
    const token = await simulatorToken(PARTNER);
    const cadastro = await putStep(token, nr, 'cadastro', { segurado: DEMO_INSURED.residencial, respostas: { ...HOUSE, alarme: true } });
    expect(cadastro.status).toBe(200);
    expect(cadastro.json.dado.cotacao).toMatchObject({
      etapa: 'resumo',
      contratacao: CARD_3X,
      precificacao: residentialPrice({ ...HOUSE, alarme: true }, CONFORTO),
    });
    const planos = await putStep(token, nr, 'planos', { selecao: CONFORTO });
    expect(planos.json.dado.cotacao).toMatchObject({ etapa: 'resumo', contratacao: CARD_3X });
  });
});

describe('the premium breakdown (decision 023)', () => {
  it("the coverages' premiums add up to the net premium on the API, and in the PDF's table", async () => {
    const nr = await residentialAtResumo();
    const { json } = await getQuote(await simulatorToken(PARTNER), nr);
    const pricing = json.dado.cotacao.precificacao as Pricing;
    expect(pricing.coverages.reduce((sum, c) => sum + c.premium, 0)).toBe(pricing.netPremium);
    expect(pricing.coverages.reduce((sum, c) => sum + c.tariffPremium, 0)).not.toBe(pricing.netPremium);
    const text = await pdfText(await renderQuotePdf(quoteDocument(json.dado.cotacao, RESIDENCIAL, 'cotacao')));
    for (const c of pricing.coverages) expect(text.replace(/\s+/g, ' ')).toContain(`${formatBRL(c.capital)} ${formatBRL(c.premium)}`);
  });

  it('a quote stored before it (coverages at tariff, no tariffPremium) shows its stored totals, with shares that add up', async () => {
    const nr = await residentialAtResumo();
    const saved = (await row(nr)).precificacao as unknown as Pricing;
    const oldShape = { ...saved, coverages: saved.coverages.map(({ tariffPremium, ...c }) => ({ ...c, premium: tariffPremium })) };
    await db
      .updateTable('quotes')
      .set({ precificacao: JSON.stringify(oldShape) })
      .where('nr_cotacao', '=', nr)
      .execute();
    const { status, json } = await getQuote(await simulatorToken(PARTNER), nr);
    expect(status).toBe(200);
    const shown = json.dado.cotacao.precificacao as Pricing;
    expect(shown).toEqual(saved);
    expect(shown.coverages.reduce((sum, c) => sum + c.premium, 0)).toBe(saved.netPremium);
  });
});

describe('how the contracting is shown (issue 11)', () => {
  it('Pix is paid at once, 3 days after the policy is issued: no due day asked or kept, and the PDF says which day (decision 074)', async () => {
    const nr = await createResidentialQuote();
    await saveSteps(PARTNER, nr, [['planos', { selecao: CONFORTO }]]);
    const token = await simulatorToken(PARTNER);
    const { status, json } = await putStep(token, nr, 'contratacao', {
      contratacao: { formaPagamento: 'pix', parcelas: 1, diaVencimento: 20 },
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.dado.cotacao.contratacao.diaVencimento).toBeUndefined();
    const sent = await propose(token, nr);
    expect(sent.status).toBe(200);
    const { json: read } = await getQuote(token, nr);
    // Accepted at once: issued on the day it was sent (Brasília's), due three days later.
    const dueOn = formatIsoDate(addDays(brasiliaDay(read.dado.cotacao.proposta.createdAt), 3));
    const text = flat(await pdfText(await renderQuotePdf(quoteDocument(read.dado.cotacao, RESIDENCIAL, 'proposta'))));
    expect(text).toContain(`Vencimento À vista, em ${dueOn} (3 dias após a emissão da apólice)`);
    expect(text).toContain(`1/1 ${dueOn}`);
    expect(text).not.toContain('Dia 20');
  });

  it('every other method still needs its due day', async () => {
    const nr = await createResidentialQuote();
    await saveSteps(PARTNER, nr, [['planos', { selecao: CONFORTO }]]);
    const { status, json } = await putStep(await simulatorToken(PARTNER), nr, 'contratacao', {
      contratacao: { formaPagamento: 'boleto', parcelas: 1 },
    });
    expect(status).toBe(400);
    expect(json.erros).toEqual({ 'contratacao.diaVencimento': ['Escolha o dia de vencimento.'] });
  });

  it('the proposal PDF names the account of a bank debit, as the resumo does', async () => {
    const nr = await createResidentialQuote();
    const debito = { banco: '341', agencia: '0123', conta: '12345-6' };
    await saveSteps(PARTNER, nr, [
      ['planos', { selecao: CONFORTO }],
      ['contratacao', { contratacao: { formaPagamento: 'debito', parcelas: 1, diaVencimento: 5, debito } }],
    ]);
    const token = await simulatorToken(PARTNER);
    expect((await propose(token, nr)).status).toBe(200);
    const { json } = await getQuote(token, nr);
    const text = flat(await pdfText(await renderQuotePdf(quoteDocument(json.dado.cotacao, RESIDENCIAL, 'proposta'))));
    expect(text).toContain('Conta para débito 341 — Itaú Unibanco · Ag. 0123 · C/C 123456');
  });
});
