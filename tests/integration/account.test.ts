import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { TOKEN_MESSAGES } from '../../src/lib/session';
import { listEmails } from '../../src/server/mail/outbox';
import { useManualClock } from '../../src/server/clock';

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
});
afterAll(() => close());

/** The newest message to `to` as the demo mailbox shows it to an administrator (secrets filled while they last). */
const lastEmailTo = async (to: string) => (await listEmails(db, 500)).find((email) => email.to_address === to);

describe('forgot password → reset link → new password', () => {
  it('e-mails a single-use link that sets a new password and ends the old sessions', async () => {
    const before = { token: tokenOf((await signInApi(call, 'parceiro.admin@parceiro.demo')).json) };

    const forgot = await call('POST', '/api/bff/v1/senha/esqueci', { body: { email: 'Parceiro.Admin@parceiro.demo' } });
    expect(forgot).toMatchObject({ status: 200, json: { dado: { mensagem: expect.stringContaining('Se o e-mail estiver cadastrado') } } });
    const email = await lastEmailTo('parceiro.admin@parceiro.demo');
    expect(email?.subject).toBe('Redefinição de senha — Portal de Parceiros');
    const token = /\/v2\/senha\?token=([\w-]+)/.exec(email!.text_body)![1]!;

    const weak = await call('POST', '/api/bff/v1/senha/redefinir', { body: { token, senha: 'fraca', confirmacao: 'fraca' } });
    expect(weak.status).toBe(400);
    expect(weak.json.erros.senha[0]).toMatch(/^A senha precisa ter/);
    const mismatch = await call('POST', '/api/bff/v1/senha/redefinir', {
      body: { token, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha2' },
    });
    expect(mismatch.json.erros.confirmacao).toEqual(['As senhas não conferem']);

    const reset = await call('POST', '/api/bff/v1/senha/redefinir', { body: { token, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' } });
    expect(reset).toMatchObject({ status: 200, json: { dado: { login: '/v2/login' } } });
    expect(
      (await call('POST', '/api/bff/v1/senha/redefinir', { body: { token, senha: 'Outra@Senha1', confirmacao: 'Outra@Senha1' } })).status,
    ).toBe(410);

    expect((await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: before.token } })).status).toBe(401);
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'parceiro.admin@parceiro.demo', password: DEMO_PASSWORD } })).status,
    ).toBe(401);
    // The new password is right; the administrator's second factor still comes before the session.
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'parceiro.admin@parceiro.demo', password: 'Nova@Senha1' } })).json
        .segundoFator,
    ).toMatchObject({ etapa: 'verificar' });
    expect((await lastEmailTo('parceiro.admin@parceiro.demo'))?.subject).toBe('Sua senha foi alterada — Portal de Parceiros');
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const before = await db.selectFrom('emails').select('id').execute();
    const answer = await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'ninguem@exemplo.com' } });
    expect(answer).toMatchObject({
      status: 200,
      json: { resultado: { mensagem: expect.stringContaining('Se o e-mail estiver cadastrado') } },
    });
    expect(await db.selectFrom('emails').select('id').execute()).toHaveLength(before.length);
  });

  // Issue 27: the API's field errors tell an empty e-mail from one that is not an address, as the forms do.
  it('answers an empty e-mail with "E-mail obrigatório" and a filled invalid one with "E-mail inválido" (400)', async () => {
    for (const [email, message] of [
      ['', 'E-mail obrigatório'],
      ['sem-arroba', 'E-mail inválido'],
    ]) {
      for (const base of ['plataforma', 'bff']) {
        const answer = await call('POST', `/api/${base}/v1/senha/esqueci`, { body: { email } });
        expect(answer.status).toBe(400);
        expect(answer.json.erros.email).toEqual([message]);
      }
    }
  });

  it('keeps only the newest link alive', async () => {
    await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'vendedor@legado.demo' } });
    const first = /token=([\w-]+)/.exec((await lastEmailTo('vendedor@legado.demo'))!.text_body)![1]!;
    await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'vendedor@legado.demo' } });
    const second = /redefinir-senha\?token=([\w-]+)/.exec((await lastEmailTo('vendedor@legado.demo'))!.text_body)![1]!;
    expect(
      (
        await call('POST', '/api/plataforma/v1/senha/redefinir', {
          body: { token: first, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
        })
      ).status,
    ).toBe(410);
    expect(
      (
        await call('POST', '/api/plataforma/v1/senha/redefinir', {
          body: { token: second, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
        })
      ).status,
    ).toBe(200);
  });

  it('keeps the link out of the stored message, shows it to the mailbox while it lasts, then redacts it', async () => {
    const clock = useManualClock();
    try {
      await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'consultor@legado.demo' } });
      const row = await db
        .selectFrom('emails')
        .selectAll()
        .where('to_address', '=', 'consultor@legado.demo')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const token = /token=([\w-]+)/.exec((await lastEmailTo('consultor@legado.demo'))!.text_body)![1]!;
      expect(token).toMatch(/^[\w-]{40,}$/);
      expect(row.text_body).not.toContain(token);
      expect(row.html_body).not.toContain(token);
      expect(row.segredos).toEqual({ token });
      clock.advance(60 * 60 * 1000 + 1);
      expect((await lastEmailTo('consultor@legado.demo'))!.text_body).not.toContain(token);
      expect((await db.selectFrom('emails').select('segredos').where('id', '=', row.id).executeTakeFirstOrThrow()).segredos).toBeNull();
    } finally {
      clock.restore();
    }
  });

  it('a password changed while a reset link is out ends the link, and the mailbox copy shows it no more', async () => {
    await call('POST', '/api/bff/v1/senha/esqueci', { body: { email: 'substabelecido@parceiro.demo' } });
    const token = /token=([\w-]+)/.exec((await lastEmailTo('substabelecido@parceiro.demo'))!.text_body)![1]!;
    const { json: login } = await call('POST', '/api/gateway/login', {
      body: { userName: 'substabelecido@parceiro.demo', password: DEMO_PASSWORD },
    });
    const changed = await call('PUT', '/api/bff/v1/senha', {
      body: { senhaAtual: DEMO_PASSWORD, senha: 'Trocada@2026', confirmacao: 'Trocada@2026' },
      headers: { authtoken: login.token },
    });
    expect(changed.status).toBe(200);
    expect(
      (await call('POST', '/api/bff/v1/senha/redefinir', { body: { token, senha: 'Invasor@2026', confirmacao: 'Invasor@2026' } })).status,
    ).toBe(410);
    const stored = await db
      .selectFrom('emails')
      .select('segredos')
      .where('to_address', '=', 'substabelecido@parceiro.demo')
      .where('template', '=', 'redefinir-senha')
      .execute();
    expect(stored.every((row) => row.segredos === null)).toBe(true);
  });

  it('limits recovery requests per account (429)', async () => {
    const limited = apiClient(db, { ip: '10.7.7.7' });
    await db.deleteFrom('rate_limits').execute();
    for (let i = 0; i < 3; i++)
      expect((await limited('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'admin@legado.demo' } })).status).toBe(200);
    expect((await limited('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'admin@legado.demo' } })).status).toBe(429);
    await db.deleteFrom('rate_limits').execute();
  });
});

describe('first access', () => {
  it('a pending user cannot sign in, then validates the e-mailed code and chooses a password', async () => {
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'novo.parceiro@parceiro.demo', password: DEMO_PASSWORD } })).status,
    ).toBe(403);

    const resend = await call('POST', '/api/bff/v1/codigo-validacao/reenviar', { body: { email: 'novo.parceiro@parceiro.demo' } });
    expect(resend.status).toBe(200);
    const code = /Código de validação: (\d{6})/.exec((await lastEmailTo('novo.parceiro@parceiro.demo'))!.text_body)![1]!;

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await call('POST', '/api/plataforma/v1/primeiro-acesso', {
      body: { email: 'novo.parceiro@parceiro.demo', codigo: wrongCode, senha: 'Primeiro@1', confirmacao: 'Primeiro@1' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.erros.codigo[0]).toContain('Código de validação inválido');

    const done = await call('POST', '/api/plataforma/v1/primeiro-acesso', {
      body: { email: 'novo.parceiro@parceiro.demo', codigo: code, senha: 'Primeiro@1', confirmacao: 'Primeiro@1' },
    });
    expect(done).toMatchObject({ status: 200, json: { resultado: { geracao: 'v2' } } });
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'novo.parceiro@parceiro.demo', password: 'Primeiro@1' } })).status,
    ).toBe(200);
    // The code was single-use.
    expect(
      (
        await call('POST', '/api/plataforma/v1/primeiro-acesso', {
          body: { email: 'novo.parceiro@parceiro.demo', codigo: code, senha: 'Segundo@1', confirmacao: 'Segundo@1' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('single sign-on', () => {
  const adminToken = async () => tokenOf((await signInApi(call, 'admin')).json);

  it('an admin issues a one-time SSO session that signs the user in once', async () => {
    const issued = await call('POST', '/api/auth/v2/sessao-sso', {
      body: { email: 'parceiro@parceiro.demo' },
      headers: { authtoken: await adminToken() },
    });
    expect(issued.status).toBe(200);
    const { idSessaoSSO, link } = issued.json.dado;
    expect(link).toMatch(new RegExp(`/v2/login/session/${idSessaoSSO}$`));

    const path = `/api/auth/v2/cognito-auth/token/${idSessaoSSO}`;
    const redeemed = await call('GET', path, { headers: { nmIdSessao: idSessaoSSO } });
    expect(redeemed).toMatchObject({
      status: 200,
      json: { dado: { mpDado: { data: { cdToken: expect.any(String), cdUsername: 'parceiro@parceiro.demo' } } } },
    });
    const user = await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: redeemed.json.dado.mpDado.data.cdToken } });
    expect(user.json.dado.atributos.nmUsuario).toBe('Eduarda Lima');

    expect(await call('GET', path, { headers: { nmIdSessao: idSessaoSSO } })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.invalid },
    });
  });

  it('refuses an expired id, a missing header, and issuing by a non-admin', async () => {
    const token = await adminToken();
    const { json } = await call('POST', '/api/auth/v2/sessao-sso', {
      body: { email: 'substabelecido@parceiro.demo' },
      headers: { authtoken: token },
    });
    const id = json.dado.idSessaoSSO as string;
    expect((await call('GET', `/api/auth/v2/cognito-auth/token/${id}`)).status).toBe(400);
    await db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('purpose', '=', 'SSO')
      .where('used_at', 'is', null)
      .execute();
    expect(await call('GET', `/api/auth/v2/cognito-auth/token/${id}`, { headers: { nmIdSessao: id } })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.expired },
    });

    const { json: partner } = await call('POST', '/api/gateway/login', {
      body: { userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD },
    });
    expect(
      (await call('POST', '/api/auth/v2/sessao-sso', { body: { email: 'parceiro@parceiro.demo' }, headers: { authtoken: partner.token } }))
        .status,
    ).toBe(403);
    expect(
      (await call('POST', '/api/auth/v2/sessao-sso', { body: { email: 'vendedor@legado.demo' }, headers: { authtoken: token } })).status,
    ).toBe(404);
  });

  it('an operations key of the right length in characters but not in bytes is refused, not a 500', async () => {
    const previous = process.env.PORTAL_OPS_KEY;
    process.env.PORTAL_OPS_KEY = 'k'.repeat(64);
    try {
      const answer = await call('POST', '/api/auth/v2/sessao-sso', {
        body: { email: 'parceiro@parceiro.demo' },
        headers: { 'x-portal-ops-key': 'é'.repeat(64) },
      });
      expect(answer.status).toBe(401);
      const right = await call('POST', '/api/auth/v2/sessao-sso', {
        body: { email: 'parceiro@parceiro.demo' },
        headers: { 'x-portal-ops-key': 'k'.repeat(64) },
      });
      expect(right.status).toBe(200);
    } finally {
      process.env.PORTAL_OPS_KEY = previous;
    }
  });
});
