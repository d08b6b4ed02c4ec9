import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { listAccessLog, recordDataAccess } from '../../src/server/services/identity/access-log';
import { payRefund } from '../../src/server/services/after-sale/refunds';
import { brasiliaDay } from '../../src/lib/format';
import { now } from '../../src/server/clock';
import type { PortalSession } from '../../src/lib/session';

/**
 * Issue 42 item 1: a user's history — the user page of both generations and
 * GET /api/{bff,plataforma}/v1/usuarios/{id}/historico — showed every event the user caused to anyone
 * who shares one company with them: substabelecido@parceiro.demo (Vale Verde) read what the partner's
 * administrator did in Horizonte (a policy it may not open, the insured's e-mail, Horizonte's staff),
 * and the administrator's sessions; gestor@legado.demo the legacy administrators' whole trail. A viewer
 * now sees an event when its record or its target is in the viewer's own scope (the insurer's ADMIN and
 * the legacy admin group, all), and a user's sign-ins, sessions and second factor only when they may
 * manage that user. Rows written while acting for one company about another's record carry the record's.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { userPage } = await import('../../src/features/users/user-page.server');
const { policyPage } = await import('../../src/features/policies/policies.server');

const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SUB = 'substabelecido@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
const LEGACY_ADMIN = 'admin@legado.demo';
const LEGACY_SUPPORT = 'suporte@legado.demo';
const GESTOR = 'gestor@legado.demo';
/** Where the administrators sign in from, and on what: none of it may reach a viewer who does not manage them. */
const ADMIN_IP = '198.51.100.77';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const tokens = new Map<string, Record<string, string>>();
/** A sign-in of `email` from `ip` on an iPhone, kept for the file. */
async function as(email: string, ip = '10.0.0.1'): Promise<Record<string, string>> {
  if (!tokens.has(email)) {
    const signed = await signInApi(apiClient(db, { ip }), email, undefined, { 'user-agent': IPHONE });
    expect(signed.status).toBe(200);
    tokens.set(email, { authtoken: tokenOf(signed.json) });
  }
  return tokens.get(email)!;
}
const idOf = async (email: string) => (await findUserByEmail(db, email))!.id;
const sessionOf = async (email: string): Promise<PortalSession> => {
  const viewer = await viewerByEmail(db, email);
  return viewer.generation === 'v1' ? { v1: viewer.user } : { v2: viewer.user };
};
const lastEventId = async () =>
  Number(
    (
      await db
        .selectFrom('access_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id ?? 0,
  );
const answer = (json: { dado?: unknown; resultado?: unknown }) => (json.dado ?? json.resultado) as Record<string, unknown>;

let horizontePolicy: string;
let horizonteInsuredEmail: string;
let legacyPolicy: string;
let legacyInsuredEmail: string;
let valeVerdeQuote: string;
let valeVerdePolicy: string;
let horizonte: number;
let valeVerde: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  call = apiClient(db);
  const companies = await db.selectFrom('companies').select(['id', 'razao_social']).execute();
  horizonte = companies.find((c) => /Horizonte/.test(c.razao_social))!.id;
  valeVerde = companies.find((c) => /Vale Verde/.test(c.razao_social))!.id;
  const policy = (generation: 'v1' | 'v2') =>
    db
      .selectFrom('policies as a')
      .innerJoin('quotes as q', 'q.id', 'a.quote_id')
      .select(['a.nr_apolice', 'q.segurado'])
      .where('a.generation', '=', generation)
      .where('a.status', '=', 'VIGENTE')
      .orderBy('a.id')
      .executeTakeFirstOrThrow();
  const v2 = await policy('v2');
  horizontePolicy = v2.nr_apolice;
  horizonteInsuredEmail = (v2.segurado as { email: string }).email;
  const v1 = await policy('v1');
  legacyPolicy = v1.nr_apolice;
  legacyInsuredEmail = (v1.segurado as { email: string }).email;
  // A sale of Vale Verde's own seller: the substabelecido sees its quote (its own), not Horizonte's policies.
  const sold = await sellResidential(db, { email: SUB });
  valeVerdeQuote = sold.nrCotacao;
  valeVerdePolicy = sold.nrApolice!;

  // What the partner's administrator does, through the API, signed in from ADMIN_IP on an iPhone.
  const partnerAdmin = await as(PARTNER_ADMIN, ADMIN_IP);
  const sent = await call('POST', `/api/bff/v1/apolices/${horizontePolicy}/envios`, { headers: partnerAdmin, body: { tipo: 'apolice' } });
  expect(sent.status).toBe(200);
  const igor = await idOf('igor.pereira@parceiro.demo');
  const felipe = await idOf(SUB);
  for (const [id, status] of [
    [igor, 'bloqueado'],
    [igor, 'ativo'],
    [felipe, 'bloqueado'],
    [felipe, 'ativo'],
  ] as const)
    expect((await call('PUT', `/api/plataforma/v1/usuarios/${id}/status`, { headers: partnerAdmin, body: { status } })).status).toBe(200);
  expect((await call('GET', `/api/bff/v1/cotacoes/${valeVerdeQuote}`, { headers: partnerAdmin })).status).toBe(200);

  // The legacy administrator, likewise: a policy sent to its insured, a legacy user blocked and back.
  const legacyAdmin = await as(LEGACY_ADMIN, ADMIN_IP);
  const legacySent = await call('POST', `/api/plataforma/v1/apolices/${legacyPolicy}/envios`, {
    headers: legacyAdmin,
    body: { tipo: 'apolice' },
  });
  expect(legacySent.status).toBe(200);
  const consultor = await idOf('consultor@legado.demo');
  for (const status of ['bloqueado', 'ativo'])
    expect((await call('PUT', `/api/plataforma/v1/usuarios/${consultor}/status`, { headers: legacyAdmin, body: { status } })).status).toBe(
      200,
    );
}, 120_000);
afterAll(() => close());

