import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi } from '../fixtures/api';
import { hashToken } from '../../src/server/auth/tokens';
import { hashPassword } from '../../src/server/auth/passwords';
import { handleReceiver } from '../../src/server/services/identity/simulator-redirect';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { SIMULATOR_MESSAGES } from '../../src/lib/simulator-schema';

/**
 * The AFS redirect (key issue, receiver, replay, expiry, tampering) and the legacy admin's
 * simulator editing (PUT /v1/simuladores/{id}), through the API router and the receiver's handler.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const tokens = new Map<string, string>();

const SELLER = 'vendedor@legado.demo';
const LEGACY_ADMIN = 'admin@legado.demo';
const PARTNER = 'parceiro@parceiro.demo';
const NO_AFS = 'sem.afs@legado.demo';

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  // A legacy user whose group may see the sales history but sell nothing.
  const group = await db
    .insertInto('permission_groups')
    .values({
      nome: 'SEM_OFERTAS',
      descricao: 'Só histórico',
      is_admin: false,
      channel_id: (await db.selectFrom('channels').select('id').where('codigo', '=', 'portal').executeTakeFirstOrThrow()).id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('group_permissions')
    .values({ group_id: group.id, nome: 'HISTORICO_VENDAS', permite_visualizacao: true, permite_alteracao: false })
    .execute();
  const user = await db
    .insertInto('users')
    .values({
      email: NO_AFS,
      nome: 'Sem Afs',
      cpf: '31415926590',
      generation: 'v1',
      profile: null,
      status: 'ATIVO',
      password_hash: await hashPassword(DEMO_PASSWORD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_groups').values({ user_id: user.id, group_id: group.id }).execute();
});
afterAll(() => close());

async function token(email: string): Promise<string> {
  if (!tokens.has(email)) {
    const { status, json } = await signInApi(call, email);
    expect(status, JSON.stringify(json)).toBe(200);
    tokens.set(email, (json.resultado?.token ?? json.token ?? json.dado?.token) as string);
  }
  return tokens.get(email)!;
}
const as = async (email: string) => ({ authtoken: await token(email) });

const REDIRECT = '/api/plataforma/v1/simuladores/redirect?tipo=AFS';

async function redirectFor(email = SELLER): Promise<{ link: string; chaveBroto: string; tokenApp: string }> {
  const { status, json } = await call('GET', REDIRECT, { headers: await as(email) });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.resultado;
}

/** The form POST the browser sends to the receiver. */
function post(fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request('http://portal.test/afs/receptor', { method: 'POST', body: new URLSearchParams(fields), headers });
}
const receive = (fields: Record<string, string>, headers?: Record<string, string>) => handleReceiver(db, post(fields, headers));
const formOf = (r: { chaveBroto: string; tokenApp: string }) => ({ chaveBroto: r.chaveBroto, Authorization: `Bearer ${r.tokenApp}` });

