import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, demoTokens } from '../fixtures/api';
import { formPost } from '../fixtures/page-forms';
import { viewerByEmail } from '../fixtures/selling';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { actorOf } from '../../src/server/services/network/user-admin';
import { userPageFacts } from '../../src/server/services/network/user-page';
import { listPendingInvitations } from '../../src/server/services/network/user-invitations';
import { issueCode } from '../../src/server/services/identity/codes';
import { setGroupMembershipEnd } from '../../src/server/services/network/grant-ends';
import { visibleMenu, type VisibleItem } from '../../src/lib/menu-visibility';
import { LEGACY_MENU, V2_MENU } from '../../src/lib/menus';
import { TOKEN_COOKIES, viewerOf, type PortalSession } from '../../src/lib/session';
import { useManualClock } from '../../src/server/clock';
import { config, externalLinks } from '../../src/server/config';
import type { ExplainedItem } from '../../src/lib/user-page';

/**
 * A page per user (issue 32, decision 069): the effective permissions and menu equal what the user
 * gets when signing in, a user outside the viewer's administration is a 404 (pages and API), and the
 * invitation and forced-password actions do what they say — and are logged with who did them.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { userPage, invitationsPage } = await import('../../src/features/users/user-page.server');

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let as: ReturnType<typeof demoTokens>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  shared.db = db;
  call = apiClient(db);
  as = demoTokens(call);
});
afterAll(() => close());

const sessionOf = async (email: string): Promise<PortalSession> => {
  const viewer = await viewerByEmail(db, email);
  return viewer.generation === 'v1' ? { v1: viewer.user } : { v2: viewer.user };
};
const idOf = async (email: string) => (await findUserByEmail(db, email))!.id;
const actorByEmail = async (email: string) => actorOf(db, (await findUserByEmail(db, email))!);
const get = (url: string) => new Request(url);

/** A menu tree as comparable data: titles, links and nesting, nothing else. */
const shape = (items: readonly (VisibleItem | ExplainedItem)[]): unknown[] =>
  items.map((i) => ({ id: i.id, title: i.title, href: i.href ?? null, children: i.children ? shape(i.children) : null }));

/**
 * The menu the user's drawer shows after a real sign-in: the API's login, the session its token
 * resolves to on a page request (the middleware's resolvePortalSession), and the layout's rule.
 */
async function signInMenu(email: string, signIn = as) {
  const { authtoken } = await signIn(email);
  const generation = email.endsWith('@legado.demo') ? 'v1' : 'v2';
  const { session } = await resolvePortalSession(db, (name) => (name === TOKEN_COOKIES[generation] ? authtoken : undefined));
  const viewer = viewerOf(session, generation)!;
  return visibleMenu(generation === 'v1' ? LEGACY_MENU : V2_MENU, viewer, config().PORTAL_ENV, externalLinks());
}