/** Every row of a user's history through the API, page after page. */
async function history(viewer: string, id: number, tipo: 'registro' | 'entradas') {
  const base = viewer.endsWith('@legado.demo') ? '/api/plataforma' : '/api/bff';
  const headers = await as(viewer);
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  for (let page = 1; page < 50; page++) {
    const query: string = `tipo=${tipo}${page > 1 ? `&pagina=${page}&cursor=${encodeURIComponent(cursor!)}` : ''}`;
    const read = await call('GET', `${base}/v1/usuarios/${id}/historico?${query}`, { headers });
    if (read.status !== 200) return { status: read.status, rows };
    const dado = answer(read.json);
    rows.push(...(dado.content as Record<string, unknown>[]));
    if (!dado.more) break;
    cursor = dado.nextCursor as string;
  }
  return { status: 200, rows };
}

/** What a viewer may not learn of the administrators' work elsewhere. */
const leaks = (policy: string, insured: string) => [policy, insured, ADMIN_IP];

describe('a sub-delegated manager reading the partner administrator’s history (API)', () => {
  it('the policy it may not open, the insured’s e-mail and Horizonte’s staff are not in it; what it may see is', async () => {
    // The substabelecido cannot open the policy the administrator sent (the log must not tell it either).
    const felipe = await as(SUB);
    expect([403, 404]).toContain((await call('GET', `/api/bff/v1/apolices/${horizontePolicy}`, { headers: felipe })).status);

    const { status, rows } = await history(SUB, await idOf(PARTNER_ADMIN), 'registro');
    expect(status).toBe(200);
    const text = JSON.stringify(rows);
    for (const secret of leaks(horizontePolicy, horizonteInsuredEmail)) expect(text).not.toContain(secret);
    expect(text).not.toContain('Igor Pereira');
    // Neither the administrator's sign-ins nor their second factor.
    expect(rows.map((r) => r.evento)).not.toContain('LOGIN');
    expect(rows.map((r) => r.evento).filter((e) => String(e).startsWith('SEGUNDO_FATOR'))).toEqual([]);
    // What concerns Vale Verde's own: the block of its user, the look at its own quote.
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ evento: 'USUARIO_BLOQUEADO', usuario: expect.stringContaining(SUB) }),
        expect.objectContaining({ evento: 'DADOS_SEGURADO_VISUALIZADOS', registro: `Cotação ${valeVerdeQuote}` }),
      ]),
    );
  });

  it('the administrator’s sessions, sign-ins and second factor are not its to see', async () => {
    const id = await idOf(PARTNER_ADMIN);
    const headers = await as(SUB);
    const page = await call('GET', `/api/bff/v1/usuarios/${id}/pagina`, { headers });
    expect(page.status).toBe(200);
    expect(page.json.dado.sessoes).toBeNull();
    expect(page.json.dado.segundoFator).toBeNull();
    expect(JSON.stringify(page.json)).not.toMatch(/iPhone|198\.51\.100\.77/);
    expect((await history(SUB, id, 'entradas')).status).toBe(403);
  });

  it('the insurer’s ADMIN sees the whole trail, sessions and sign-ins included', async () => {
    const id = await idOf(PARTNER_ADMIN);
    const { rows } = await history(ADMIN, id, 'registro');
    const text = JSON.stringify(rows);
    for (const secret of leaks(horizontePolicy, horizonteInsuredEmail)) expect(text).toContain(secret);
    expect(text).toContain('Igor Pereira');
    const page = await call('GET', `/api/bff/v1/usuarios/${id}/pagina`, { headers: await as(ADMIN) });
    expect(JSON.stringify(page.json.dado.sessoes)).toMatch(/iPhone/);
    expect(page.json.dado.segundoFator).not.toBeNull();
    const entradas = await history(ADMIN, id, 'entradas');
    expect(entradas.rows.map((r) => r.evento)).toContain('LOGIN');
  });
});