describe('GET /v1/simuladores/redirect', () => {
  it('answers status OK with the link, a fresh key and the app token', async () => {
    const { status, json } = await call('GET', REDIRECT, { headers: await as(SELLER) });
    expect(status).toBe(200);
    expect(json).toEqual({
      status: 'OK',
      resultado: { link: '/afs/receptor', chaveBroto: expect.any(String), tokenApp: expect.any(String) },
    });
    const { chaveBroto, tokenApp } = json.resultado;
    // 256 random bits, base64url; a different key on every call.
    expect(chaveBroto).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await redirectFor()).chaveBroto).not.toBe(chaveBroto);
    expect(tokenApp).toMatch(/^portal-parceiros\.[A-Za-z0-9_-]{43}$/);
  });

  it('stores only the SHA-256 of the key, bound to the user and the type, for two minutes', async () => {
    const before = Date.now();
    const { chaveBroto } = await redirectFor();
    const seller = await findUserByEmail(db, SELLER);
    const row = await db.selectFrom('one_time_codes').selectAll().where('code_hash', '=', hashToken(chaveBroto)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: seller!.id, purpose: 'REDIRECT_AFS', used_at: null });
    const lifetime = new Date(row.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThan(115_000);
    expect(lifetime).toBeLessThanOrEqual(121_000);
    expect(await db.selectFrom('one_time_codes').select('id').where('code_hash', '=', chaveBroto).executeTakeFirst()).toBeUndefined();
  });

  it('accepts the type in any case; an unknown or non-external type is a 400 with field errors', async () => {
    expect((await call('GET', '/api/plataforma/v1/simuladores/redirect?tipo=afs', { headers: await as(SELLER) })).status).toBe(200);
    for (const query of ['?tipo=RES', '?tipo=XYZ', '', '?tipo=']) {
      const { status, json } = await call('GET', `/api/plataforma/v1/simuladores/redirect${query}`, { headers: await as(SELLER) });
      expect(status, query).toBe(400);
      expect(json.erros.tipo?.[0], query).toMatch(/Tipo de simulador/);
    }
  });

  it('403 for a legacy user without the AFS offer permission; the admin group may; v2 and anonymous get 401', async () => {
    const refused = await call('GET', REDIRECT, { headers: await as(NO_AFS) });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('Você não tem permissão para este simulador.');
    expect((await call('GET', REDIRECT, { headers: await as(LEGACY_ADMIN) })).status).toBe(200);
    expect((await call('GET', REDIRECT, { headers: await as(PARTNER) })).status).toBe(401);
    expect((await call('GET', REDIRECT)).status).toBe(401);
  });

  it('an inactive AFS simulator issues no key (404)', async () => {
    await db.updateTable('simulators').set({ ativo: false }).where('code', '=', 'AFS').execute();
    try {
      const { status, json } = await call('GET', REDIRECT, { headers: await as(SELLER) });
      expect(status).toBe(404);
      expect(json.message).toBe('Simulador indisponível.');
    } finally {
      await db.updateTable('simulators').set({ ativo: true }).where('code', '=', 'AFS').execute();
    }
  });
});

