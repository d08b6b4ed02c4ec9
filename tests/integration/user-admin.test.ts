import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { hashPassword } from '../../src/server/auth/passwords';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { TOKEN_COOKIES, TOKEN_MESSAGES } from '../../src/lib/session';
import { USER_ADMIN_MESSAGES } from '../../src/lib/user-admin';

/**
 * User administration (issue 16, decision 046) through the platform API: the list contract of
 * SPEC §3, who sees and changes whom, what may be granted, duplicates, the last administrator, and
 * a deactivation that ends the user's open sessions at once.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const tokens = {} as Record<'adminLegado' | 'vendedor' | 'adminV2' | 'parceiroAdmin' | 'sub' | 'parceiro', string>;

const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';

async function v1Token(email: string, password = DEMO_PASSWORD) {
  const { json, status } = await signInApi(call, email, password);
  expect(status, JSON.stringify(json)).toBe(200);
  return tokenOf(json) as string;
}
async function v2Token(email: string, password = DEMO_PASSWORD) {
  const { json, status } = await signInApi(call, email, password);
  expect(status, JSON.stringify(json)).toBe(200);
  return tokenOf(json) as string;
}
const as = (token: string) => ({ authtoken: token });
const filter = async (token: string, query: string) => call('GET', `/api/plataforma/v1/usuarios/filtro?${query}`, { headers: as(token) });

/** A user made able to sign in (as the first access would). */
async function activate(email: string) {
  await db
    .updateTable('users')
    .set({ status: 'ATIVO', password_hash: await hashPassword(DEMO_PASSWORD) })
    .where('email', '=', email)
    .execute();
}
const idOf = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

const v2Body = (over: Record<string, unknown> = {}) => ({
  cpf: '123.456.781-43',
  nome: 'Marina Teixeira',
  email: 'marina.teixeira@parceiro.demo',
  celular: '(11) 98888-7777',
  perfil: 'PARCEIRO',
  empresas: [HORIZONTE],
  pontoVenda: '',
  operacoes: ['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA'],
  ...over,
});
const v1Body = (over: Record<string, unknown> = {}) => ({
  nome: 'Otávio Nunes',
  email: 'otavio.nunes@legado.demo',
  cpf: '24681357928',
  empresa: HORIZONTE,
  grupos: ['VENDEDOR'],
  status: 'ativo',
  ...over,
});

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
  tokens.adminLegado = await v1Token('admin@legado.demo');
  tokens.vendedor = await v1Token('vendedor@legado.demo');
  tokens.adminV2 = await v2Token('admin');
  tokens.parceiroAdmin = await v2Token('parceiro.admin@parceiro.demo');
  tokens.sub = await v2Token('substabelecido@parceiro.demo');
  tokens.parceiro = await v2Token('parceiro@parceiro.demo');
});
afterAll(() => close());

describe('the list (SPEC §3)', () => {
  it('answers content and totalPages, four per page by default, and the page asked for', async () => {
    // Five more legacy users of Horizonte: the seed's 5 + 5 = 10 legacy users, three pages of four.
    for (const [i, cpf] of ['13579246828', '27182818205', '16180339805', '14142135651', '17320508052'].entries()) {
      const created = await call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(tokens.adminLegado),
        body: v1Body({ nome: `Lote Paginado ${'ABCDE'[i]}`, email: `lote${i}@legado.demo`, cpf }),
      });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
    }
    const first = await filter(tokens.adminLegado, 'page=0&page-size=4');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'OK', resultado: { totalPages: 3 } });
    expect(first.json.resultado.content).toHaveLength(4);
    const byName = await filter(tokens.adminLegado, 'nome=lote%20paginado&page=1');
    expect(byName.json.resultado).toMatchObject({ totalPages: 2 });
    expect(byName.json.resultado.content.map((u: { nome: string }) => u.nome)).toEqual(['Lote Paginado E']);
    expect((await filter(tokens.adminLegado, 'nome=lote&status=pendente')).json.resultado.content).toHaveLength(4);
    expect((await filter(tokens.adminLegado, 'status=qualquer')).status).toBe(400);
  });

  it('scopes each actor: ADMIN every v2 user, PARCEIRO_ADMIN their companies, SUBSTABELECIDO its own; a seller none', async () => {
    const emails = async (token: string) =>
      (await filter(token, 'page-size=50')).json.resultado.content.map((u: { email: string }) => u.email).sort();
    expect(await emails(tokens.adminV2)).toContain('admin@seguradora.demo');
    const partner = await emails(tokens.parceiroAdmin);
    expect(partner).toContain('parceiro@parceiro.demo');
    expect(partner).not.toContain('admin@seguradora.demo');
    expect(await emails(tokens.sub)).toEqual(['parceiro.admin@parceiro.demo', 'substabelecido@parceiro.demo']);
    expect((await filter(tokens.parceiro, '')).status).toBe(403);
    expect((await filter(tokens.vendedor, '')).status).toBe(403);
  });
});

