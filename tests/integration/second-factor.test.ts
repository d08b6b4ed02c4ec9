import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSync } from 'otplib';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { totpCode } from '../fixtures/second-factor';
import { listEmails } from '../../src/server/mail/outbox';
import { SECOND_FACTOR_MESSAGES } from '../../src/lib/second-factor';
import { createSession } from '../../src/server/services/identity/sessions';
import { announce } from '../../src/server/cache';

/*
 * Issue 32 (decision 068): those who can change everyone's access prove a second factor at sign-in,
 * and no sign-in path skips it.
 */

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
});
afterAll(() => close());

const ADMIN = 'admin@seguradora.demo';
const LEGACY_ADMIN = 'suporte@legado.demo';

const loginV2 = (userName: string, password = DEMO_PASSWORD, headers?: Record<string, string>) =>
  call('POST', '/api/gateway/login', { body: { userName, password }, headers });
const loginV1 = (user_name: string, password = DEMO_PASSWORD, headers?: Record<string, string>) =>
  call('POST', '/api/plataforma/v1/login', { body: { user_name, password }, headers });
const answerTotp = (desafio: string, codigo: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/api/auth/v1/segundo-fator/totp', { body: { codigo, ...extra }, headers: { 'x-desafio-segundo-fator': desafio } });
const answerRecovery = (desafio: string, codigo: string) =>
  call('POST', '/api/auth/v1/segundo-fator/recuperacao', { body: { codigo }, headers: { 'x-desafio-segundo-fator': desafio } });
const me = (token: string | undefined) => call('GET', '/api/bff/v1/usuario', { headers: { authtoken: token ?? '' } });
/** The account's app code of this step may have been taken by an earlier test: let it count again. */
const forgetLastCode = (email: string) =>
  db
    .updateTable('user_factors')
    .set({ totp_last_step: null })
    .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', email))
    .execute();
const sessionsOf = async (email: string) =>
  (
    await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.id')
      .where('users.email', '=', email)
      .execute()
  ).length;

describe('the policy', () => {
  it('asks the insurer admin for the code after the password, and gives no token before it', async () => {
    const before = await sessionsOf(ADMIN);
    const login = await loginV2('admin');
    expect(login.status).toBe(200);
    expect(login.json.token).toBeUndefined();
    expect(login.json.segundoFator).toMatchObject({ etapa: 'verificar', endereco: '/v2/login/segundo-fator', desafio: expect.any(String) });
    expect(await sessionsOf(ADMIN)).toBe(before);
    // The challenge is no session anywhere.
    expect((await me(login.json.segundoFator.desafio)).status).toBe(401);

    await forgetLastCode(ADMIN);
    const done = await answerTotp(login.json.segundoFator.desafio, totpCode(ADMIN));
    expect(done.status).toBe(200);
    expect((await me(done.json.dado.token)).status).toBe(200);
    // The challenge is spent.
    expect((await answerTotp(login.json.segundoFator.desafio, totpCode(ADMIN))).status).toBe(401);
  });

  it('takes a code once within its window: a second sign-in with the same code is refused', async () => {
    await forgetLastCode(ADMIN);
    const code = totpCode(ADMIN);
    const first = await loginV2('admin');
    expect((await answerTotp(first.json.segundoFator.desafio, code)).status).toBe(200);
    const second = await loginV2('admin');
    const reused = await answerTotp(second.json.segundoFator.desafio, code);
    expect(reused).toMatchObject({ status: 400, json: { erros: { codigo: [SECOND_FACTOR_MESSAGES.wrongCode] } } });
  });

  it('asks the legacy administrator group, and not a seller of either generation', async () => {
    expect((await loginV1(LEGACY_ADMIN)).json.resultado).toMatchObject({ segundoFator: { etapa: 'verificar' } });
    expect((await loginV1(LEGACY_ADMIN)).json.resultado.token).toBeUndefined();
    expect((await loginV1('vendedor@legado.demo')).json.resultado.token).toEqual(expect.any(String));
    expect((await loginV2('parceiro@parceiro.demo')).json.token).toEqual(expect.any(String));
  });

  it('ends a challenge after five wrong codes, and counts them in the access log', async () => {
    const { json } = await loginV1(LEGACY_ADMIN);
    const desafio = json.resultado.segundoFator.desafio;
    for (let i = 0; i < 4; i++) expect((await answerTotp(desafio, '000000')).status).toBe(400);
    expect(await answerTotp(desafio, '000000')).toMatchObject({ status: 401, json: { message: SECOND_FACTOR_MESSAGES.tooManyAttempts } });
    expect((await answerTotp(desafio, totpCode(LEGACY_ADMIN))).status).toBe(401);
    const failures = await db
      .selectFrom('access_events')
      .select('id')
      .where('event', '=', 'SEGUNDO_FATOR_FALHOU')
      .where('email', '=', LEGACY_ADMIN)
      .execute();
    expect(failures).toHaveLength(5);
  });

  it('refuses malformed codes with field errors, never a 500', async () => {
    const { json } = await loginV2('admin');
    const desafio = json.segundoFator.desafio;
    for (const codigo of ['', '12345', 'abcdef', '1234567', '１２３４５６']) {
      const answer = await answerTotp(desafio, codigo);
      expect(answer.status, codigo).toBe(400);
      expect(answer.json.erros['body.codigo'] ?? answer.json.erros.codigo).toBeDefined();
    }
    expect((await answerTotp('desafio-inventado-com-tamanho', '123456')).status).toBe(401);
  });
});

describe('sessions without the second factor', () => {
  it('refuses a session of an administrator whose sign-in proved none (one from before the policy)', async () => {
    const admin = await db.selectFrom('users').select('id').where('email', '=', ADMIN).executeTakeFirstOrThrow();
    const old = await createSession(db, admin.id, 'v2');
    expect((await me(old.token)).status).toBe(401);
    const seller = await db.selectFrom('users').select('id').where('email', '=', 'parceiro@parceiro.demo').executeTakeFirstOrThrow();
    expect((await me((await createSession(db, seller.id, 'v2')).token)).status).toBe(200);
  });

  it('refuses the session of a user made an administrator after signing in, until they sign in again', async () => {
    const login = await loginV2('igor.pereira@parceiro.demo');
    expect((await me(login.json.token)).status).toBe(200);
    const user = await db
      .updateTable('users')
      .set({ profile: 'parceiro_admin' })
      .where('email', '=', 'igor.pereira@parceiro.demo')
      .returning('id')
      .executeTakeFirstOrThrow();
    announce(db, { kind: 'user', userId: user.id });
    expect((await me(login.json.token)).status).toBe(401);
    expect((await loginV2('igor.pereira@parceiro.demo')).json.segundoFator.etapa).toBe('cadastrar');
  });
});

describe('enrolment, recovery codes and remembered browsers', () => {
  it('makes an administrator without a factor enrol an app, shows ten recovery codes once, and each works once', async () => {
    const partnerAdmin = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'parceiro.admin@parceiro.demo')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('user_factors').where('user_id', '=', partnerAdmin.id).execute();

    const login = await loginV2('parceiro.admin@parceiro.demo');
    expect(login.json.segundoFator.etapa).toBe('cadastrar');
    const desafio = login.json.segundoFator.desafio;
    // No recovery code before there is a factor.
    expect((await answerRecovery(desafio, 'abcd-efgh-jkmn')).status).toBe(400);
    const step = await call('GET', '/api/auth/v1/segundo-fator', { headers: { 'x-desafio-segundo-fator': desafio } });
    expect(step.json.dado).toMatchObject({
      etapa: 'cadastrar',
      cadastro: { segredo: expect.any(String), uri: expect.stringMatching(/^otpauth:\/\/totp\//) },
    });
    const secret = step.json.dado.cadastro.segredo;
    // The same secret while the challenge lasts (a reload of the page shows the same QR code).
    expect(
      (await call('GET', '/api/auth/v1/segundo-fator', { headers: { 'x-desafio-segundo-fator': desafio } })).json.dado.cadastro.segredo,
    ).toBe(secret);

    const enrolled = await answerTotp(desafio, generateSync({ secret }));
    expect(enrolled.status).toBe(200);
    const codes: string[] = enrolled.json.dado.codigosRecuperacao;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes[0]).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
    // Stored as hashes only.
    const stored = await db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', partnerAdmin.id).execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]!.replace(/-/g, ''));
    const factor = await db
      .selectFrom('user_factors')
      .select('totp_secret')
      .where('user_id', '=', partnerAdmin.id)
      .executeTakeFirstOrThrow();
    expect(factor.totp_secret).not.toContain(secret);

    // Next sign-in: verify, with a recovery code (typed in capitals, without dashes) — once.
    const again = await loginV2('parceiro.admin@parceiro.demo');
    expect(again.json.segundoFator.etapa).toBe('verificar');
    const recovered = await answerRecovery(again.json.segundoFator.desafio, codes[0]!.replace(/-/g, '').toUpperCase());
    expect(recovered.status).toBe(200);
    expect((await me(recovered.json.dado.token)).status).toBe(200);
    const third = await loginV2('parceiro.admin@parceiro.demo');
    expect(await answerRecovery(third.json.segundoFator.desafio, codes[0]!)).toMatchObject({
      status: 400,
      json: { erros: { codigo: [SECOND_FACTOR_MESSAGES.wrongRecovery] } },
    });
    expect((await answerRecovery(third.json.segundoFator.desafio, codes[1]!)).status).toBe(200);
  });

  it('skips the step for a browser remembered by the same user, for 30 days, and for no one else', async () => {
    const login = await loginV1('admin@legado.demo');
    await forgetLastCode('admin@legado.demo');
    const done = await answerTotp(login.json.resultado.segundoFator.desafio, totpCode('admin@legado.demo'), { lembrar: true });
    const device = done.json.dado.dispositivo as string;
    expect(device).toEqual(expect.any(String));
    const remembered = await loginV1('admin@legado.demo', DEMO_PASSWORD, { 'x-dispositivo-confiavel': device });
    expect(tokenOf(remembered.json)).toEqual(expect.any(String));
    // Another administrator's sign-in from the same browser still asks.
    expect((await loginV1(LEGACY_ADMIN, DEMO_PASSWORD, { 'x-dispositivo-confiavel': device })).json.resultado.segundoFator).toBeDefined();
    // Past 30 days it asks again.
    await db
      .updateTable('trusted_devices')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(
      (await loginV1('admin@legado.demo', DEMO_PASSWORD, { 'x-dispositivo-confiavel': device })).json.resultado.segundoFator,
    ).toBeDefined();
  });
});

describe('no sign-in path skips it', () => {
  it('an SSO link of an administrator opens the step, not a session', async () => {
    const issued = await call('POST', '/api/auth/v2/sessao-sso', {
      body: { email: ADMIN },
      headers: { authtoken: tokenOf((await signInApi(call, ADMIN)).json)! },
    });
    const id = issued.json.dado.idSessaoSSO as string;
    const redeemed = await call('GET', `/api/auth/v2/cognito-auth/token/${id}`, { headers: { nmIdSessao: id } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.dado.mpDado.data.cdToken).toBeUndefined();
    expect(redeemed.json.dado.mpDado.data.segundoFator).toMatchObject({ etapa: 'verificar', desafio: expect.any(String) });
  });

  it('a password reset leads back to the login, which still asks', async () => {
    await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: LEGACY_ADMIN } });
    const email = (await listEmails(db, 500)).find((e) => e.to_address === LEGACY_ADMIN)!;
    const token = /redefinir-senha\?token=([\w-]+)/.exec(email.text_body)![1]!;
    const reset = await call('POST', '/api/plataforma/v1/senha/redefinir', {
      body: { token, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
    });
    expect(reset.status).toBe(200);
    expect(JSON.stringify(reset.json)).not.toMatch(/token/i);
    const login = await loginV1(LEGACY_ADMIN, 'Nova@Senha1');
    expect(login.json.resultado.segundoFator).toBeDefined();
    expect(login.json.resultado.token).toBeUndefined();
  });

  it('a first access of a new partner administrator ends at the login, which asks for enrolment', async () => {
    const email = 'novo.parceiro@parceiro.demo';
    // The demo's pending user, made an administrator of the partner before finishing the first access.
    await db.updateTable('users').set({ profile: 'parceiro_admin' }).where('email', '=', email).execute();
    await call('POST', '/api/bff/v1/codigo-validacao/reenviar', { body: { email } });
    const message = (await listEmails(db, 500)).find((e) => e.to_address === email)!;
    const codigo = /Código de validação: (\d{6})/.exec(message.text_body)![1]!;
    const done = await call('POST', '/api/bff/v1/primeiro-acesso', {
      body: { email, codigo, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
    });
    expect(done.status).toBe(200);
    expect(JSON.stringify(done.json)).not.toMatch(/token/i);
    const login = await loginV2(email, 'Nova@Senha1');
    expect(login.json.segundoFator?.etapa).toBe('cadastrar');
    expect(login.json.token).toBeUndefined();
  });

  it('a user deactivated between the password and the code gets no session', async () => {
    const login = await loginV2('admin');
    await db.updateTable('users').set({ status: 'INATIVO' }).where('email', '=', ADMIN).execute();
    try {
      await forgetLastCode(ADMIN);
      expect((await answerTotp(login.json.segundoFator.desafio, totpCode(ADMIN))).status).toBe(401);
    } finally {
      await db.updateTable('users').set({ status: 'ATIVO' }).where('email', '=', ADMIN).execute();
    }
  });
});

describe("an administrator resets another user's second factor", () => {
  it('removes factors, codes and remembered browsers, ends the sessions, logs who did it; refused outside the administration', async () => {
    const target = await db.selectFrom('users').select('id').where('email', '=', 'admin@legado.demo').executeTakeFirstOrThrow();
    const targetSession = tokenOf((await signInApi(call, 'admin@legado.demo')).json)!;
    expect((await call('GET', `/api/plataforma/v1/permissoes/${target.id}`, { headers: { authtoken: targetSession } })).status).toBe(200);
    const reset = (as: string) =>
      call('POST', `/api/plataforma/v1/usuarios/${target.id}/segundo-fator/redefinir`, { headers: { authtoken: as } });

    // A seller may not; a manager of Horizonte does not administer the admin group (the 404 of a user not theirs).
    const seller = tokenOf((await signInApi(call, 'vendedor@legado.demo')).json)!;
    expect((await reset(seller)).status).toBe(403);
    const manager = tokenOf((await signInApi(call, 'gestor@legado.demo')).json)!;
    expect((await reset(manager)).status).toBe(404);
    expect(await db.selectFrom('user_factors').select('id').where('user_id', '=', target.id).execute()).toHaveLength(1);

    // Its password was reset earlier in this file.
    const support = tokenOf((await signInApi(call, LEGACY_ADMIN, 'Nova@Senha1')).json)!;
    expect((await reset(support)).status).toBe(200);
    expect(await db.selectFrom('user_factors').select('id').where('user_id', '=', target.id).execute()).toHaveLength(0);
    expect(await db.selectFrom('recovery_codes').select('id').where('user_id', '=', target.id).execute()).toHaveLength(0);
    const devices = await db.selectFrom('trusted_devices').select('revoked_at').where('user_id', '=', target.id).execute();
    expect(devices.every((d) => d.revoked_at !== null)).toBe(true);
    expect((await call('GET', `/api/plataforma/v1/permissoes/${target.id}`, { headers: { authtoken: targetSession } })).status).toBe(401);
    const logged = await db
      .selectFrom('access_events')
      .innerJoin('users as actor', 'actor.id', 'access_events.actor_id')
      .select(['actor.email'])
      .where('event', '=', 'SEGUNDO_FATOR_REDEFINIDO')
      .where('user_id', '=', target.id)
      .execute();
    expect(logged).toEqual([{ email: LEGACY_ADMIN }]);
    // The next sign-in enrols again.
    expect((await loginV1('admin@legado.demo')).json.resultado.segundoFator.etapa).toBe('cadastrar');
  });
});

describe("the user's own security (GET/POST /v1/seguranca…)", () => {
  it('lets a seller turn an app on and off, and keeps the last factor of whom the policy requires', async () => {
    const seller = { authtoken: tokenOf((await signInApi(call, 'juliana.costa@parceiro.demo')).json)! };
    // Each change asks for a recent proof first (issue 42: second-factor-guards.test.ts).
    await call('POST', '/api/bff/v1/seguranca/confirmacao', { headers: seller, body: { senha: DEMO_PASSWORD } });
    expect((await call('GET', '/api/bff/v1/seguranca', { headers: seller })).json.dado).toMatchObject({
      required: false,
      totp: null,
      passkeys: [],
    });
    const started = (await call('POST', '/api/bff/v1/seguranca/aplicativo/inicio', { headers: seller })).json.dado;
    // A state sealed for this user only: another user's session cannot confirm it.
    const other = { authtoken: tokenOf((await signInApi(call, 'parceiro@parceiro.demo')).json)! };
    await call('POST', '/api/bff/v1/seguranca/confirmacao', { headers: other, body: { senha: DEMO_PASSWORD } });
    expect(
      (
        await call('POST', '/api/bff/v1/seguranca/aplicativo', {
          headers: other,
          body: { estado: started.estado, codigo: generateSync({ secret: started.segredo }) },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/bff/v1/seguranca/aplicativo', { headers: seller, body: { estado: 'forjado', codigo: '123456' } })).status,
    ).toBe(400);
    const on = await call('POST', '/api/bff/v1/seguranca/aplicativo', {
      headers: seller,
      body: { estado: started.estado, codigo: generateSync({ secret: started.segredo }) },
    });
    expect(on.json.dado.codigosRecuperacao).toHaveLength(10);
    // From now on the seller's sign-in asks.
    expect((await loginV2('juliana.costa@parceiro.demo')).json.segundoFator.etapa).toBe('verificar');
    const codes = (await call('POST', '/api/bff/v1/seguranca/codigos-recuperacao', { headers: seller })).json.dado.codigos;
    expect(codes).toHaveLength(10);
    expect(codes).not.toEqual(on.json.dado.codigosRecuperacao);
    expect((await call('DELETE', '/api/bff/v1/seguranca/aplicativo', { headers: seller })).status).toBe(200);
    expect((await loginV2('juliana.costa@parceiro.demo')).json.token).toEqual(expect.any(String));
    // No factor, no codes to regenerate.
    expect((await call('POST', '/api/bff/v1/seguranca/codigos-recuperacao', { headers: seller })).status).toBe(409);

    // The insurer admin cannot remove its only factor.
    const admin = { authtoken: tokenOf((await signInApi(call, ADMIN)).json)! };
    await call('POST', '/api/bff/v1/seguranca/confirmacao', { headers: admin, body: { senha: DEMO_PASSWORD } });
    expect((await call('DELETE', '/api/bff/v1/seguranca/aplicativo', { headers: admin })).json).toMatchObject({
      status: 409,
      message: SECOND_FACTOR_MESSAGES.lastFactorRequired,
    });
    // Passkeys need the browser's origin: an API client without one is told so, not a 500.
    expect((await call('POST', '/api/bff/v1/seguranca/chaves/opcoes', { headers: admin })).status).toBe(400);
    expect((await call('DELETE', '/api/bff/v1/seguranca/chaves/999999', { headers: admin })).status).toBe(404);
  });
});
