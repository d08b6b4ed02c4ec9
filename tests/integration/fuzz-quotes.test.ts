import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD } from '../fixtures/api';
import { hostileSegment, hostileText, MALFORMED_ESCAPES } from '../fixtures/hostile-text';
import { isStorableText } from '../../src/lib/storable-text';

/**
 * The quote endpoints under random input from a signed-in partner (tests/fixtures/fuzz-api.ts covers strangers):
 * bodies that look almost right — the right keys with random values, numbers where strings go,
 * huge and negative capitals, text with NUL and lone surrogates — must answer 4xx with a message,
 * never a 5xx, and an invalid body must never change the saved quote. The history's filters and the
 * quote's address take the same hostile text.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let token: string;
let nrCotacao: string;

const RESIDENTIAL = {
  segurado: {
    tipoPessoa: 'PF',
    nome: 'Mariana Alves Pereira',
    cpf: '529.982.247-25',
    dataNascimento: '1985-04-12',
    email: 'mariana@exemplo.com.br',
    telefone: '(11) 98765-4321',
    endereco: { cep: '01310-100', logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'SP' },
  },
  respostas: { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 450_000_00, alarme: false },
};

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  const login = await call('POST', '/api/gateway/login', { body: { userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD } });
  const simulator = await call('POST', '/api/plataforma/v1/login/token', {
    body: { nome: 'Portal', idCanalUltron: 1, nomeCanalUltron: 'Portal', email: 'parceiro@parceiro.demo', cdAutenticacao: 'x', idCanal: 1 },
    headers: { authtoken: login.json.token },
  });
  token = simulator.json.resultado.token;
  const offers = await call('GET', '/api/bff/v1/ofertas', { headers: { authtoken: login.json.token } });
  const residential = offers.json.dado.find((o: { code: string }) => o.code === 'RES');
  const created = await call('POST', '/api/bff/v1/cotacoes', {
    body: { nrOferta: residential.nrOferta, ...RESIDENTIAL },
    headers: { authtoken: token },
  });
  expect(created.status).toBe(200);
  nrCotacao = created.json.dado.cotacao.nrCotacao;
});
afterAll(() => close());

const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  hostileText(30),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(-1),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant('R$ 1.000,00'),
  fc.constant(''),
  fc.constant('Mariana\u0000Alves'),
  fc.constant('\ud800'),
);

/** True when some string (or key) of a JSON value is text PostgreSQL cannot store. */
const holdsUnstorable = (body: unknown): boolean =>
  JSON.stringify(body, (key, v) => {
    if (!isStorableText(key) || (typeof v === 'string' && !isStorableText(v))) throw new Error('unstorable');
    return v;
  }) === undefined;
const unstorable = (body: unknown) => {
  try {
    return holdsUnstorable(body);
  } catch {
    return true;
  }
};
const almost = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys), fc.oneof(value, fc.dictionary(fc.string({ maxLength: 12 }), value)), { maxKeys: keys.length });

const BODIES: [string, string, () => fc.Arbitrary<unknown>][] = [
  [
    'PUT',
    'cadastro',
    () => fc.record({ segurado: almost(Object.keys(RESIDENTIAL.segurado)), respostas: almost(Object.keys(RESIDENTIAL.respostas)) }),
  ],
  ['PUT', 'risco', () => fc.record({ risco: almost(['tipoItem', 'valorBem']) })],
  [
    'PUT',
    'planos',
    () =>
      fc.record({
        selecao: fc.record({
          plan: fc.oneof(fc.constantFrom('essencial', 'conforto', 'completo'), fc.string()),
          capitals: almost(['danosEletricos', 'roubo', 'incendio', 'x']),
        }),
      }),
  ],
  [
    'PUT',
    'contratacao',
    () => fc.record({ contratacao: almost(['formaPagamento', 'parcelas', 'diaVencimento', 'debito', 'beneficiarios']) }),
  ],
  ['POST', 'proposta', () => fc.record({ aceiteTermo: value })],
];

const savedQuote = () => db.selectFrom('quotes').selectAll().where('nr_cotacao', '=', nrCotacao).executeTakeFirstOrThrow();

describe.each(BODIES)('%s /cotacoes/{nr}/%s with almost-valid bodies', (method, step, arbitrary) => {
  it('answers 4xx with a message, never 5xx, and an invalid body saves nothing', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary(), async (body) => {
        const before = await savedQuote();
        const { status, json } = await call(method, `/api/bff/v1/cotacoes/${nrCotacao}/${step}`, { body, headers: { authtoken: token } });
        expect(status, JSON.stringify({ body, json })).toBeLessThan(500);
        if (unstorable(body)) expect(status, JSON.stringify({ body, json })).toBe(400);
        if (status >= 400) {
          expect(json).toMatchObject({ status, message: expect.any(String) });
          const after = await savedQuote();
          expect(after.updated_at).toEqual(before.updated_at);
          expect(after.selecao).toEqual(before.selecao);
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});

it('pricing answers 4xx, never 5xx, for random answers and selections', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('RES', 'VEU', 'AFU', 'IPU', 'EAU', 'EVI', 'MU', 'XX'),
      almost(['tipoImovel', 'valorImovel', 'profissao', 'dataNascimento', 'cultura']),
      fc.record({ plan: fc.string({ maxLength: 12 }), capitals: almost(['incendio', 'morte']) }),
      async (cdSimulador, respostas, selecao) => {
        const { status } = await call('POST', '/api/bff/v1/precificacao', {
          body: { cdSimulador, respostas, selecao },
          headers: { authtoken: token },
        });
        expect(status).toBeLessThan(500);
      },
    ),
    { numRuns: 300 },
  );
}, 120_000);

it("the history and a quote's address answer 4xx, never 5xx, for hostile filters and segments", async () => {
  const keys = ['nome', 'nrCotacao', 'cpfCnpj', 'status', 'produto', 'dataInicio', 'dataFim', 'page', 'size', 'x'];
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.constantFrom(...keys), hostileText(20), { maxKeys: 3 }),
      fc.array(
        fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...MALFORMED_ESCAPES)).map(([k, v]) => `${k}=1${v}`),
        { maxLength: 2 },
      ),
      hostileSegment,
      async (filters, raw, segment) => {
        const search = [new URLSearchParams(filters).toString(), ...raw].filter(Boolean).join('&');
        const history = await call('GET', `/api/bff/v1/cotacoes?${search}`, { headers: { authtoken: token } });
        expect(history.status, `${search} → ${JSON.stringify(history.json)}`).toBeLessThan(500);
        // URLSearchParams writes a lone surrogate as U+FFFD (storable); a NUL stays a NUL.
        if (Object.values(filters).some((v) => v.includes('\u0000')) || raw.some((r) => r.includes('%00')))
          expect(history.status).toBe(400);
        const quote = await call('GET', `/api/bff/v1/cotacoes/${segment}`, { headers: { authtoken: token } });
        expect(quote.status, `${segment} → ${JSON.stringify(quote.json)}`).toBeLessThan(500);
        expect(quote.status).toBeGreaterThanOrEqual(400);
      },
    ),
    { numRuns: 300 },
  );
}, 120_000);