describe('creating', () => {
  it('creates a pending v2 user, sends the first-access e-mail and logs who did it', async () => {
    const { status, json } = await call('POST', '/api/plataforma/v1/usuarios', { headers: as(tokens.parceiroAdmin), body: v2Body() });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.resultado).toMatchObject({ email: 'marina.teixeira@parceiro.demo', status: 'PENDENTE' });
    const user = await db.selectFrom('users').selectAll().where('id', '=', json.resultado.idUsuario).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ cpf: '12345678143', celular: '11988887777', profile: 'parceiro', generation: 'v2' });
    const mail = await db.selectFrom('emails').select(['template']).where('to_address', '=', user.email).execute();
    expect(mail.map((m) => m.template)).toEqual(['codigo-validacao']);
    const event = await db.selectFrom('access_events').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ event: 'USUARIO_CRIADO', actor_id: await idOf('parceiro.admin@parceiro.demo') });
  });

  it('refuses a duplicate e-mail and CPF with field errors, writing nothing', async () => {
    const before = await db.selectFrom('users').select('id').execute();
    const { status, json } = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.parceiroAdmin),
      body: v2Body({ email: 'PARCEIRO@parceiro.demo', cpf: '714.287.938-60' }),
    });
    expect(status).toBe(409);
    expect(json.erros).toEqual({ email: [USER_ADMIN_MESSAGES.duplicateEmail], cpf: [USER_ADMIN_MESSAGES.duplicateCpf] });
    expect(await db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });

  it('answers pt-BR field errors for bad input, never a 500', async () => {
    const { status, json } = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.parceiroAdmin),
      body: { cpf: '111.111.111-11', nome: 'X', email: 'nao-e-email', celular: '(11) 3333-4444', perfil: 'CHEFE', empresas: 7 },
    });
    expect(status).toBe(400);
    expect(Object.keys(json.erros).sort()).toEqual(['celular', 'cpf', 'email', 'empresas', 'nome', 'perfil']);
    expect(json.erros.cpf).toEqual(['CPF inválido.']);
  });

  it('grants nothing above the actor: a profile, an operation, a company', async () => {
    const sub = (over: Record<string, unknown>) =>
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(tokens.sub),
        body: v2Body({ perfil: 'SUBSTABELECIDO', empresas: [VALE_VERDE], email: 'novo.sub@parceiro.demo', cpf: '22360679767', ...over }),
      });
    expect((await sub({ perfil: 'PARCEIRO_ADMIN' })).json.erros).toEqual({ perfil: [USER_ADMIN_MESSAGES.profile] });
    expect((await sub({ operacoes: ['GERENCIAR_PONTO_VENDA'] })).json.erros).toEqual({ operacoes: [USER_ADMIN_MESSAGES.operation] });
    expect((await sub({ empresas: [HORIZONTE] })).json.erros.empresas).toContain(USER_ADMIN_MESSAGES.company);
    const ok = await sub({ operacoes: ['COTAR_VENDER', 'GERENCIAR_USUARIOS'] });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    // PARCEIRO_ADMIN may not make an ADMIN, nor a PARCEIRO of a sub-delegated company.
    const partner = (over: Record<string, unknown>) =>
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(tokens.parceiroAdmin),
        body: v2Body({ email: 'outro@parceiro.demo', cpf: '10101010133', ...over }),
      });
    expect((await partner({ perfil: 'ADMIN' })).json.erros).toEqual({ perfil: [USER_ADMIN_MESSAGES.profile] });
    expect((await partner({ empresas: [VALE_VERDE] })).json.erros).toEqual({ empresas: [USER_ADMIN_MESSAGES.companyType] });
    expect((await partner({ operacoes: ['GERENCIAR_PARCEIRO'] })).json.erros).toEqual({ operacoes: [USER_ADMIN_MESSAGES.operation] });
  });

  it('legacy: a group holding USUARIOS grants only groups it holds wholly, within its company; a seller may not', async () => {
    const created = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.adminLegado),
      body: v1Body({ nome: 'Gestora Legada', email: 'gestora@legado.demo', cpf: '31415926590', grupos: ['GESTOR'] }),
    });
    expect(created.status).toBe(200);
    await activate('gestora@legado.demo');
    const gestora = await v1Token('gestora@legado.demo');
    const make = (over: Record<string, unknown>) =>
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(gestora),
        body: v1Body({ email: 'vendedor2@legado.demo', cpf: '20202020266', ...over }),
      });
    expect((await make({ grupos: ['ADMINISTRADOR'] })).json.erros).toEqual({ grupos: [USER_ADMIN_MESSAGES.group] });
    expect((await make({ empresa: VALE_VERDE })).json.erros).toEqual({ empresa: [USER_ADMIN_MESSAGES.company] });
    expect((await make({})).status).toBe(200);
    expect((await call('POST', '/api/plataforma/v1/usuarios', { headers: as(tokens.vendedor), body: v1Body() })).status).toBe(403);
  });

  it('says a group or point of sale that does not exist is unknown, and a legacy user needs a group (issue 27)', async () => {
    const legacy = (over: Record<string, unknown>) =>
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(tokens.adminLegado),
        body: v1Body({ email: 'sem.grupo@legado.demo', cpf: '84027591305', ...over }),
      });
    expect((await legacy({ grupos: ['VENDEDOR', 'SUPERVISOR'] })).json.erros).toEqual({
      grupos: [USER_ADMIN_MESSAGES.unknownGroup('SUPERVISOR')],
    });
    const none = await legacy({ grupos: [] });
    expect(none.status).toBe(400);
    expect(none.json.erros).toEqual({ grupos: ['Selecione ao menos um grupo de acesso.'] });
    expect(await db.selectFrom('users').select('id').where('email', '=', 'sem.grupo@legado.demo').execute()).toHaveLength(0);
    const v2 = (over: Record<string, unknown>) =>
      call('POST', '/api/plataforma/v1/usuarios', {
        headers: as(tokens.parceiroAdmin),
        body: v2Body({ email: 'sem.grupo@parceiro.demo', cpf: '60312785453', ...over }),
      });
    expect((await v2({ grupoPermissao: '999999' })).json.erros).toEqual({ grupoPermissao: [USER_ADMIN_MESSAGES.unknownPermissionGroup] });
    expect((await v2({ pontoVenda: '999999' })).json.erros).toEqual({ pontoVenda: [USER_ADMIN_MESSAGES.unknownPointOfSale] });
  });
});

