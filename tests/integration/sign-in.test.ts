import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { TOKEN_MESSAGES } from '../../src/lib/session';
import { DEMO_USERS } from '../../src/server/demo/seed';
import { standInOneWindow } from '../fixtures/clock';

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
});
afterAll(() => close());

const loginV1 = (user: string, password = DEMO_PASSWORD, headers?: Record<string, string>) =>
  call('POST', '/api/plataforma/v1/login', { body: { user_name: user, password }, headers });
const loginV2 = (user: string, password = DEMO_PASSWORD, headers?: Record<string, string>) =>
  call('POST', '/api/gateway/login', { body: { userName: user, password }, headers });

describe('POST /api/plataforma/v1/login', () => {
  it('answers the SPEC envelope with token, id, groups, name and last access', async () => {
    const { status, json } = await loginV1(' Vendedor@Legado.DEMO ');
    expect(status).toBe(200);
    expect(json.status).toBe('OK');
    expect(json.resultado).toMatchObject({ idUsuario: expect.any(Number), profile: ['VENDEDOR'], nome: 'Bruno Carvalho' });
    expect(json.resultado.token).toMatch(/^[\w-]{43}$/);
    expect(json.resultado.dataUltimoAcessoFormatada).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  it('refuses an unknown user with 404, a wrong password with 401, a v2 user with 404', async () => {
    expect(await loginV1('ninguem@legado.demo')).toMatchObject({ status: 404, json: { status: 404, message: 'Usuário não encontrado' } });
    expect(await loginV1('admin@legado.demo', 'Errada@123')).toMatchObject({
      status: 401,
      json: { message: 'Usuário ou senha inválidos' },
    });
    const v2 = await loginV1('parceiro@parceiro.demo');
    expect(v2.status).toBe(404);
    expect(v2.json.message).toContain('novo portal');
  });

  it('answers 400 with field errors for a malformed body, never 500', async () => {
    const missing = await call('POST', '/api/plataforma/v1/login', { body: { user_name: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.json.erros).toHaveProperty('user_name');
    expect(missing.json.erros.password).toEqual(['SENHA OBRIGATÓRIA']);
    const notJson = await call('POST', '/api/plataforma/v1/login', { rawBody: '{user_name' });
    expect(notJson).toMatchObject({ status: 400, json: { message: expect.stringContaining('JSON') } });
  });

  it('in cookie mode sets an httpOnly cookie and keeps the token out of the body', async () => {
    const { status, json, headers } = await loginV1('vendedor@legado.demo', DEMO_PASSWORD, { 'x-portal-session': 'cookie' });
    expect(status).toBe(200);
    expect(json.resultado.token).toBeUndefined();
    expect(headers.get('set-cookie')).toMatch(/^tokenV1=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
  });
});

describe('GET /api/plataforma/v1/permissoes/{idUsuario}', () => {
  it('lists the permissions of the signed-in user', async () => {
    const { json: login } = await loginV1('vendedor@legado.demo');
    const { status, json } = await call('GET', `/api/plataforma/v1/permissoes/${login.resultado.idUsuario}`, {
      headers: { authtoken: login.resultado.token },
    });
    expect(status).toBe(200);
    expect(json.resultado).toContainEqual({ nome: 'HISTORICO_VENDAS', permiteVisualizacao: true, permiteAlteracao: false });
    expect(json.resultado.map((p: { nome: string }) => p.nome)).not.toContain('USUARIOS');
  });

  it('answers 401 with the SPEC §8 messages for a missing, unknown or expired token', async () => {
    expect(await call('GET', '/api/plataforma/v1/permissoes/1')).toMatchObject({ status: 401, json: { message: TOKEN_MESSAGES.missing } });
    expect(await call('GET', '/api/plataforma/v1/permissoes/1', { headers: { authtoken: 'x'.repeat(43) } })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.invalid },
    });
    const { json: login } = await loginV1('vendedor@legado.demo');
    await db.updateTable('sessions').set({ expires_at: sql`now() - interval '1 minute'` }).where('revoked_at', 'is', null).execute();
    expect(
      await call('GET', `/api/plataforma/v1/permissoes/${login.resultado.idUsuario}`, { headers: { authtoken: login.resultado.token } }),
    ).toMatchObject({ status: 401, json: { message: TOKEN_MESSAGES.expired } });
  });

  it("refuses another user's permissions to a seller and a v2 token for a v1 endpoint", async () => {
    const { json: login } = await loginV1('vendedor@legado.demo');
    expect((await call('GET', '/api/plataforma/v1/permissoes/1', { headers: { authtoken: login.resultado.token } })).status).toBe(403);
    const { json: v2 } = await loginV2('parceiro@parceiro.demo');
    expect(await call('GET', '/api/plataforma/v1/permissoes/1', { headers: { authtoken: v2.token } })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.invalid },
    });
  });
});

describe('POST /api/gateway/login', () => {
  it('signs the provider admin in with the user name alone, and with the full e-mail', async () => {
    // The password is right; the admin's second factor comes before the token (decision 068).
    const { status, json } = await loginV2('admin');
    expect(status).toBe(200);
    expect(json).toMatchObject({ userName: 'admin@seguradora.demo', segundoFator: { etapa: 'verificar' } });
    expect(json.token).toBeUndefined();
    expect((await loginV2('admin@seguradora.demo')).json.segundoFator).toBeDefined();
    const finished = await signInApi(call, 'admin');
    expect(finished).toMatchObject({ status: 200, json: { dado: { token: expect.any(String), geracao: 'v2' } } });
  });

  it('signs a partner in with the e-mail and APP_NAME, and refuses the bare-name form for non-admins', async () => {
    const ok = await call('POST', '/api/gateway/login?APP_NAME=portal-parceiros', {
      body: { userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect((await loginV2('parceiro')).status).toBe(404);
  });

  it('in cookie mode also issues the simulator token of a partner (fully authenticated), not of the admin', async () => {
    const partner = await loginV2('parceiro@parceiro.demo', DEMO_PASSWORD, { 'x-portal-session': 'cookie' });
    const cookies = partner.headers.getSetCookie().map((c) => c.split('=')[0]);
    expect(cookies).toEqual(['tokenV2', 'tokenSimulador']);
    expect(partner.json.token).toBeUndefined();
    // The admin's sign-in waits for its second factor: the challenge's cookie, no session's.
    const admin = await loginV2('admin', DEMO_PASSWORD, { 'x-portal-session': 'cookie' });
    expect(admin.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual(['desafioSegundoFator']);
  });
});

describe('GET /api/bff/v1/usuario', () => {
  it('answers dado.atributos with profile, operations and company', async () => {
    const { json: login } = await loginV2('substabelecido@parceiro.demo');
    const { status, json } = await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: login.token } });
    expect(status).toBe(200);
    expect(json.dado.atributos).toMatchObject({
      cdPerfilUsuario: 'substabelecido',
      nmUsuario: 'Felipe Araújo',
      cdCnpjEmpresa: '33444555000181',
      cdOperacoes: expect.arrayContaining(['COTAR_VENDER', 'GERENCIAR_USUARIOS', 'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL']),
    });
    expect(json.dado.atributos.cdOperacoes).not.toContain('OFERTAS_DISPONIVEIS_SIMULADORES_FLORESTA');
  });

  it("honours the empresa header for a linked company and refuses another company's (403)", async () => {
    const login = { token: tokenOf((await signInApi(call, 'parceiro.admin@parceiro.demo')).json) };
    const linked = await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: login.token, empresa: '33.444.555/0001-81' } });
    expect(linked.json.dado.atributos.cdCnpjEmpresa).toBe('33444555000181');
    const { json: sub } = await loginV2('substabelecido@parceiro.demo');
    expect((await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: sub.token, empresa: '11222333000181' } })).status).toBe(403);
    expect((await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: sub.token, empresa: '99999999999999' } })).status).toBe(403);
  });
});

