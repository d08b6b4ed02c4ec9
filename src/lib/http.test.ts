import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, toFailure } from './http';
import { TOKEN_MESSAGES } from './session';

const bases = {
  plataforma: 'http://portal.test/api/plataforma',
  bff: 'http://portal.test/api/bff',
  gateway: 'http://portal.test/api/gateway',
  auth: 'http://portal.test/api/auth',
};
const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('createClient', () => {
  it('asks for cookie sessions', async () => {
    const fetch = vi.fn(async () => reply(200, { dado: {} }));
    vi.stubGlobal('fetch', fetch);
    await createClient(bases, 'bff')('/v1/usuario');
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get('x-portal-session')).toBe('cookie');
  });

  it.each([
    ['plataforma', 401, TOKEN_MESSAGES.expired, '/signin?next=%2Fsimulador-vida%2Fcadastro%3Foferta%3D4&sessao=expirada'],
    ['bff', 403, TOKEN_MESSAGES.invalid, '/v2/login?next=%2Fsimulador-vida%2Fcadastro%3Foferta%3D4&sessao=expirada'],
    ['bff', 401, TOKEN_MESSAGES.missing, '/v2/login?next=%2Fsimulador-vida%2Fcadastro%3Foferta%3D4&sessao=expirada'],
  ] as const)('on %s %i "%s": signs out and goes to %s, saying why and keeping the page', async (base, status, message, target) => {
    const fetch = vi.fn(async (url: string) => (String(url).endsWith('/v1/logout') ? reply(200, {}) : reply(status, { status, message })));
    vi.stubGlobal('fetch', fetch);
    const navigate = vi.fn();
    await expect(createClient(bases, base, navigate, () => '/simulador-vida/cadastro?oferta=4')('/x')).rejects.toThrow();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('http://portal.test/api/auth/v1/logout');
    expect(navigate).toHaveBeenCalledWith(target);
  });

  it('says who ended the session when the 401 names it (issue 42), and nothing it does not know', async () => {
    for (const [codigo, sessao] of [
      ['segundo-fator-redefinido', 'segundo-fator-redefinido'],
      ['toString', 'expirada'],
    ] as const) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) =>
          String(url).endsWith('/v1/logout') ? reply(200, {}) : reply(401, { status: 401, message: TOKEN_MESSAGES.invalid, codigo }),
        ),
      );
      const navigate = vi.fn();
      await expect(createClient(bases, 'bff', navigate, () => '/v2/home')('/x')).rejects.toThrow();
      expect(navigate).toHaveBeenCalledWith(`/v2/login?next=%2Fv2%2Fhome&sessao=${sessao}`);
    }
  });

  it('leaves other errors to the caller, with their status, message and field errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply(400, { status: 400, message: 'E-mail obrigatório', erros: { email: ['E-mail obrigatório'] } })),
    );
    const navigate = vi.fn();
    const failure = await createClient(bases, 'plataforma', navigate)('/v1/login', { method: 'POST', body: {} }).catch(toFailure);
    expect(failure).toMatchObject({ status: 400, message: 'E-mail obrigatório', fieldErrors: { email: ['E-mail obrigatório'] } });
    expect(navigate).not.toHaveBeenCalled();
  });
});