describe('changing', () => {
  it('edits a v2 user and refuses a user outside the actor’s companies (404)', async () => {
    const id = await idOf('marina.teixeira@parceiro.demo');
    const edited = await call('PUT', `/api/plataforma/v1/usuarios/${id}`, {
      headers: as(tokens.parceiroAdmin),
      body: v2Body({ nome: 'Marina Teixeira Alves', operacoes: ['COTAR_VENDER'] }),
    });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(await db.selectFrom('user_operations').select('operation').where('user_id', '=', id).execute()).toEqual([
      { operation: 'COTAR_VENDER' },
    ]);
    // The sub-delegated manager administers Vale Verde only: Marina (Horizonte) is not theirs.
    const foreign = await call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, { headers: as(tokens.sub), body: { status: 'inativo' } });
    expect(foreign.status).toBe(404);
    const admin = await idOf('admin@seguradora.demo');
    expect(
      (
        await call('PUT', `/api/plataforma/v1/usuarios/${admin}/status`, {
          headers: as(tokens.parceiroAdmin),
          body: { status: 'bloqueado' },
        })
      ).status,
    ).toBe(404);
  });

  it('deactivating ends the user’s open sessions at once: API 401, pages signed out', async () => {
    const seller = await v2Token('igor.pereira@parceiro.demo');
    expect((await call('GET', '/api/bff/v1/usuario', { headers: as(seller) })).status).toBe(200);
    const page = () => resolvePortalSession(db, (name) => (name === TOKEN_COOKIES.v2 ? seller : undefined));
    expect((await page()).session.v2?.email).toBe('igor.pereira@parceiro.demo');
    const id = await idOf('igor.pereira@parceiro.demo');
    const done = await call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, {
      headers: as(tokens.parceiroAdmin),
      body: { status: 'inativo' },
    });
    expect(done.json.resultado).toMatchObject({ status: 'INATIVO' });
    // No settle: this instance forgot at once.
    expect((await page()).session.v2).toBeUndefined();
    expect(await call('GET', '/api/bff/v1/usuario', { headers: as(seller) })).toMatchObject({
      status: 401,
      json: { message: TOKEN_MESSAGES.invalid },
    });
    const signIn = await call('POST', '/api/gateway/login', { body: { userName: 'igor.pereira@parceiro.demo', password: DEMO_PASSWORD } });
    expect(signIn.status).toBe(403);
    const event = await db
      .selectFrom('access_events')
      .selectAll()
      .where('user_id', '=', id)
      .where('event', '=', 'USUARIO_DESATIVADO')
      .executeTakeFirst();
    expect(event?.detalhe).toBe('situação: ATIVO → INATIVO');
  });

  it('blocking a legacy user ends their session and keeps them out; unblocking lets them in', async () => {
    const seller = await v1Token('vendedor@legado.demo');
    const id = await idOf('vendedor@legado.demo');
    const blocked = await call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, {
      headers: as(tokens.adminLegado),
      body: { status: 'bloqueado' },
    });
    expect(blocked.status).toBe(200);
    expect((await call('GET', '/api/plataforma/v1/simuladores', { headers: as(seller) })).status).toBe(401);
    expect(
      (await call('POST', '/api/plataforma/v1/login', { body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD } })).json
        .message,
    ).toBe('Usuário bloqueado. Procure o administrador da sua empresa.');
    await call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, { headers: as(tokens.adminLegado), body: { status: 'ativo' } });
    tokens.vendedor = await v1Token('vendedor@legado.demo');
  });

  it('keeps the last administrators: the last ADMIN, the last legacy admin, a company’s last PARCEIRO_ADMIN, and oneself', async () => {
    const adminV2 = await idOf('admin@seguradora.demo');
    const lastAdmin = await call('PUT', `/api/plataforma/v1/usuarios/${adminV2}/status`, {
      headers: as(tokens.adminV2),
      body: { status: 'inativo' },
    });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.json.erros.status).toEqual([USER_ADMIN_MESSAGES.selfStatus, USER_ADMIN_MESSAGES.lastAdmin]);
    const lowerSelf = await call('PUT', `/api/plataforma/v1/usuarios/${adminV2}`, {
      headers: as(tokens.adminV2),
      body: v2Body({ nome: 'Carla Mendes', email: 'admin@seguradora.demo', cpf: '39053344705', perfil: 'PARCEIRO_ADMIN' }),
    });
    expect(lowerSelf).toMatchObject({ status: 409, json: { erros: { perfil: [USER_ADMIN_MESSAGES.lastAdmin] } } });
    const adminLegado = await idOf('admin@legado.demo');
    // The seed's second member of the admin group steps out: admin@legado.demo is then the last one.
    const support = await idOf('suporte@legado.demo');
    const setSupport = (status: string) =>
      call('PUT', `/api/plataforma/v1/usuarios/${support}/status`, { headers: as(tokens.adminLegado), body: { status } });
    expect((await setSupport('inativo')).status).toBe(200);
    const demote = await call('PUT', `/api/plataforma/v1/usuarios/${adminLegado}`, {
      headers: as(tokens.adminLegado),
      body: v1Body({ nome: 'Ana Ribeiro', email: 'admin@legado.demo', cpf: '52998224725', grupos: ['GESTOR'] }),
    });
    expect(demote.status).toBe(409);
    expect(demote.json.erros).toEqual({ grupos: [USER_ADMIN_MESSAGES.lastAdmin] });
    expect((await setSupport('ativo')).status).toBe(200);
    // The partner admin is the only PARCEIRO_ADMIN of both companies: the insurer cannot lower them.
    const partnerAdmin = await idOf('parceiro.admin@parceiro.demo');
    const lower = await call('PUT', `/api/plataforma/v1/usuarios/${partnerAdmin}`, {
      headers: as(tokens.adminV2),
      body: v2Body({
        nome: 'Daniel Souza',
        email: 'parceiro.admin@parceiro.demo',
        cpf: '45317828791',
        perfil: 'PARCEIRO',
        empresas: [HORIZONTE],
      }),
    });
    expect(lower.status).toBe(409);
    expect(lower.json.erros.perfil).toEqual([USER_ADMIN_MESSAGES.lastCompanyAdmin]);
    const block = await call('PUT', `/api/plataforma/v1/usuarios/${partnerAdmin}/status`, {
      headers: as(tokens.adminV2),
      body: { status: 'bloqueado' },
    });
    expect(block.status).toBe(409);
    expect(await db.selectFrom('users').select('status').where('id', '=', partnerAdmin).executeTakeFirstOrThrow()).toEqual({
      status: 'ATIVO',
    });
  });

  it('an unknown or malformed id is a 404, a bad status a 400 in pt-BR', async () => {
    expect(
      (await call('PUT', '/api/plataforma/v1/usuarios/abc/status', { headers: as(tokens.adminV2), body: { status: 'ativo' } })).status,
    ).toBe(404);
    expect(
      (await call('PUT', '/api/plataforma/v1/usuarios/999999/status', { headers: as(tokens.adminV2), body: { status: 'ativo' } })).status,
    ).toBe(404);
    const bad = await call('PUT', `/api/plataforma/v1/usuarios/${await idOf('parceiro@parceiro.demo')}/status`, {
      headers: as(tokens.adminV2),
      body: { status: 'sumido' },
    });
    expect(bad).toMatchObject({ status: 400, json: { erros: { status: ['Selecione a situação: ativo, inativo ou bloqueado.'] } } });
  });
});

