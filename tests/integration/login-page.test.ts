import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { DEMO_PASSWORD } from '../fixtures/api';
import { formPost } from '../fixtures/page-forms';

/**
 * Issue 27: a login submitted before the page's scripts load (or without JavaScript) is a plain form
 * POST to the login page itself, which answered an empty /signin with no message. Both login screens
 * now sign in on their own POST — the same services, limits and cookies as the API — or answer the
 * form again with SPEC §5's and §8's messages.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { loginPost } = await import('../../src/features/auth/login.server');
const { freshDatabase } = await import('../fixtures/db');

let db: DB;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  shared.db = db;
});
afterAll(() => close());

const post = (fields: Record<string, string>, path = '/signin') => formPost(`http://portal.test${path}`, fields);
let ip = 0;
// Each case from an address of its own: the sign-in limits count per address too.
const nextIp = () => `10.0.1.${++ip}`;

/** The session the answer's cookies open, as the next page request would resolve it. */
async function sessionOf(cookies: { name: string; value: string }[]) {
  const jar = new Map(cookies.map((c) => [c.name, c.value]));
  return (await resolvePortalSession(db, (name) => jar.get(name))).session;
}

describe('the legacy login page’s own POST', () => {
  it('signs in and goes home with the session cookie', async () => {
    const answer = await loginPost('v1', post({ email: ' Vendedor@Legado.DEMO ', senha: DEMO_PASSWORD }), null, nextIp());
    expect(answer.kind).toBe('signed-in');
    if (answer.kind !== 'signed-in') return;
    expect(answer.to).toBe('/home');
    expect(answer.cookies.map((c) => c.name)).toEqual(['tokenV1']);
    expect((await sessionOf(answer.cookies)).v1?.email).toBe('vendedor@legado.demo');
  });

  it('goes to ?next= when it is a path of the portal, home otherwise', async () => {
    const to = async (next: string) => {
      const answer = await loginPost('v1', post({ email: 'vendedor@legado.demo', senha: DEMO_PASSWORD }), next, nextIp());
      return answer.kind === 'signed-in' ? answer.to : answer.kind;
    };
    expect(await to('/historico?funcionalidade=vida')).toBe('/historico?funcionalidade=vida');
    expect(await to('https://evil.example/')).toBe('/home');
    expect(await to('//evil.example/')).toBe('/home');
  });

  it.each([
    [
      { email: '', senha: '' },
      { email: 'E-mail obrigatório', senha: 'SENHA OBRIGATÓRIA' },
    ],
    [{ email: 'nao-e-um-email', senha: 'x' }, { email: 'E-mail inválido' }],
    [{}, { email: 'E-mail obrigatório', senha: 'SENHA OBRIGATÓRIA' }],
  ])('refuses %j with SPEC §5’s messages (400), keeping the e-mail typed', async (fields, errors) => {
    const answer = await loginPost('v1', post(fields as Record<string, string>), null, nextIp());
    expect(answer).toEqual({ kind: 'refused', status: 400, state: { email: (fields as { email?: string }).email ?? '', errors } });
  });

  it('says what the API says, placed as SPEC §8 places it: an unknown user on the e-mail, a wrong password on the password', async () => {
    const unknown = await loginPost('v1', post({ email: 'ninguem@legado.demo', senha: DEMO_PASSWORD }), null, nextIp());
    expect(unknown).toEqual({
      kind: 'refused',
      status: 404,
      state: { email: 'ninguem@legado.demo', errors: { email: 'USUÁRIO NÃO ENCONTRADO (404)' } },
    });
    const wrong = await loginPost('v1', post({ email: 'admin@legado.demo', senha: 'Errada@123' }), null, nextIp());
    expect(wrong).toMatchObject({ kind: 'refused', status: 401, state: { errors: { senha: 'USUÁRIO OU SENHA INVÁLIDOS (401)' } } });
  });

  it('never holds the password in what it shows again', async () => {
    const answer = await loginPost('v1', post({ email: 'admin@legado.demo', senha: 'Segredo@Muito1' }), null, nextIp());
    expect(JSON.stringify(answer)).not.toContain('Segredo@Muito1');
  });
});

describe('the v2 login page’s own POST', () => {
  it('signs a partner in fully (v2 and simulator tokens), and the insurer’s admin by the e-mail typed', async () => {
    const partner = await loginPost('v2', post({ email: 'parceiro@parceiro.demo', senha: DEMO_PASSWORD }, '/v2/login'), null, nextIp());
    expect(partner.kind === 'signed-in' && partner.cookies.map((c) => c.name)).toEqual(['tokenV2', 'tokenSimulador']);
    if (partner.kind === 'signed-in') {
      expect(partner.to).toBe('/v2/home');
      expect((await sessionOf(partner.cookies)).v2?.fullyAuthenticated).toBe(true);
    }
    const admin = await loginPost(
      'v2',
      post({ email: 'admin@seguradora.demo', senha: DEMO_PASSWORD }, '/v2/login'),
      '/caixa-postal',
      nextIp(),
    );
    // The admin's password leads to the second step (decision 068), keeping where it was going; no session yet.
    expect([admin.kind, admin.kind !== 'refused' && admin.to, admin.kind !== 'refused' && admin.cookies.map((c) => c.name)]).toEqual([
      'second-factor',
      '/v2/login/segundo-fator?next=%2Fcaixa-postal',
      ['desafioSegundoFator'],
    ]);
  });

  it('refuses a legacy user with the API’s words, on the e-mail', async () => {
    const legacy = await loginPost('v2', post({ email: 'vendedor@legado.demo', senha: DEMO_PASSWORD }, '/v2/login'), null, nextIp());
    expect(legacy.kind).toBe('refused');
    expect(legacy.kind === 'refused' && legacy.state.errors?.email).toMatch(/\(404\)$/);
  });
});
