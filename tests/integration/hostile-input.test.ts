import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { MAX_BODY_BYTES } from '../../src/server/request-body';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';

/**
 * Text PostgreSQL cannot store (U+0000, lone surrogates), malformed escapes and bodies streamed past
 * 1 MB: every endpoint answers 400/413 with a pt-BR message — these used to reach the database or the
 * body reader and come back as 500 (issue 11, item 9).
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let adminToken: string;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  adminToken = tokenOf((await signInApi(call, 'admin')).json) as string;
});
afterAll(() => close());

const UNSTORABLE = 'Texto com caractere não permitido (caractere nulo ou Unicode inválido).';

describe('bodies', () => {
  it.each([
    ['a NUL in an e-mail', '/api/plataforma/v1/senha/esqueci', '{"email":"a\\u0000@b.com"}', 'email'],
    ['a NUL in a sign-in', '/api/gateway/login', '{"userName":"a\\u0000@b.com","password":"x"}', 'userName'],
    ['a lone high surrogate', '/api/gateway/login', '{"userName":"\\ud800","password":"x"}', 'userName'],
    ['a lone low surrogate', '/api/plataforma/v1/login', '{"user_name":"x\\udc00y","password":"x"}', 'user_name'],
    ['a NUL nested in an array', '/api/plataforma/v1/senha/esqueci', '{"email":"a@b.com","x":[1,{"y":"\\u0000"}]}', 'x.1.y'],
    ['a NUL in a key', '/api/gateway/login', '{"userName":"a@b.com","pass\\u0000word":"x"}', 'body'],
  ])('%s is a 400 naming the field', async (_, path, rawBody, field) => {
    const { status, json } = await call('POST', path, { rawBody });
    expect(status).toBe(400);
    expect(json).toMatchObject({ status: 400, message: UNSTORABLE, erros: { [field]: [UNSTORABLE] } });
  });

  it('takes paired surrogates (astral characters) and other control characters as ordinary text', async () => {
    const { status, json } = await call('POST', '/api/gateway/login', { body: { userName: 'ana😀\u0001@b.com', password: 'x' } });
    expect(status).toBeLessThan(500);
    expect(json.message).not.toBe(UNSTORABLE);
  });

  /** A body streamed in 64 KiB chunks without Content-Length; `failure` is thrown into the stream past 1 MB. */
  function chunkedSignIn(failure?: Error) {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES) return failure ? controller.error(failure) : controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const request = new Request('http://portal.test/api/gateway/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    return api.handle(request, { ip: '10.0.0.1', db: async () => db });
  }

  it('a body sent in chunks, without Content-Length, past 1 MB is a 413 that closes the connection', async () => {
    const response = await chunkedSignIn();
    expect(response.status).toBe(413);
    // The rest of the body was never read: the connection cannot carry another request.
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({ status: 413, message: 'O corpo da requisição excede o limite de 1 MB.' });
  });

  it('so is one the node adapter cuts at its bodySizeLimit (it throws into the stream)', async () => {
    const response = await chunkedSignIn(new Error(`Body size limit exceeded: received more than ${MAX_BODY_BYTES} bytes`));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ status: 413, message: 'O corpo da requisição excede o limite de 1 MB.' });
  });
});

describe('query strings', () => {
  it.each([
    ['email', '?email=a%00'],
    ['nome', '?nome=Jo%00%C3%A3o&nome=ok'], // a repeated name: the handler would see only the last
  ])('a NUL in %s is a 400 naming it (it reached the database before)', async (field, search) => {
    const { status, json } = await call('GET', `/api/plataforma/v1/usuarios/filtro${search}`, { headers: { authtoken: adminToken } });
    expect(status).toBe(400);
    expect(json).toMatchObject({ message: UNSTORABLE, erros: { [field]: [UNSTORABLE] } });
  });

  it('is checked on endpoints without a query schema, key included', async () => {
    const { status, json } = await call('GET', '/api/bff/v1/usuario?x%00=1', { headers: { authtoken: adminToken } });
    expect(status).toBe(400);
    expect(json.erros).toEqual({ query: [UNSTORABLE] });
  });
});

describe('path parameters', () => {
  it('a NUL is a 400 naming the parameter', async () => {
    const { status, json } = await call('GET', '/api/bff/v1/cotacoes/2026%00', { headers: { authtoken: adminToken } });
    expect(status).toBe(400);
    expect(json.erros).toEqual({ nrCotacao: [UNSTORABLE] });
  });

  it.each(['%ED%A0%80', '%E0%A4%A', '100%'])('an escape that does not decode (%s) is a 400 naming the parameter', async (segment) => {
    const { status, json } = await call('GET', `/api/bff/v1/cotacoes/${segment}`, { headers: { authtoken: adminToken } });
    expect(status).toBe(400);
    expect(json).toMatchObject({
      message: 'Endereço inválido: codificação de caracteres malformada.',
      erros: { nrCotacao: ['Codificação de caracteres malformada.'] },
    });
  });
});