describe("a user's effective permissions", () => {
  const CASES: [admin: string, user: string][] = [
    ['suporte@legado.demo', 'vendedor@legado.demo'],
    ['suporte@legado.demo', 'consultor@legado.demo'],
    ['suporte@legado.demo', 'gestor@legado.demo'],
    ['suporte@legado.demo', 'admin@legado.demo'],
    ['admin@seguradora.demo', 'parceiro@parceiro.demo'],
    ['admin@seguradora.demo', 'juliana.costa@parceiro.demo'],
    ['admin@seguradora.demo', 'substabelecido@parceiro.demo'],
    ['admin@seguradora.demo', 'parceiro.admin@parceiro.demo'],
    ['parceiro.admin@parceiro.demo', 'igor.pereira@parceiro.demo'],
  ];
  it.each(CASES)('as %s sees them, %s gets that very menu at sign-in', async (admin, email) => {
    const facts = await userPageFacts(db, await actorByEmail(admin), await idOf(email), config().PORTAL_ENV, externalLinks());
    expect(facts).toBeDefined();
    const atSignIn = await signInMenu(email);
    expect(atSignIn.length).toBeGreaterThan(0);
    expect(shape(facts!.menu)).toEqual(shape(atSignIn));
    // Every link says why it shows.
    const leaves = (items: ExplainedItem[]): ExplainedItem[] => items.flatMap((i) => (i.children ? leaves(i.children) : [i]));
    for (const leaf of leaves(facts!.menu)) expect(leaf.why, leaf.title).not.toContain('Origem não identificada');
  });

  it('names where each grant comes from: a group of permissions and its company, the user, a legacy group', async () => {
    const admin = await actorByEmail('admin@seguradora.demo');
    const juliana = (await userPageFacts(db, admin, await idOf('juliana.costa@parceiro.demo'), 'TEST', externalLinks()))!;
    expect(juliana.grants.length).toBeGreaterThan(0);
    for (const grant of juliana.grants) expect(grant.from.join()).toMatch(/^Grupo de permissões Vendedor de loja \(Corretora Horizonte/);
    const eduarda = (await userPageFacts(db, admin, await idOf('parceiro@parceiro.demo'), 'TEST', externalLinks()))!;
    expect(eduarda.grants.find((g) => g.code === 'METRICAS')?.from).toEqual(['Atribuída ao usuário']);
    const legacy = (await userPageFacts(
      db,
      await actorByEmail('suporte@legado.demo'),
      await idOf('vendedor@legado.demo'),
      'TEST',
      externalLinks(),
    ))!;
    expect(legacy.grants.every((g) => g.from.some((f) => f === 'Grupo VENDEDOR'))).toBe(true);
    const adminUser = (await userPageFacts(db, admin, await idOf('admin@seguradora.demo'), 'TEST', externalLinks()))!;
    expect(adminUser.note).toMatch(/^Perfil Administrador da seguradora/);
  });
});

describe('who may open a user\u2019s page', () => {
  it('a user outside the viewer\u2019s administration is a 404 — page and API alike', async () => {
    const outside: [viewer: string, target: string][] = [
      // Another generation.
      ['admin@seguradora.demo', 'vendedor@legado.demo'],
      ['suporte@legado.demo', 'parceiro@parceiro.demo'],
      // A partner's administrator and the insurer's ADMIN (no company of theirs).
      ['parceiro.admin@parceiro.demo', 'admin@seguradora.demo'],
      // A sub-delegated manager and a user of the partner above.
      ['substabelecido@parceiro.demo', 'parceiro@parceiro.demo'],
    ];
    for (const [viewer, target] of outside) {
      const generation = viewer.endsWith('@legado.demo') ? 'v1' : 'v2';
      const id = await idOf(target);
      const base = generation === 'v1' ? 'http://portal.test/consulta-usuarios' : 'http://portal.test/v2/usuario';
      const session = await sessionOf(viewer);
      expect((await userPage(generation, session, String(id), new URL(`${base}/${id}`), get(`${base}/${id}`), '10.0.0.1')).kind).toBe(
        'not-found',
      );
      const posted = await userPage(
        generation,
        session,
        String(id),
        new URL(`${base}/${id}`),
        formPost(`${base}/${id}`, { acao: 'forcar-nova-senha' }),
        '10.0.0.1',
      );
      expect(posted.kind).toBe('not-found');
      const api = generation === 'v1' ? '/api/plataforma' : '/api/bff';
      const headers = await as(viewer);
      expect((await call('GET', `${api}/v1/usuarios/${id}/pagina`, { headers })).status).toBe(404);
      expect((await call('GET', `${api}/v1/usuarios/${id}/historico`, { headers })).status).toBe(404);
    }
    const seller = await as('vendedor@legado.demo');
    expect((await call('GET', '/api/plataforma/v1/convites', { headers: seller })).status).toBe(403);
    expect(
      (await call('GET', `/api/plataforma/v1/usuarios/${await idOf('consultor@legado.demo')}/pagina`, { headers: seller })).status,
    ).toBe(404);
  });

  it('bad input is a 4xx with a pt-BR message, never a 500', async () => {
    const headers = await as('admin@seguradora.demo');
    const id = await idOf('parceiro@parceiro.demo');
    const bad = await call('GET', `/api/bff/v1/usuarios/${id}/historico?tipo=tudo&pagina=-1`, { headers });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toMatch(/Tipo inválido|Página inválida/);
    expect((await call('GET', '/api/bff/v1/usuarios/abc/pagina', { headers })).status).toBe(404);
    expect((await call('GET', '/api/bff/v1/convites?pagina=zz', { headers })).status).toBe(400);
    const session = await sessionOf('admin@seguradora.demo');
    const page = await userPage(
      'v2',
      session,
      String(id),
      new URL(`http://portal.test/v2/usuario/${id}`),
      formPost(`http://portal.test/v2/usuario/${id}`, { acao: 'apagar' }),
      '10.0.0.1',
    );
    expect(page.kind === 'page' && page.status).toBe(400);
    expect(page.kind === 'page' && page.props.errors?.form?.[0]).toMatch(/^Ação inválida/);
    expect(
      (await userPage('v2', session, '0', new URL('http://portal.test/v2/usuario/0'), get('http://portal.test/v2/usuario/0'), '10.0.0.1'))
        .kind,
    ).toBe('not-found');
  });

  it('the histories list what the user did and what was done to them, newest first', async () => {
    const id = await idOf('parceiro@parceiro.demo');
    await as('parceiro@parceiro.demo');
    const headers = await as('admin@seguradora.demo');
    const entradas = await call('GET', `/api/bff/v1/usuarios/${id}/historico?tipo=entradas`, { headers });
    expect(entradas.status).toBe(200);
    expect(entradas.json.dado.content[0]).toMatchObject({ evento: 'LOGIN' });
    expect(
      entradas.json.dado.content.every((r: { evento: string }) =>
        ['LOGIN', 'LOGIN_FALHOU', 'SEGUNDO_FATOR_FALHOU', 'SSO', 'LOGOUT'].includes(r.evento),
      ),
    ).toBe(true);
  });
});

describe('grants with an end date on the user’s page', () => {
  it('names the last day of a group that ends, and once past it the group is gone from the page as from the menu', async () => {
    const email = 'consultor@legado.demo';
    const id = await idOf(email);
    const support = await actorByEmail('suporte@legado.demo');
    const facts = () => userPageFacts(db, support, id, config().PORTAL_ENV, externalLinks());
    const group = (await facts())!.grants[0]!.from[0]!.replace(/^Grupo /, '');
    const clock = useManualClock(Date.parse('2026-12-10T15:00:00Z'));
    try {
      // Through 20/12/2026 in Brasília: the instant it stops counting is 21/12 00:00 (-03:00).
      await setGroupMembershipEnd(db, support, id, group, new Date('2026-12-21T03:00:00Z'), '10.0.0.1');
      const before = (await facts())!;
      expect(before.grants.some((g) => g.from.includes(`Grupo ${group}, até 20/12/2026`))).toBe(true);
      clock.advance(11 * 86_400_000);
      const after = (await facts())!;
      expect(after.grants.flatMap((g) => g.from).some((f) => f.startsWith(`Grupo ${group}`))).toBe(false);
      // Days later: a sign-in of its own, not a token of before.
      expect(shape(after.menu)).toEqual(shape(await signInMenu(email, demoTokens(call))));
    } finally {
      clock.restore();
      await setGroupMembershipEnd(db, support, id, group, null, '10.0.0.1');
    }
  });
});

describe('invitations', () => {
  it('lists pending first accesses oldest first; expired after the code\u2019s 24 h; resend makes it pending again; cancel ends it', async () => {
    const admin = await actorByEmail('admin@seguradora.demo');
    const pendingId = await idOf('novo.parceiro@parceiro.demo');
    const clock = useManualClock(Date.now());
    try {
      const listed = await listPendingInvitations(db, admin, { page: 1 }, 20);
      const row = listed.content.find((r) => r.id === pendingId)!;
      expect(row.invitation.kind).toBe('pendente');
      clock.advance(25 * 3_600_000);
      const later = await listPendingInvitations(db, admin, { page: 1 }, 20);
      expect(later.content.find((r) => r.id === pendingId)!.invitation.kind).toBe('expirado');

      // A day later the earlier sessions have lapsed: the administrator signs in again.
      const headers = await demoTokens(call)('admin@seguradora.demo');
      const resent = await call('POST', `/api/bff/v1/usuarios/${pendingId}/convite/reenvio`, { headers });
      expect(resent.status).toBe(200);
      const page = await call('GET', `/api/bff/v1/usuarios/${pendingId}/pagina`, { headers });
      expect(page.json.dado.convite.kind).toBe('pendente');

      // A code issued before the cancellation cannot complete the first access.
      const { secret } = await issueCode(db, pendingId, 'PRIMEIRO_ACESSO');
      const session = await sessionOf('admin@seguradora.demo');
      const cancelled = await invitationsPage(
        'v2',
        session,
        new URL('http://portal.test/v2/usuario/convites'),
        formPost('http://portal.test/v2/usuario/convites', { id: String(pendingId), acao: 'cancelar-convite' }),
        '10.0.0.9',
      );
      expect(cancelled).toEqual({ kind: 'redirect', to: '/v2/usuario/convites?aviso=cancelar-convite' });
      const first = await call('POST', '/api/plataforma/v1/primeiro-acesso', {
        body: { email: 'novo.parceiro@parceiro.demo', codigo: secret, senha: 'Nova@Senha2026', confirmacao: 'Nova@Senha2026' },
      });
      expect(first.status).not.toBe(200);
      expect((await findUserByEmail(db, 'novo.parceiro@parceiro.demo'))!.status).toBe('INATIVO');
      const after = await call('GET', `/api/bff/v1/usuarios/${pendingId}/pagina`, { headers });
      expect(after.json.dado.convite.kind).toBe('cancelado');
      expect((await listPendingInvitations(db, admin, { page: 1 }, 20)).content.some((r) => r.id === pendingId)).toBe(false);
      // Both logged, with who did them.
      const events = await db
        .selectFrom('access_events')
        .select(['event', 'actor_id', 'ip'])
        .where('user_id', '=', pendingId)
        .orderBy('id')
        .execute();
      const adminId = await idOf('admin@seguradora.demo');
      expect(events).toEqual(
        expect.arrayContaining([
          { event: 'CONVITE_REENVIADO', actor_id: adminId, ip: '10.0.0.1' },
          { event: 'CONVITE_CANCELADO', actor_id: adminId, ip: '10.0.0.9' },
        ]),
      );
      // Nothing pending to resend or cancel now: a 409 saying so.
      const again = await call('POST', `/api/bff/v1/usuarios/${pendingId}/convite/cancelamento`, { headers });
      expect(again.status).toBe(409);
    } finally {
      clock.restore();
    }
  });

  it('a partner administrator sees and acts only on their companies\u2019 invitations', async () => {
    const partnerAdmin = await actorByEmail('parceiro.admin@parceiro.demo');
    const listed = await listPendingInvitations(db, partnerAdmin, { page: 1 }, 20);
    for (const row of listed.content) expect(row.empresa).not.toBeNull();
    const legacyManager = await actorByEmail('gestor@legado.demo');
    const legacy = await listPendingInvitations(db, legacyManager, { page: 1 }, 20);
    expect(legacy.content.every((r) => !r.email.endsWith('@parceiro.demo'))).toBe(true);
  });
});

describe('Forçar nova senha', () => {
  it('ends the sessions, refuses the old password, sends the reset e-mail and logs the actor', async () => {
    const email = 'juliana.costa@parceiro.demo';
    const id = await idOf(email);
    const login = await call('POST', '/api/gateway/login', { body: { userName: email, password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    const token = login.json.token as string;
    expect((await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: token } })).status).toBe(200);

    const headers = await as('parceiro.admin@parceiro.demo');
    const forced = await call('POST', `/api/bff/v1/usuarios/${id}/nova-senha`, { headers });
    expect(forced.status).toBe(200);
    expect(forced.json.dado.mensagem).toMatch(/^Nova senha exigida/);

    expect((await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: token } })).status).toBe(401);
    const refused = await call('POST', '/api/gateway/login', { body: { userName: email, password: DEMO_PASSWORD } });
    expect(refused.status).toBe(401);
    const mail = await db
      .selectFrom('emails')
      .select(['template'])
      .where('to_address', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(mail?.template).toBe('redefinir-senha');
    const logged = await db
      .selectFrom('access_events')
      .select(['actor_id'])
      .where('user_id', '=', id)
      .where('event', '=', 'SENHA_REDEFINICAO_FORCADA')
      .executeTakeFirst();
    expect(logged?.actor_id).toBe(await idOf('parceiro.admin@parceiro.demo'));

    // Not on oneself, and not on someone without a password to replace.
    const self = await call('POST', `/api/bff/v1/usuarios/${await idOf('parceiro.admin@parceiro.demo')}/nova-senha`, { headers });
    expect(self.status).toBe(409);
    // A seller cannot force anyone's password.
    const seller = await as('vendedor@legado.demo');
    expect(
      (await call('POST', `/api/plataforma/v1/usuarios/${await idOf('consultor@legado.demo')}/nova-senha`, { headers: seller })).status,
    ).toBe(403);
  });
});