describe('a legacy manager reading the legacy administrator’s history (API)', () => {
  it('only what concerns its own company’s users and its own sales; no sessions', async () => {
    const id = await idOf(LEGACY_ADMIN);
    const { status, rows } = await history(GESTOR, id, 'registro');
    expect(status).toBe(200);
    const text = JSON.stringify(rows);
    for (const secret of leaks(legacyPolicy, legacyInsuredEmail)) expect(text).not.toContain(secret);
    expect(rows.map((r) => r.evento)).not.toContain('LOGIN');
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ evento: 'USUARIO_BLOQUEADO', usuario: expect.stringContaining('consultor@legado.demo') }),
      ]),
    );
    const page = await call('GET', `/api/plataforma/v1/usuarios/${id}/pagina`, { headers: await as(GESTOR) });
    expect(page.status).toBe(200);
    expect(page.json.resultado.sessoes).toBeNull();
    expect(page.json.resultado.segundoFator).toBeNull();
    expect((await history(GESTOR, id, 'entradas')).status).toBe(403);
  });

  it('the legacy admin group sees it all', async () => {
    const { rows } = await history(LEGACY_SUPPORT, await idOf(LEGACY_ADMIN), 'registro');
    const text = JSON.stringify(rows);
    for (const secret of leaks(legacyPolicy, legacyInsuredEmail)) expect(text).toContain(secret);
  });
});