describe('the built-in receiver', () => {
  it('accepts a key once, shows who arrived, and refuses the replay with 410', async () => {
    const redirect = await redirectFor();
    const first = await receive(formOf(redirect));
    expect(first).toEqual({
      status: 200,
      arrival: { ok: true, userName: 'Bruno Carvalho', simulatorName: 'Agrícola (antigo)', receivedAt: expect.any(Date) },
    });
    expect(await receive(formOf(redirect))).toEqual({ status: 410 });
  });

  it('two posts of one key at the same time: exactly one gets through', async () => {
    const redirect = await redirectFor();
    const outcomes = await Promise.all([receive(formOf(redirect)), receive(formOf(redirect)), receive(formOf(redirect))]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 410, 410]);
  });

  it('takes the app token from the Authorization header too', async () => {
    const redirect = await redirectFor();
    expect((await receive({ chaveBroto: redirect.chaveBroto }, { authorization: `Bearer ${redirect.tokenApp}` })).status).toBe(200);
  });

  it('refuses an expired key with 410', async () => {
    const redirect = await redirectFor();
    await db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code_hash', '=', hashToken(redirect.chaveBroto))
      .execute();
    expect(await receive(formOf(redirect))).toEqual({ status: 410 });
  });

  it('a newer key retires the earlier one', async () => {
    const older = await redirectFor();
    const newer = await redirectFor();
    expect((await receive(formOf(older))).status).toBe(410);
    expect((await receive(formOf(newer))).status).toBe(200);
  });

  it('refuses a tampered, borrowed or missing app token with 401 — and the key still works afterwards', async () => {
    const redirect = await redirectFor();
    const other = await redirectFor(LEGACY_ADMIN);
    const tampered = `${redirect.tokenApp.slice(0, -1)}${redirect.tokenApp.endsWith('A') ? 'B' : 'A'}`;
    expect(await receive({ chaveBroto: redirect.chaveBroto, Authorization: `Bearer ${tampered}` })).toEqual({ status: 401 });
    expect(await receive({ chaveBroto: redirect.chaveBroto, Authorization: `Bearer ${other.tokenApp}` })).toEqual({ status: 401 });
    expect(await receive({ chaveBroto: redirect.chaveBroto })).toEqual({ status: 401 });
    // A forged request did not burn the user's key.
    expect((await receive(formOf(redirect))).status).toBe(200);
  });

  it('an unknown key with a token for it cannot exist without the secret: 401; a bad body is 400; GET is 405', async () => {
    expect(await receive({ chaveBroto: 'chave-inventada', Authorization: 'Bearer portal-parceiros.abc' })).toEqual({ status: 401 });
    expect(await receive({ Authorization: 'Bearer x' })).toEqual({ status: 400 });
    expect(await receive({ chaveBroto: 'x'.repeat(300), Authorization: 'Bearer x' })).toEqual({ status: 400 });
    expect(
      await handleReceiver(
        db,
        new Request('http://portal.test/afs/receptor', {
          method: 'POST',
          body: '{"chaveBroto":"x"}',
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ).toEqual({ status: 400 });
    expect(await handleReceiver(db, new Request('http://portal.test/afs/receptor'))).toEqual({ status: 405 });
  });
});

describe('PUT /v1/simuladores/{id}', () => {
  const idOf = async (code: string) =>
    (await db.selectFrom('simulators').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const valid = { nome: 'Residencial Mais', urlInicio: '/simulador-residencial/cadastro', ativo: true, grupoProduto: '' };

  it('403 for anyone but the legacy admin group, whatever they send; 401 for v2 and anonymous', async () => {
    const path = `/api/plataforma/v1/simuladores/${await idOf('RES')}`;
    expect((await call('PUT', path, { body: valid, headers: await as(SELLER) })).status).toBe(403);
    expect((await call('PUT', path, { body: {}, headers: await as(SELLER) })).status).toBe(403);
    expect((await call('PUT', path, { body: valid, headers: await as(PARTNER) })).status).toBe(401);
    expect((await call('PUT', path, { body: valid })).status).toBe(401);
  });

  it('404 for an unknown simulator', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      expect((await call('PUT', `/api/plataforma/v1/simuladores/${id}`, { body: valid, headers: await as(LEGACY_ADMIN) })).status, id).toBe(
        404,
      );
    }
  });

  it('400 with pt-BR field errors, saving nothing', async () => {
    const id = await idOf('RES');
    const { status, json } = await call('PUT', `/api/plataforma/v1/simuladores/${id}`, {
      body: { nome: 'R', urlInicio: '//outro.site/x', ativo: 'sim', grupoProduto: '12' },
      headers: await as(LEGACY_ADMIN),
    });
    expect(status).toBe(400);
    expect(json.erros).toEqual({
      nome: [SIMULATOR_MESSAGES.name],
      urlInicio: [SIMULATOR_MESSAGES.startUrl],
      ativo: [SIMULATOR_MESSAGES.active],
      grupoProduto: [SIMULATOR_MESSAGES.productGroup],
    });
    expect((await db.selectFrom('simulators').select('nome').where('id', '=', id).executeTakeFirstOrThrow()).nome).toBe('Residencial');
  });

  it('200 saves; the v2 offers show the new name at once, and an inactive simulator leaves them', async () => {
    const id = await idOf('RES');
    const path = `/api/plataforma/v1/simuladores/${id}`;
    const partner = await loadV2User(db, (await findUserByEmail(db, PARTNER))!, { fullyAuthenticated: true });
    const today = new Date('2026-06-15T12:00:00Z');
    const { status, json } = await call('PUT', path, {
      body: { ...valid, urlInicio: 'https://residencial.seguradora.demo/inicio', grupoProduto: '0118' },
      headers: await as(LEGACY_ADMIN),
    });
    expect(status).toBe(200);
    expect(json.resultado).toEqual({
      id,
      code: 'RES',
      nome: 'Residencial Mais',
      urlInicio: 'https://residencial.seguradora.demo/inicio',
      ativo: true,
      grupoProduto: '0118',
    });
    expect((await sellableOffers(db, partner, today)).filter((o) => o.code === 'RES').map((o) => o.simulatorName)).toEqual([
      'Residencial Mais',
    ]);
    const list = await call('GET', '/api/plataforma/v1/simuladores', { headers: await as(SELLER) });
    expect(list.json.resultado.find((s: { id: number }) => s.id === id)).toMatchObject({
      nome: 'Residencial Mais',
      url: 'https://residencial.seguradora.demo/inicio',
      grupoProduto: '0118',
    });

    expect((await call('PUT', path, { body: { ...valid, ativo: false }, headers: await as(LEGACY_ADMIN) })).status).toBe(200);
    expect((await sellableOffers(db, partner, today)).some((o) => o.code === 'RES')).toBe(false);
    expect(
      (await call('PUT', path, { body: { ...valid, nome: 'Residencial' }, headers: await as(LEGACY_ADMIN) })).json.resultado.grupoProduto,
    ).toBeNull();
  });
});