describe('what a change ends, and what two changes at once cannot do', () => {
  /** The secret of the newest e-mail of a template to an address (the outbox keeps it until it expires). */
  const secretOf = async (to: string, template: string) =>
    (
      await db
        .selectFrom('emails')
        .select('segredos')
        .where('to_address', '=', to)
        .where('template', '=', template)
        .orderBy('id', 'desc')
        .executeTakeFirst()
    )?.segredos as Record<string, string> | null | undefined;
  const statusOf = async (id: number) =>
    (await db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const setStatus = (token: string, id: number, status: string) =>
    call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, { headers: as(token), body: { status } });

  it('a reset link sent before a block lets nobody back in: the user stays blocked', async () => {
    const email = 'juliana.costa@parceiro.demo';
    const id = await idOf(email);
    expect((await call('POST', '/api/bff/v1/senha/esqueci', { body: { email } })).status).toBe(200);
    const token = (await secretOf(email, 'redefinir-senha'))!.token!;
    expect((await setStatus(tokens.parceiroAdmin, id, 'bloqueado')).status).toBe(200);
    const reset = await call('POST', '/api/bff/v1/senha/redefinir', {
      body: { token, senha: 'Invasor@2026', confirmacao: 'Invasor@2026' },
    });
    expect(reset.status).toBe(410);
    expect(await statusOf(id)).toBe('BLOQUEADO');
    // The mailbox's copy no longer carries the link.
    expect(await secretOf(email, 'redefinir-senha')).toBeNull();
    expect((await setStatus(tokens.parceiroAdmin, id, 'ativo')).status).toBe(200);
    expect(await statusOf(id)).toBe('ATIVO');
  });

  it('a pending user’s new e-mail gets a new code; the old address’s code is dead', async () => {
    const created = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.parceiroAdmin),
      body: v2Body({ nome: 'Renato Farias', email: 'renato.errado@parceiro.demo', cpf: '41827364513' }),
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.resultado.idUsuario as number;
    const oldCode = (await secretOf('renato.errado@parceiro.demo', 'codigo-validacao'))!.codigo!;
    const edited = await call('PUT', `/api/plataforma/v1/usuarios/${id}`, {
      headers: as(tokens.parceiroAdmin),
      body: v2Body({ nome: 'Renato Farias', email: 'renato.farias@parceiro.demo', cpf: '41827364513' }),
    });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    const firstAccess = (email: string, codigo: string) =>
      call('POST', '/api/plataforma/v1/primeiro-acesso', { body: { email, codigo, senha: 'Primeiro@1', confirmacao: 'Primeiro@1' } });
    expect((await firstAccess('renato.farias@parceiro.demo', oldCode)).status).toBe(400);
    const newCode = (await secretOf('renato.farias@parceiro.demo', 'codigo-validacao'))!.codigo!;
    expect((await firstAccess('renato.farias@parceiro.demo', newCode)).status).toBe(200);
    expect(await statusOf(id)).toBe('ATIVO');
  });

  it('a user deactivated before the first access comes back pending, with a new code', async () => {
    const created = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.parceiroAdmin),
      body: v2Body({ nome: 'Tereza Campos', email: 'tereza.campos@parceiro.demo', cpf: '51598877097' }),
    });
    const id = created.json.resultado.idUsuario as number;
    const first = (await secretOf('tereza.campos@parceiro.demo', 'codigo-validacao'))!.codigo;
    expect((await setStatus(tokens.parceiroAdmin, id, 'inativo')).json.resultado.status).toBe('INATIVO');
    expect(await secretOf('tereza.campos@parceiro.demo', 'codigo-validacao')).toBeNull();
    expect((await setStatus(tokens.parceiroAdmin, id, 'ativo')).json.resultado.status).toBe('PENDENTE');
    const again = (await secretOf('tereza.campos@parceiro.demo', 'codigo-validacao'))!.codigo;
    expect(again).toMatch(/^\d{6}$/);
    expect(again === first && first !== undefined).toBe(false);
  });

  it('two company administrators deactivating each other at once: one wins, the company keeps an administrator', async () => {
    const made = await call('POST', '/api/plataforma/v1/usuarios', {
      headers: as(tokens.adminV2),
      body: v2Body({
        nome: 'Helena Prado',
        email: 'helena.prado@parceiro.demo',
        cpf: '73268410049',
        perfil: 'PARCEIRO_ADMIN',
        empresas: [HORIZONTE, VALE_VERDE],
        operacoes: [],
      }),
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    await activate('helena.prado@parceiro.demo');
    const daniel = await idOf('parceiro.admin@parceiro.demo');
    const helenaId = await idOf('helena.prado@parceiro.demo');
    // A few rounds: the window two such requests share is narrow, and on PostgreSQL it is not always hit.
    for (let round = 0; round < 3; round++) {
      const helena = await v2Token('helena.prado@parceiro.demo');
      const answers = await Promise.all([setStatus(tokens.parceiroAdmin, helenaId, 'inativo'), setStatus(helena, daniel, 'inativo')]);
      // The other is refused: the last administrator (409), or, when the first ended its session before
      // it was read, signed out (401).
      expect(answers.map((a) => a.status).sort()).toEqual([200, expect.toBeOneOf([401, 409])]);
      const active = await db
        .selectFrom('users')
        .select('email')
        .where('profile', '=', 'parceiro_admin')
        .where('status', '=', 'ATIVO')
        .execute();
      expect(active).toHaveLength(1);
      // Whoever lost their access gets it back, for the next round and the tests that follow.
      const loser = answers[0]!.status === 200 ? helenaId : daniel;
      expect((await setStatus(tokens.adminV2, loser, 'ativo')).status).toBe(200);
      if (loser === daniel) tokens.parceiroAdmin = await v2Token('parceiro.admin@parceiro.demo');
    }
  });
});