describe('a user\u2019s sessions on their page', () => {
  it('lists them with device and second factor; ends one, then all — refused at their next request, logged with the actor', async () => {
    const email = 'igor.pereira@parceiro.demo';
    const id = await idOf(email);
    const signIn = async (agent: string) => {
      const login = await call('POST', '/api/gateway/login', {
        body: { userName: email, password: DEMO_PASSWORD },
        headers: { 'user-agent': agent },
      });
      expect(login.status).toBe(200);
      return login.json.token as string;
    };
    const phone = await signIn('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1');
    const desk = await signIn('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36');
    const alive = async (token: string) => (await call('GET', '/api/bff/v1/usuario', { headers: { authtoken: token } })).status;

    const headers = await as('parceiro.admin@parceiro.demo');
    const page = await call('GET', `/api/bff/v1/usuarios/${id}/pagina`, { headers });
    expect(page.status).toBe(200);
    const sessions = page.json.dado.sessoes as { id: number; dispositivo: string }[];
    expect(sessions.map((s) => s.dispositivo)).toEqual(
      expect.arrayContaining([expect.stringMatching(/iPhone/), expect.stringMatching(/Windows/)]),
    );
    expect(page.json.dado.segundoFator).toMatchObject({ exigido: false, aplicativo: false, chavesDeAcesso: 0 });

    // The page's form ends the phone's session; the desktop's goes on.
    const phoneId = sessions.find((s) => /iPhone/.test(s.dispositivo))!.id;
    const session = await sessionOf('parceiro.admin@parceiro.demo');
    const url = `http://portal.test/v2/usuario/${id}`;
    const ended = await userPage(
      'v2',
      session,
      String(id),
      new URL(url),
      formPost(url, { acao: 'sessao-encerrar', id: String(phoneId) }),
      '10.0.0.7',
    );
    expect(ended).toEqual({ kind: 'redirect', to: `/v2/usuario/${id}?aviso=sessao-encerrar` });
    expect(await alive(phone)).toBe(401);
    expect(await alive(desk)).toBe(200);
    // Again, or without saying which: a message on the page, nothing else ends.
    const again = await userPage(
      'v2',
      session,
      String(id),
      new URL(url),
      formPost(url, { acao: 'sessao-encerrar', id: String(phoneId) }),
      '10.0.0.7',
    );
    expect(again).toMatchObject({ kind: 'page', status: 409, props: { errors: { form: ['Sessão não encontrada ou já encerrada.'] } } });
    const unnamed = await userPage('v2', session, String(id), new URL(url), formPost(url, { acao: 'sessao-encerrar' }), '10.0.0.7');
    expect(unnamed).toMatchObject({ kind: 'page', status: 400 });
    expect(await alive(desk)).toBe(200);

    // Another user's session through this user's address ends nothing.
    const adminSessions = (await call('GET', '/api/bff/v1/sessoes', { headers })).json.dado.sessoes as { id: number }[];
    const foreign = await call('DELETE', `/api/bff/v1/usuarios/${id}/sessoes/${adminSessions[0]!.id}`, { headers });
    expect(foreign.status).toBe(409);
    expect((await call('GET', '/api/bff/v1/usuario', { headers })).status).toBe(200);

    // The API ends every one left.
    const all = await call('POST', `/api/bff/v1/usuarios/${id}/sessoes/encerrar`, { headers });
    expect(all.status).toBe(200);
    expect(await alive(desk)).toBe(401);
    const adminId = await idOf('parceiro.admin@parceiro.demo');
    const logged = await db
      .selectFrom('access_events')
      .select(['actor_id', 'detalhe'])
      .where('user_id', '=', id)
      .where('event', '=', 'SESSAO_ENCERRADA_ADMIN')
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { actor_id: adminId, detalhe: `sessão ${phoneId}` },
      { actor_id: adminId, detalhe: 'todas as sessões' },
    ]);

    // Not one's own sessions (the profile ends those), and not for a seller.
    expect((await call('POST', `/api/bff/v1/usuarios/${adminId}/sessoes/encerrar`, { headers })).status).toBe(409);
    const seller = await as('vendedor@legado.demo');
    expect(
      (await call('POST', `/api/plataforma/v1/usuarios/${await idOf('consultor@legado.demo')}/sessoes/encerrar`, { headers: seller }))
        .status,
    ).toBe(403);
  });
});
