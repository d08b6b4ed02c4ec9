import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSync } from 'otplib';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { totpCode } from '../fixtures/second-factor';
import { listEmails } from '../../src/server/mail/outbox';
import { nowMs, useManualClock } from '../../src/server/clock';

/*
 * Issue 42, items 2–4: a session alone changes nothing of the second factor (a recent proof is asked
 * first); nobody's wrong guesses refuse the owner's right answer (first-access code, second factor);
 * every way a password or a factor changes forgets the remembered browsers; the second factor's log
 * rows carry the address.
 */

let db: DB;
let close: () => Promise<void>;

let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  api = apiClient(db);
});
afterAll(() => close());
afterEach(async () => {
  await db.deleteFrom('rate_limits').execute();
  await db.deleteFrom('throttles').execute();
});

const ADMIN = 'admin@seguradora.demo';
/** How long a proof covers further changes (lib/second-factor.ts STEP_UP_MINUTES). */
const STEP_UP_MINUTES = 5;

/** Each test signs in several times (each a password hash): on a busy machine that is slow. */
const SLOW = { timeout: 120_000 };
/** The answer's payload whichever envelope its base uses. */
const payload = (json: { dado?: unknown; resultado?: unknown }) => (json.dado ?? json.resultado) as Record<string, any>;
const idOf = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const forgetLastCode = async (email: string) =>
  db
    .updateTable('user_factors')
    .set({ totp_last_step: null })
    .where('user_id', '=', await idOf(email))
    .execute();
const devicesLeft = async (email: string) =>
  (
    await db
      .selectFrom('trusted_devices')
      .select('id')
      .where('user_id', '=', await idOf(email))
      .where('revoked_at', 'is', null)
      .execute()
  ).length;

/** Every change of the own second factor, under one base, as a thief holding only the session would try it. */
const CHANGES: [string, string, Record<string, unknown>?][] = [
  ['POST', '/v1/seguranca/aplicativo/inicio'],
  ['POST', '/v1/seguranca/aplicativo', { estado: 'x', codigo: '123456' }],
  ['DELETE', '/v1/seguranca/aplicativo'],
  ['POST', '/v1/seguranca/chaves/opcoes'],
  [
    'POST',
    '/v1/seguranca/chaves',
    { estado: 'x', nome: 'Chave', resposta: { id: 'a', rawId: 'a', type: 'public-key', response: {}, clientExtensionResults: {} } },
  ],
  ['DELETE', '/v1/seguranca/chaves/1'],
  ['POST', '/v1/seguranca/codigos-recuperacao'],
  ['POST', '/v1/seguranca/dispositivos/esquecer'],
];