describe('POST /api/plataforma/v1/login/token (simulator token)', () => {
  const body = (email: string) => ({ nome: 'Portal', idCanalUltron: 1, nomeCanalUltron: 'Portal', email, cdAutenticacao: 'x', idCanal: 1 });

  it('issues a simulator token to a partner for their own e-mail', async () => {
    const { json: login } = await loginV2('parceiro@parceiro.demo');
    const { status, json } = await call('POST', '/api/plataforma/v1/login/token', {
      body: body('parceiro@parceiro.demo'),
      headers: { authtoken: login.token },
    });
    expect(status).toBe(200);
    expect(json.resultado.token).toMatch(/^[\w-]{43}$/);
  });

  it("refuses another user's e-mail, the provider admin, and a caller without a v2 session", async () => {
    const { json: login } = await loginV2('parceiro@parceiro.demo');
    expect(
      (await call('POST', '/api/plataforma/v1/login/token', { body: body('outro@parceiro.demo'), headers: { authtoken: login.token } }))
        .status,
    ).toBe(403);
    const admin = { token: tokenOf((await signInApi(call, 'admin')).json) };
    expect(
      (await call('POST', '/api/plataforma/v1/login/token', { body: body('admin@seguradora.demo'), headers: { authtoken: admin.token } }))
        .status,
    ).toBe(403);
    expect((await call('POST', '/api/plataforma/v1/login/token', { body: body('parceiro@parceiro.demo') })).status).toBe(401);
  });
});