describe('the user pages of both generations', () => {
  const pageOf = async (generation: 'v1' | 'v2', viewer: string, target: string) => {
    const id = await idOf(target);
    const url = `http://portal.test/${generation === 'v1' ? 'consulta-usuarios' : 'v2/usuario'}/${id}`;
    const routed = await userPage(generation, await sessionOf(viewer), String(id), new URL(url), new Request(url), '10.0.0.1');
    if (routed.kind !== 'page') throw new Error(`expected the page, got ${routed.kind}`);
    return routed.props;
  };

  it('/v2/usuario/{id}: the substabelecido reads neither Horizonte’s records nor the administrator’s sessions', async () => {
    const props = await pageOf('v2', SUB, PARTNER_ADMIN);
    const text = JSON.stringify(props);
    for (const secret of leaks(horizontePolicy, horizonteInsuredEmail)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/Igor Pereira|iPhone/);
    expect(props.histories.entradas).toBeUndefined();
    expect(props.histories.registro.content.some((r) => r.evento === 'USUARIO_BLOQUEADO')).toBe(true);
    // The ADMIN's page of the same user: everything.
    const admin = JSON.stringify(await pageOf('v2', ADMIN, PARTNER_ADMIN));
    expect(admin).toContain(horizontePolicy);
    expect(admin).toMatch(/iPhone/);
  });

  it('/consulta-usuarios/{id}: the legacy manager reads neither the legacy administrator’s records nor their sessions', async () => {
    const props = await pageOf('v1', GESTOR, LEGACY_ADMIN);
    const text = JSON.stringify(props);
    for (const secret of leaks(legacyPolicy, legacyInsuredEmail)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/iPhone/);
    expect(props.histories.entradas).toBeUndefined();
    const support = JSON.stringify(await pageOf('v1', LEGACY_SUPPORT, LEGACY_ADMIN));
    expect(support).toContain(legacyPolicy);
    expect(support).toMatch(/iPhone/);
  });
});

describe('the company a row of a record carries', () => {
  it('acting for Vale Verde, the administrator’s look at a Horizonte policy is Horizonte’s — the log filed by company says so', async () => {
    const session = await sessionOf(PARTNER_ADMIN);
    const cnpjOf = async (id: number) =>
      (await db.selectFrom('companies').select('cnpj').where('id', '=', id).executeTakeFirstOrThrow()).cnpj;
    session.v2 = { ...session.v2!, cdCnpjEmpresa: await cnpjOf(valeVerde) };
    const before = await lastEventId();
    expect(await policyPage('v2', session, horizontePolicy, '10.0.0.5')).toBeDefined();
    const rows = await db.selectFrom('access_events').selectAll().where('id', '>', before).execute();
    expect(rows).toMatchObject([{ registro: horizontePolicy, company_id: horizonte }]);
    const today = brasiliaDay(now());
    const filed = async (empresa: string) =>
      (await listAccessLog(db, { empresa, registro: horizontePolicy, de: today, ate: today }, { page: 1 }, 50)).content.map((r) => r.id);
    expect(await filed('Vale Verde')).not.toContain(rows[0]!.id);
    expect(await filed('Horizonte')).toContain(rows[0]!.id);
  });

  it('a lookup that names policies of two companies writes a row per company, each naming its own', async () => {
    const before = await lastEventId();
    await recordDataAccess(db, await viewerByEmail(db, ADMIN), '10.0.0.6', 'parcelas.boleto', [horizontePolicy, valeVerdePolicy], 'busca');
    const rows = await db.selectFrom('access_events').select(['registro', 'company_id']).where('id', '>', before).orderBy('id').execute();
    expect(rows).toEqual([
      { registro: horizontePolicy, company_id: horizonte },
      { registro: valeVerdePolicy, company_id: valeVerde },
    ]);
  });

  it('a refund paid by the insurer’s staff (no company of their own) is the policy’s company’s', async () => {
    const refund = await db
      .selectFrom('refunds as r')
      .innerJoin('policies as a', 'a.id', 'r.policy_id')
      .select(['r.id', 'a.nr_apolice', 'a.company_id'])
      .where('r.status', '=', 'DEVIDA')
      .where('a.generation', '=', 'v2')
      .executeTakeFirstOrThrow();
    const admin = (await findUserByEmail(db, ADMIN))!;
    await payRefund(
      db,
      { kind: 'all' },
      { userId: admin.id, email: admin.email, generation: 'v2', ip: '10.0.0.8' },
      refund.id,
      {},
      { demoBank: true },
      now(),
    );
    const row = await db
      .selectFrom('access_events')
      .select(['registro', 'company_id'])
      .where('event', '=', 'RESTITUICAO_ALTERADA')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ registro: refund.nr_apolice, company_id: refund.company_id });
    expect(refund.company_id).toBe(horizonte);
  });
});