describe('item 2 — a session alone changes nothing of the second factor', SLOW, () => {
  for (const [generation, base, email] of [
    ['v2', '/api/bff', 'juliana.costa@parceiro.demo'],
    ['v1', '/api/plataforma', 'consultor@legado.demo'],
  ] as const) {
    it(`${generation}: every change asks for a recent proof (403), which the password or an app code gives for ${STEP_UP_MINUTES} minutes`, async () => {
      const clock = useManualClock();
      try {
        const session = { authtoken: tokenOf((await signInApi(api, email)).json) };
        for (const [method, path, body] of CHANGES) {
          const answer = await api(method, `${base}${path}`, { headers: session, body });
          expect(answer.status, `${method} ${path}`).toBe(403);
          expect(answer.json, `${method} ${path}`).toMatchObject({ codigo: 'CONFIRMACAO_NECESSARIA' });
        }
        // A wrong password is refused and counted like a sign-in's.
        const wrong = await api('POST', `${base}/v1/seguranca/confirmacao`, { headers: session, body: { senha: 'Errada@123' } });
        expect(wrong).toMatchObject({ status: 400, json: { erros: { senha: [expect.any(String)] } } });
        const proof = await api('POST', `${base}/v1/seguranca/confirmacao`, { headers: session, body: { senha: DEMO_PASSWORD } });
        expect(proof.status).toBe(200);
        expect(new Date(payload(proof.json).confirmadaAte).getTime()).toBe(nowMs() + STEP_UP_MINUTES * 60_000);
        // Another session of the same user has proved nothing.
        const other = { authtoken: tokenOf((await signInApi(api, email)).json) };
        expect((await api('POST', `${base}/v1/seguranca/aplicativo/inicio`, { headers: other })).status).toBe(403);

        // One proof covers several changes: an app turned on, new codes, browsers forgotten.
        const started = payload((await api('POST', `${base}/v1/seguranca/aplicativo/inicio`, { headers: session })).json);
        const on = await api('POST', `${base}/v1/seguranca/aplicativo`, {
          headers: session,
          body: { estado: started.estado, codigo: generateSync({ secret: started.segredo }) },
        });
        expect(on.status).toBe(200);
        expect((await api('POST', `${base}/v1/seguranca/codigos-recuperacao`, { headers: session })).status).toBe(200);
        expect((await api('POST', `${base}/v1/seguranca/dispositivos/esquecer`, { headers: session })).status).toBe(200);

        // Past the window it asks again; a code of the app is a proof too.
        clock.advance(STEP_UP_MINUTES * 60_000 + 1_000);
        expect((await api('DELETE', `${base}/v1/seguranca/aplicativo`, { headers: session })).status).toBe(403);
        // (The enrolment took this 30-second step's code: a code is good once.)
        await forgetLastCode(email);
        const byCode = await api('POST', `${base}/v1/seguranca/confirmacao`, {
          headers: session,
          body: { codigo: generateSync({ secret: started.segredo }) },
        });
        expect(byCode.status).toBe(200);
        expect((await api('DELETE', `${base}/v1/seguranca/aplicativo`, { headers: session })).status).toBe(200);
      } finally {
        clock.restore();
      }
    });
  }

  it("a stolen administrator's session cannot make the thief's app the factor; wrong proofs are limited and logged with the address", async () => {
    const owner = { authtoken: tokenOf((await signInApi(api, ADMIN)).json) };
    const thief = apiClient(db, { ip: '10.66.6.6' });
    expect((await thief('POST', '/api/bff/v1/seguranca/aplicativo/inicio', { headers: owner })).status).toBe(403);
    for (let i = 0; i < 5; i++)
      expect((await thief('POST', '/api/bff/v1/seguranca/confirmacao', { headers: owner, body: { senha: `Chute@${i}00` } })).status).toBe(
        400,
      );
    expect((await thief('POST', '/api/bff/v1/seguranca/confirmacao', { headers: owner, body: { senha: DEMO_PASSWORD } })).status).toBe(429);
    // Codes: the account's 5 free answers, one more in its first slot, then the next slot is 30 s away.
    for (let i = 0; i < 6; i++)
      expect((await thief('POST', '/api/bff/v1/seguranca/confirmacao', { headers: owner, body: { codigo: '000000' } })).status).toBe(400);
    const slowed = await thief('POST', '/api/bff/v1/seguranca/confirmacao', { headers: owner, body: { codigo: '000000' } });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner is told that someone holding a session (or the password) is guessing.
    expect((await listEmails(db, 500)).filter((e) => e.to_address === ADMIN && e.template === 'segundo-fator-tentativas')).toHaveLength(1);
    const refusals = await db
      .selectFrom('access_events')
      .select(['event', 'ip'])
      .where('user_id', '=', await idOf(ADMIN))
      .where('event', 'in', ['CONFIRMACAO_RECUSADA', 'SEGUNDO_FATOR_FALHOU'])
      .execute();
    expect(refusals).toHaveLength(11);
    expect(new Set(refusals.map((r) => r.ip))).toEqual(new Set(['10.66.6.6']));
    // Neither a password nor a code was given: the app is the owner's still.
    expect(
      await db
        .selectFrom('user_factors')
        .select('id')
        .where('user_id', '=', await idOf(ADMIN))
        .execute(),
    ).toHaveLength(1);
  });

  it('a malformed proof is a 400 with field errors, never a 500', async () => {
    const session = { authtoken: tokenOf((await signInApi(api, 'parceiro@parceiro.demo')).json) };
    for (const body of [{}, { senha: '' }, { codigo: '12' }, { senha: 'x', codigo: '123456' }, { codigo: 123456 }]) {
      const answer = await api('POST', '/api/bff/v1/seguranca/confirmacao', { headers: session, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.erros, JSON.stringify(body)).toBeDefined();
    }
  });
});

/** A pending user of the demo's partner and the code of their newest invitation e-mail. */
async function pendingUser(name: string): Promise<{ email: string; code: () => Promise<string> }> {
  const email = `${name}@parceiro.demo`;
  await db
    .insertInto('users')
    .values({
      email,
      nome: 'Pessoa Pendente',
      cpf: null,
      generation: 'v2',
      profile: 'parceiro',
      status: 'PENDENTE',
      password_hash: null,
      company_id: null,
    })
    .execute();
  const code = async () => {
    const message = (await listEmails(db, 500)).find((e) => e.to_address === email && e.template === 'codigo-validacao')!;
    return /Código de validação: (\d{6})/.exec(message.text_body)![1]!;
  };
  await apiClient(db, { ip: '10.1.1.1' })('POST', '/api/bff/v1/codigo-validacao/reenviar', { body: { email } });
  return { email, code };
}

const firstAccess = (ip: string, email: string, codigo: string) =>
  apiClient(db, { ip })('POST', '/api/plataforma/v1/primeiro-acesso', {
    body: { email, codigo, senha: 'Primeiro@1', confirmacao: 'Primeiro@1' },
  });
const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');

describe("item 3 — nobody's wrong guesses refuse the owner's right answer", SLOW, () => {
  it('first access: a guesser spread over many addresses slows the account down, never locks it; a new code starts clean; the owner is told', async () => {
    const clock = useManualClock();
    try {
      const user = await pendingUser('pendente.um');
      const first = await user.code();
      for (let i = 0; i < 12; i++) {
        const answer = await firstAccess(`10.70.0.${i}`, user.email, wrongOf(first));
        // Each guess is either checked (400) or told how long to wait (429): never a lock.
        expect([400, 429], `guess ${i}`).toContain(answer.status);
      }
      // A new code on request: the old guesses do not count against it.
      await apiClient(db, { ip: '10.1.1.2' })('POST', '/api/bff/v1/codigo-validacao/reenviar', { body: { email: user.email } });
      const second = await user.code();
      const before = nowMs();
      expect((await firstAccess('10.1.1.2', user.email, second)).status).toBe(200);
      expect(nowMs() - before).toBe(0);
      // The owner was told, once.
      const warnings = (await listEmails(db, 500)).filter(
        (e) => e.to_address === user.email && e.template === 'primeiro-acesso-tentativas',
      );
      expect(warnings).toHaveLength(1);
    } finally {
      clock.restore();
    }
  });

  it('first access: the right code after a guessing burst waits at most the told time, then is taken', async () => {
    const clock = useManualClock();
    try {
      const user = await pendingUser('pendente.dois');
      const code = await user.code();
      for (let i = 0; i < 6; i++) await firstAccess(`10.71.0.${i}`, user.email, wrongOf(code));
      const owner = await firstAccess('10.1.2.3', user.email, code);
      if (owner.status === 429) {
        const wait = Number(owner.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(5 * 60);
        clock.advance(wait * 1000);
        expect((await firstAccess('10.1.2.3', user.email, code)).status).toBe(200);
      } else expect(owner.status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('first access: one address gets 5 guesses per account per 15 minutes (its own budget)', async () => {
    const user = await pendingUser('pendente.tres');
    const code = await user.code();
    const clock = useManualClock();
    try {
      for (let i = 0; i < 5; i++) expect([400, 429]).toContain((await firstAccess('10.72.0.1', user.email, wrongOf(code))).status);
      expect((await firstAccess('10.72.0.1', user.email, code)).status).toBe(429);
    } finally {
      clock.restore();
    }
  });

  it('second factor: wrong answers of someone holding the password never refuse the owner where they proved it before; elsewhere they wait; the owner is told', async () => {
    const clock = useManualClock();
    const owner = 'parceiro.admin@parceiro.demo';
    const login = (ip: string) =>
      apiClient(db, { ip })('POST', '/api/gateway/login', { body: { userName: owner, password: DEMO_PASSWORD } });
    const answer = (ip: string, desafio: string, codigo: string) =>
      apiClient(db, { ip })('POST', '/api/auth/v1/segundo-fator/totp', {
        body: { codigo },
        headers: { 'x-desafio-segundo-fator': desafio },
      });
    try {
      // The owner's office, where the second factor was proved.
      await forgetLastCode(owner);
      const office = await login('10.80.0.1');
      expect((await answer('10.80.0.1', office.json.segundoFator.desafio, totpCode(owner))).status).toBe(200);
      // The thief has the password and guesses from many addresses, 3 codes a challenge.
      for (let round = 0; round < 5; round++) {
        const ip = `10.81.0.${round}`;
        const { desafio } = (await login(ip)).json.segundoFator;
        for (let i = 0; i < 3; i++) {
          expect([400, 429]).toContain((await answer(ip, desafio, '000000')).status);
        }
      }
      // The office signs in at once.
      await forgetLastCode(owner);
      const again = await login('10.80.0.1');
      const before = nowMs();
      expect((await answer('10.80.0.1', again.json.segundoFator.desafio, totpCode(owner))).status).toBe(200);
      expect(nowMs() - before).toBe(0);
      // A new place waits at most the told time, then is let in.
      await forgetLastCode(owner);
      const travel = (await login('10.82.0.1')).json.segundoFator.desafio;
      const first = await answer('10.82.0.1', travel, totpCode(owner));
      if (first.status === 429) {
        expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(5 * 60);
        clock.advance(Number(first.headers.get('retry-after')) * 1000);
        expect((await answer('10.82.0.1', travel, totpCode(owner))).status).toBe(200);
      } else expect(first.status).toBe(200);
      // Told once by e-mail: someone knows the password.
      const warnings = (await listEmails(db, 500)).filter((e) => e.to_address === owner && e.template === 'segundo-fator-tentativas');
      expect(warnings).toHaveLength(1);
    } finally {
      clock.restore();
    }
  });
});

describe('item 4 — every change of the password or the factor forgets the remembered browsers', SLOW, () => {
  /** Signs in remembering the browser; answers its secret. */
  async function rememberedBrowser(email: string, password = DEMO_PASSWORD) {
    const login = await api('POST', '/api/plataforma/v1/login', { body: { user_name: email, password } });
    await forgetLastCode(email);
    const done = await api('POST', '/api/auth/v1/segundo-fator/totp', {
      body: { codigo: totpCode(email), lembrar: true },
      headers: { 'x-desafio-segundo-fator': login.json.resultado.segundoFator.desafio },
    });
    expect(done.status).toBe(200);
    return { device: done.json.dado.dispositivo as string, token: done.json.dado.token as string };
  }
  const asksAgain = async (email: string, device: string, password: string) =>
    Boolean(
      (
        await api('POST', '/api/plataforma/v1/login', {
          body: { user_name: email, password },
          headers: { 'x-dispositivo-confiavel': device },
        })
      ).json.resultado.segundoFator,
    );

  it("the user's own password change", async () => {
    const email = 'admin@legado.demo';
    const { device, token } = await rememberedBrowser(email);
    expect(await asksAgain(email, device, DEMO_PASSWORD)).toBe(false);
    const changed = await api('PUT', '/api/plataforma/v1/senha', {
      headers: { authtoken: token },
      body: { senhaAtual: DEMO_PASSWORD, senha: 'Trocada@2026', confirmacao: 'Trocada@2026' },
    });
    expect(changed.status).toBe(200);
    expect(await devicesLeft(email)).toBe(0);
    expect(await asksAgain(email, device, 'Trocada@2026')).toBe(true);
  });

  it('"Forçar nova senha" by an administrator', async () => {
    const email = 'suporte@legado.demo';
    await rememberedBrowser(email);
    expect(await devicesLeft(email)).toBe(1);
    const admin = { authtoken: tokenOf((await signInApi(api, 'admin@legado.demo', 'Trocada@2026')).json) };
    const forced = await api('POST', `/api/plataforma/v1/usuarios/${await idOf(email)}/nova-senha`, { headers: admin });
    expect(forced.status).toBe(200);
    expect(await devicesLeft(email)).toBe(0);
  });

  it('a second-factor reset by an administrator', async () => {
    const email = 'parceiro.admin@parceiro.demo';
    const { token } = await rememberedBrowser2(email);
    expect(await devicesLeft(email)).toBeGreaterThan(0);
    const admin = { authtoken: tokenOf((await signInApi(api, ADMIN)).json) };
    const reset = await apiClient(db, { ip: '10.9.9.9' })(
      'POST',
      `/api/plataforma/v1/usuarios/${await idOf(email)}/segundo-fator/redefinir`,
      {
        headers: admin,
      },
    );
    expect(reset.status).toBe(200);
    expect(await devicesLeft(email)).toBe(0);
    const logged = await db
      .selectFrom('access_events')
      .select('ip')
      .where('event', '=', 'SEGUNDO_FATOR_REDEFINIDO')
      .where('user_id', '=', await idOf(email))
      .executeTakeFirstOrThrow();
    expect(logged.ip).toBe('10.9.9.9');
    // The user's next call is refused saying why (issue 42), and a browser keeps why for its login page.
    const refused = await api('GET', '/api/bff/v1/usuario', { headers: { authtoken: token, 'x-portal-session': 'cookie' } });
    expect(refused.json).toMatchObject({ status: 401, codigo: 'segundo-fator-redefinido' });
    expect(refused.headers.get('set-cookie')).toContain('sessaoEncerrada=segundo-fator-redefinido');
  });

  it('a re-enrolment of the app', async () => {
    const email = ADMIN;
    const { device, token } = await rememberedBrowser2(email);
    const session = { authtoken: token };
    await api('POST', '/api/bff/v1/seguranca/confirmacao', { headers: session, body: { senha: DEMO_PASSWORD } });
    const started = payload((await api('POST', '/api/bff/v1/seguranca/aplicativo/inicio', { headers: session })).json);
    const again = await api('POST', '/api/bff/v1/seguranca/aplicativo', {
      headers: session,
      body: { estado: started.estado, codigo: generateSync({ secret: started.segredo }) },
    });
    expect(again.status).toBe(200);
    expect(await devicesLeft(email)).toBe(0);
    expect(device).toEqual(expect.any(String));
  });

  /** The same at the v2 gateway (whose secret the demo seeds too). */
  async function rememberedBrowser2(email: string) {
    const login = await api('POST', '/api/gateway/login', { body: { userName: email, password: DEMO_PASSWORD } });
    await forgetLastCode(email);
    const done = await api('POST', '/api/auth/v1/segundo-fator/totp', {
      body: { codigo: totpCode(email), lembrar: true },
      headers: { 'x-desafio-segundo-fator': login.json.segundoFator.desafio },
    });
    expect(done.status).toBe(200);
    return { device: done.json.dado.dispositivo as string, token: done.json.dado.token as string };
  }
});

describe('item 4 — the second factor’s log rows carry the address', SLOW, () => {
  it('failed answers, a recovery code used, enrolment, codes, browsers forgotten and removal', async () => {
    const email = 'igor.pereira@parceiro.demo';
    const from = apiClient(db, { ip: '10.44.0.4' });
    const session = { authtoken: tokenOf((await signInApi(from, email)).json) };
    await from('POST', '/api/bff/v1/seguranca/confirmacao', { headers: session, body: { senha: DEMO_PASSWORD } });
    const started = payload((await from('POST', '/api/bff/v1/seguranca/aplicativo/inicio', { headers: session })).json);
    const on = await from('POST', '/api/bff/v1/seguranca/aplicativo', {
      headers: session,
      body: { estado: started.estado, codigo: generateSync({ secret: started.segredo }) },
    });
    const codes: string[] = payload(on.json).codigosRecuperacao;
    await from('POST', '/api/bff/v1/seguranca/codigos-recuperacao', { headers: session });
    await from('POST', '/api/bff/v1/seguranca/dispositivos/esquecer', { headers: session });
    const challenge = (await from('POST', '/api/gateway/login', { body: { userName: email, password: DEMO_PASSWORD } })).json.segundoFator
      .desafio;
    await from('POST', '/api/auth/v1/segundo-fator/totp', {
      body: { codigo: '000000' },
      headers: { 'x-desafio-segundo-fator': challenge },
    });
    expect(codes).toHaveLength(10);
    const newCodes = payload((await from('POST', '/api/bff/v1/seguranca/codigos-recuperacao', { headers: session })).json).codigos;
    await from('POST', '/api/auth/v1/segundo-fator/recuperacao', {
      body: { codigo: newCodes[0] },
      headers: { 'x-desafio-segundo-fator': challenge },
    });
    await from('DELETE', '/api/bff/v1/seguranca/aplicativo', { headers: session });
    const rows = await db
      .selectFrom('access_events')
      .select(['event', 'ip'])
      .where('user_id', '=', await idOf(email))
      .where('event', 'in', [
        'SEGUNDO_FATOR_FALHOU',
        'CODIGO_RECUPERACAO_USADO',
        'SEGUNDO_FATOR_CADASTRADO',
        'CODIGOS_RECUPERACAO_GERADOS',
        'DISPOSITIVOS_ESQUECIDOS',
        'SEGUNDO_FATOR_REMOVIDO',
      ])
      .execute();
    expect(new Set(rows.map((r) => r.event)).size).toBe(6);
    expect(rows.filter((r) => r.ip !== '10.44.0.4')).toEqual([]);
  });
});