describe('GET /api/plataforma/v1/usuarios/filtro', () => {
  // Each generation's session lists that generation's users (decision 046).
  const V1_USERS = DEMO_USERS.filter((u) => u.generation === 'v1');
  const V2_USERS = DEMO_USERS.filter((u) => u.generation === 'v2');

  it('pages users four at a time for the provider admin', async () => {
    const login = { token: tokenOf((await signInApi(call, 'admin')).json) };
    const { status, json } = await call('GET', '/api/plataforma/v1/usuarios/filtro?page=0&page-size=4', {
      headers: { authtoken: login.token },
    });
    expect(status).toBe(200);
    expect(json.resultado.content).toHaveLength(4);
    expect(json.resultado.totalPages).toBe(Math.ceil(V2_USERS.length / 4));
    expect(json.resultado.content[0].cpf).toMatch(/^\*\*\*\.\*\*\*\.\*\*\*-\d{2}$/);
    const second = await call('GET', '/api/plataforma/v1/usuarios/filtro?page=1&page-size=4', {
      headers: { authtoken: login.token },
    });
    expect(second.json.resultado.content).toHaveLength(Math.min(4, V2_USERS.length - 4));
  });

  it('lists the legacy users to the legacy admin', async () => {
    const login = { resultado: { token: tokenOf((await signInApi(call, 'admin@legado.demo')).json) } };
    const { json } = await call('GET', '/api/plataforma/v1/usuarios/filtro?page=0&page-size=50', {
      headers: { authtoken: login.resultado.token },
    });
    expect(json.resultado.content.map((u: { email: string }) => u.email).sort()).toEqual(V1_USERS.map((u) => u.email).sort());
  });

  it('filters by name, e-mail, company and status', async () => {
    const login = { token: tokenOf((await signInApi(call, 'admin')).json) };
    const search = async (query: string) =>
      (await call('GET', `/api/plataforma/v1/usuarios/filtro?${query}`, { headers: { authtoken: login.token } })).json.resultado;
    expect((await search('nome=felipe')).content.map((u: { email: string }) => u.email)).toEqual(['substabelecido@parceiro.demo']);
    expect((await search('status=PENDENTE')).content.map((u: { email: string }) => u.email)).toEqual(['novo.parceiro@parceiro.demo']);
    expect((await search('empresa=Vale%20Verde')).content).toHaveLength(1);
    expect((await search('email=%25')).content).toHaveLength(0); // a wildcard is searched literally
  });

  it('limits a sub-delegated manager to their company and refuses a seller', async () => {
    const { json: sub } = await loginV2('substabelecido@parceiro.demo');
    const { json } = await call('GET', '/api/plataforma/v1/usuarios/filtro?page=0&page-size=50', { headers: { authtoken: sub.token } });
    expect(json.resultado.content.map((u: { email: string }) => u.email).sort()).toEqual([
      'parceiro.admin@parceiro.demo',
      'substabelecido@parceiro.demo',
    ]);
    const { json: seller } = await loginV1('vendedor@legado.demo');
    expect((await call('GET', '/api/plataforma/v1/usuarios/filtro', { headers: { authtoken: seller.resultado.token } })).status).toBe(403);
    expect((await call('GET', '/api/plataforma/v1/usuarios/filtro?page=-1', { headers: { authtoken: sub.token } })).status).toBe(400);
  });
});

describe('protections', () => {
  it('refuses a state-changing request from another origin (403)', async () => {
    const response = await call('POST', '/api/plataforma/v1/login', {
      body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('answers 413 for a body over 1 MB and 404/405 for unknown routes and methods', async () => {
    expect((await call('POST', '/api/plataforma/v1/login', { rawBody: JSON.stringify({ user_name: 'x'.repeat(1_100_000) }) })).status).toBe(
      413,
    );
    expect((await call('GET', '/api/plataforma/v1/nada')).status).toBe(404);
    expect((await call('DELETE', '/api/plataforma/v1/login')).status).toBe(405);
  });

  it('rate-limits failed sign-ins per account (429 with Retry-After)', async () => {
    standInOneWindow(15 * 60_000);
    const limitedCall = apiClient(db, { ip: '10.9.9.9' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await limitedCall('POST', '/api/gateway/login', { body: { userName: 'parceiro.admin@parceiro.demo', password: 'Errada@1' } }))
          .status,
      ).toBe(401);
    }
    const blocked = await limitedCall('POST', '/api/gateway/login', {
      body: { userName: 'parceiro.admin@parceiro.demo', password: DEMO_PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.json.message).toContain('Muitas tentativas');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await db.deleteFrom('rate_limits').execute();
  });

  it('signs out: every token the caller holds stops working', async () => {
    const { json: login } = await loginV2('parceiro@parceiro.demo');
    expect((await call('POST', '/api/auth/v1/logout', { headers: { authtoken: login.token } })).status).toBe(200);
    expect(await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: login.token } })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.invalid },
    });
  });
});
