import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';
import { viewerByEmail } from '../fixtures/selling';
import { useManualClock as manualClock } from '../../src/server/clock';
import { actorOf } from '../../src/server/services/network/user-admin';
import { countIdle, deactivateIdle, deactivateIfIdle, idleIds, idleUsers } from '../../src/server/services/network/access-reviews';
import { bulkJobOf, bulkJobProblems, previewBulk, processBulkJobs, startBulk } from '../../src/server/services/network/user-bulk';
import { ACCESS_REVIEW_MESSAGES } from '../../src/lib/access-reviews';
import { BULK_LIMITS, type BulkSelectionInput } from '../../src/lib/user-bulk';
import { apiClient, demoTokens } from '../fixtures/api';
import { encodeCursor } from '../../src/lib/keyset-pages';
import type { Actor } from '../../src/lib/user-admin';

/**
 * Access reviews (issue 32, decision 071): who has not signed in for 90 days (never: since created),
 * within the administrator's scope and generation, the longest idle first, a keyset page at a time;
 * deactivated when still idle, logged with why. The pages (and the import's undo form) under random
 * posts never throw and change nothing when they refuse.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { accessReviewPage } = await import('../../src/features/access-reviews/access-reviews.server');
const { importPage } = await import('../../src/features/user-import/import.server');
const { bulkPreviewPage } = await import('../../src/features/users/users-bulk.server');

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let as: ReturnType<typeof demoTokens>;
beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  call = apiClient(db);
  as = demoTokens(call);
});
afterAll(() => close());

const DAY = 86_400_000;
const actor = async (email: string): Promise<Actor> =>
  actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow());
const sessionOf = async (email: string): Promise<PortalSession> => {
  const viewer = await viewerByEmail(db, email);
  return viewer.generation === 'v1' ? { v1: viewer.user } : { v2: viewer.user };
};
const idOf = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** Every user of the database signed in today, but these, idle as given (days since their last sign-in, or null: never, created that many days ago). */
async function idleAre(at: Date, idle: Record<string, { lastDays: number | null; createdDays: number }>) {
  const ago = (days: number) => new Date(at.getTime() - days * DAY).toISOString();
  // created_at is never written by the services (the schema's type says so): raw SQL here.
  await sql`update users set last_access_at = ${at.toISOString()}::timestamptz, created_at = ${ago(400)}::timestamptz`.execute(db);
  for (const [email, { lastDays, createdDays }] of Object.entries(idle))
    await sql`update users set last_access_at = ${lastDays === null ? null : ago(lastDays)}::timestamptz,
      created_at = ${ago(createdDays)}::timestamptz where email = ${email}`.execute(db);
}

describe('the access review', () => {
  it('lists the idle of the administrator’s generation and scope, the longest idle first; 89 days is not idle', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, {
      'vendedor@legado.demo': { lastDays: 120, createdDays: 300 },
      'consultor@legado.demo': { lastDays: null, createdDays: 95 },
      'parceiro@parceiro.demo': { lastDays: 200, createdDays: 300 },
      'gestor@legado.demo': { lastDays: 89, createdDays: 300 },
    });
    const legacy = await idleUsers(db, await actor('admin@legado.demo'), { page: 1 });
    expect(legacy.content.map((u) => u.email)).toEqual(['vendedor@legado.demo', 'consultor@legado.demo']);
    expect(legacy.content[1]).toMatchObject({ lastAccessAt: null, status: expect.any(String), manageable: true });
    // v2's partner administrator sees their companies' idle users only.
    const v2 = await idleUsers(db, await actor('parceiro.admin@parceiro.demo'), { page: 1 });
    expect(v2.content.map((u) => u.email)).toEqual(['parceiro@parceiro.demo']);
    // Inactive users are not reviewed again.
    await db.updateTable('users').set({ status: 'INATIVO' }).where('email', '=', 'parceiro@parceiro.demo').execute();
    expect((await idleUsers(db, await actor('parceiro.admin@parceiro.demo'), { page: 1 })).content).toEqual([]);
    await db.updateTable('users').set({ status: 'ATIVO' }).where('email', '=', 'parceiro@parceiro.demo').execute();
    // Past 90 days, Marcos (89 days) joins; a day later still.
    clock.advance(2 * DAY);
    expect((await idleUsers(db, await actor('admin@legado.demo'), { page: 1 })).content.map((u) => u.email)).toContain(
      'gestor@legado.demo',
    );
  });

  it('pages by keyset: 25 idle users are a page of 20 and one of 5, in order', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, {});
    const admin = await actor('admin@legado.demo');
    const company = await db.selectFrom('companies').select('id').where('cnpj', '=', '11222333000181').executeTakeFirstOrThrow();
    await db
      .insertInto('users')
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          email: `ocioso${i}@legado.demo`,
          nome: `Ocioso ${i}`,
          cpf: null,
          generation: 'v1' as const,
          profile: null,
          status: 'ATIVO' as const,
          password_hash: 'x',
          company_id: company.id,
          last_access_at: new Date(at.getTime() - (200 - i) * DAY),
          created_at: new Date(at.getTime() - 400 * DAY),
        })),
      )
      .execute();
    const first = await idleUsers(db, admin, { page: 1 });
    expect(first.content.map((u) => u.email)).toEqual(Array.from({ length: 20 }, (_, i) => `ocioso${i}@legado.demo`));
    expect(first).toMatchObject({ more: true, total: 25 });
    const second = await idleUsers(db, admin, { page: 2, cursor: { from: first.last!, direction: 'after', skip: 0 } });
    expect(second.content.map((u) => u.email)).toEqual(Array.from({ length: 5 }, (_, i) => `ocioso${20 + i}@legado.demo`));
    expect(second.more).toBe(false);
    // The cursor as an address carries it.
    expect(encodeCursor({ from: first.last!, direction: 'after', skip: 0 })).toMatch(/^[A-Za-z0-9_-]+$/);
    await db.deleteFrom('users').where('email', 'like', 'ocioso%').execute();
  });

  it('deactivates who is still idle, logs why, and leaves who signed in meanwhile or is not the viewer’s', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, {
      'vendedor@legado.demo': { lastDays: 120, createdDays: 300 },
      'consultor@legado.demo': { lastDays: 100, createdDays: 300 },
      'parceiro@parceiro.demo': { lastDays: 200, createdDays: 300 },
    });
    const vendedor = await idOf('vendedor@legado.demo');
    const consultor = await idOf('consultor@legado.demo');
    const partner = await idOf('parceiro@parceiro.demo');
    // Helena signs in after the list was shown.
    await db.updateTable('users').set({ last_access_at: at }).where('id', '=', consultor).execute();
    const admin = await actor('admin@legado.demo');
    const done = await deactivateIdle(db, admin, [vendedor, consultor, partner], '10.0.0.3');
    expect(done.deactivated).toBe(1);
    expect(done.refused).toEqual([
      { id: consultor, message: ACCESS_REVIEW_MESSAGES.notIdle },
      { id: partner, message: ACCESS_REVIEW_MESSAGES.notIdle },
    ]);
    const statuses = await db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('id', 'in', [vendedor, consultor, partner])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [vendedor]: 'INATIVO',
      [consultor]: 'ATIVO',
      [partner]: 'ATIVO',
    });
    const logged = await db
      .selectFrom('access_events')
      .select(['event', 'actor_id', 'detalhe'])
      .where('user_id', '=', vendedor)
      .where('event', '=', 'USUARIO_DESATIVADO')
      .execute();
    expect(logged).toEqual([
      {
        event: 'USUARIO_DESATIVADO',
        actor_id: admin.userId,
        detalhe: 'situação: ATIVO → INATIVO; revisão de acessos: sem entrar há 120 dias',
      },
    ]);
    await db.updateTable('users').set({ status: 'ATIVO' }).where('id', '=', vendedor).execute();
  });

  it('the page: the 404 for who may not change users; a post names its refusals in pt-BR', async () => {
    const seller = await sessionOf('vendedor@legado.demo');
    const url = new URL('http://portal.test/revisao-acessos');
    expect((await accessReviewPage('v1', seller, url, new Request(url), '10.0.0.1')).kind).toBe('not-found');
    const admin = await sessionOf('suporte@legado.demo');
    const empty = await accessReviewPage('v1', admin, url, formPost(url.href, { acao: 'desativar' }), '10.0.0.1');
    expect(empty).toMatchObject({ kind: 'page', status: 400, props: { error: 'Selecione ao menos um usuário para desativar.' } });
  });
});

/** The review's "todos" as the page posts it to the bulk preview (decision 076). */
const ALL_IDLE: BulkSelectionInput = {
  acao: 'desativar-ociosos',
  grupo: '',
  alcance: 'todos',
  ids: [],
  email: '',
  nome: '',
  empresa: '',
  status: '',
};
const statusOf = async (email: string) =>
  (await db.selectFrom('users').select('status').where('email', '=', email).executeTakeFirstOrThrow()).status;
const reactivate = (emails: string[]) => db.updateTable('users').set({ status: 'ATIVO' }).where('email', 'in', emails).execute();

describe('"todos da revisão" (decision 076)', () => {
  it('previews every idle user of the scope, and the job deactivates each only if still idle then, logged — both generations', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, {
      'vendedor@legado.demo': { lastDays: 120, createdDays: 300 },
      'consultor@legado.demo': { lastDays: null, createdDays: 95 },
      'gestor@legado.demo': { lastDays: 200, createdDays: 300 },
      'parceiro@parceiro.demo': { lastDays: 150, createdDays: 300 },
      'igor.pereira@parceiro.demo': { lastDays: 91, createdDays: 300 },
    });
    const legacy = await actor('suporte@legado.demo');
    const { last } = await db
      .selectFrom('access_events')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirstOrThrow();
    const preview = await previewBulk(db, legacy, ALL_IDLE);
    expect(preview).toMatchObject({
      selection: 'todos da revisão de acessos (sem entrar há 90 dias ou mais)',
      counts: { total: 3, change: 3, skipped: [] },
    });
    expect(preview.sample.map((u) => u.email).sort()).toEqual(['consultor@legado.demo', 'gestor@legado.demo', 'vendedor@legado.demo']);
    const job = await startBulk(db, legacy, ALL_IDLE, '10.0.0.7');
    // Helena signs in after the confirmation, before the job reaches her.
    await db.updateTable('users').set({ last_access_at: at }).where('email', '=', 'consultor@legado.demo').execute();
    await processBulkJobs(db);
    expect(await bulkJobOf(db, legacy, job)).toMatchObject({
      status: 'CONCLUIDO',
      total: 3,
      results: { alterado: 2, ignorado: 1, recusado: 0 },
      skipped: [{ reason: 'nao-ocioso', count: 1 }],
    });
    expect(await bulkJobProblems(db, job)).toEqual([
      { nome: 'Helena Martins', email: 'consultor@legado.demo', result: 'ignorado', reason: 'nao-ocioso' },
    ]);
    expect([await statusOf('vendedor@legado.demo'), await statusOf('gestor@legado.demo'), await statusOf('consultor@legado.demo')]).toEqual(
      ['INATIVO', 'INATIVO', 'ATIVO'],
    );
    const logged = await db
      .selectFrom('access_events')
      .select(['event', 'actor_id', 'detalhe', 'ip'])
      .where('event', 'in', ['USUARIO_DESATIVADO', 'USUARIOS_ACAO_EM_LOTE'])
      .where('id', '>', Number(last))
      .orderBy('id')
      .execute();
    // The job's own row, then each deactivation in the job's order (by user), with the days idle.
    expect(logged).toEqual([
      {
        event: 'USUARIOS_ACAO_EM_LOTE',
        actor_id: legacy.userId,
        detalhe: `${preview.actionLabel}: 3 a alterar de 3; todos da revisão de acessos (sem entrar há 90 dias ou mais)`,
        ip: '10.0.0.7',
      },
      ...[120, 200].map((days) => ({
        event: 'USUARIO_DESATIVADO',
        actor_id: legacy.userId,
        detalhe: `situação: ATIVO → INATIVO; revisão de acessos: sem entrar há ${days} dias`,
        ip: '10.0.0.7',
      })),
    ]);
    await reactivate(['vendedor@legado.demo', 'gestor@legado.demo']);

    // v2: the partner administrator's companies only.
    const partner = await actor('parceiro.admin@parceiro.demo');
    expect((await previewBulk(db, partner, ALL_IDLE)).counts).toMatchObject({ total: 2, change: 2 });
    const v2job = await startBulk(db, partner, ALL_IDLE, null);
    await processBulkJobs(db);
    expect(await bulkJobOf(db, partner, v2job)).toMatchObject({ status: 'CONCLUIDO', results: { alterado: 2 } });
    expect([await statusOf('parceiro@parceiro.demo'), await statusOf('igor.pereira@parceiro.demo')]).toEqual(['INATIVO', 'INATIVO']);
    await reactivate(['parceiro@parceiro.demo', 'igor.pereira@parceiro.demo']);
  });

  it('checks "still idle" inside the deactivation itself: a sign-in a moment before keeps the user, unlogged', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, { 'vendedor@legado.demo': { lastDays: 120, createdDays: 300 } });
    const admin = await actor('suporte@legado.demo');
    const vendedor = await idOf('vendedor@legado.demo');
    const { last } = await db
      .selectFrom('access_events')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirstOrThrow();
    // Judged idle (as a job's batch judges), then a sign-in, then the deactivation.
    expect(await idleIds(db, admin, 10)).toEqual([vendedor]);
    await db.updateTable('users').set({ last_access_at: at }).where('id', '=', vendedor).execute();
    await expect(deactivateIfIdle(db, admin, vendedor, null)).rejects.toThrow(ACCESS_REVIEW_MESSAGES.notIdle);
    expect(await statusOf('vendedor@legado.demo')).toBe('ATIVO');
    expect(
      await db.selectFrom('access_events').select('id').where('id', '>', Number(last)).where('user_id', '=', vendedor).execute(),
    ).toEqual([]);
    // An inactive user is not "still idle" either: a reactivation is not undone by a stale review.
    await db.updateTable('users').set({ status: 'INATIVO', last_access_at: null }).where('id', '=', vendedor).execute();
    await expect(deactivateIfIdle(db, admin, vendedor, null)).rejects.toThrow(ACCESS_REVIEW_MESSAGES.notIdle);
    await db.updateTable('users').set({ status: 'ATIVO', last_access_at: at }).where('id', '=', vendedor).execute();
  });

  it(`past ${BULK_LIMITS.filtered.toLocaleString('pt-BR')}, takes the longest idle and says so`, async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    await idleAre(at, {});
    const company = await db.selectFrom('companies').select('id').where('cnpj', '=', '11222333000181').executeTakeFirstOrThrow();
    const n = BULK_LIMITS.filtered + 1;
    await sql`insert into users (email, nome, generation, status, password_hash, company_id, last_access_at, created_at)
      select 'parado' || i || '@legado.demo', 'Parado ' || i, 'v1', 'ATIVO', 'x', ${company.id},
        ${at.toISOString()}::timestamptz - (100 + ${n} - i) * interval '1 day', ${at.toISOString()}::timestamptz - interval '9000 days'
      from generate_series(1, ${n}) as i`.execute(db);
    onTestFinished(async () => {
      await db.deleteFrom('users').where('email', 'like', 'parado%@legado.demo').execute();
    });
    const admin = await actor('suporte@legado.demo');
    expect(await countIdle(db, admin, n)).toBe(n);
    const taken = await idleIds(db, admin, BULK_LIMITS.filtered);
    expect(taken).toHaveLength(BULK_LIMITS.filtered);
    // The one left for the next round is the one idle the shortest.
    const last = await idOf(`parado${n}@legado.demo`);
    expect(taken).not.toContain(last);
    const url = new URL('http://portal.test/revisao-acessos');
    const page = await accessReviewPage('v1', await sessionOf('suporte@legado.demo'), url, new Request(url), '10.0.0.1');
    expect(page).toMatchObject({ kind: 'page', props: { all: n } });
    expect((await previewBulk(db, admin, ALL_IDLE)).counts.total).toBe(BULK_LIMITS.filtered);
  }, 120_000);

  it('the API: the review’s pages and "todos" through the bulk endpoints, on each generation’s base', async () => {
    const at = new Date();
    const clock = manualClock(at.getTime());
    onTestFinished(() => clock.restore());
    const headers = await as('suporte@legado.demo');
    const partnerHeaders = await as('parceiro.admin@parceiro.demo');
    await idleAre(at, {
      'vendedor@legado.demo': { lastDays: 120, createdDays: 300 },
      'parceiro@parceiro.demo': { lastDays: 150, createdDays: 300 },
    });
    const review = await call('GET', '/api/plataforma/v1/usuarios/revisao-acessos', { headers });
    expect(review.status).toBe(200);
    expect(review.json.resultado).toMatchObject({
      content: [{ email: 'vendedor@legado.demo', diasSemEntrar: 120, podeDesativar: true, status: 'ATIVO' }],
      totalElements: 1,
      more: false,
      todos: { acao: 'desativar-ociosos', quantidade: 1, alemDoLimite: false },
    });
    const v2 = await call('GET', '/api/bff/v1/usuarios/revisao-acessos', { headers: partnerHeaders });
    expect(v2.json.dado.content.map((u: { email: string }) => u.email)).toEqual(['parceiro@parceiro.demo']);
    // Who may not change users: 403 whatever the query; a bad page: 400 naming it.
    const seller = await call('GET', '/api/plataforma/v1/usuarios/revisao-acessos?pagina=x', { headers: await as('vendedor@legado.demo') });
    expect(seller.status).toBe(403);
    const bad = await call('GET', '/api/plataforma/v1/usuarios/revisao-acessos?pagina=x', { headers });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toHaveProperty('pagina');
    // "todos" (vendedor signed in as the seller just now: idle no more; the review is empty).
    await idleAre(at, { 'vendedor@legado.demo': { lastDays: 120, createdDays: 300 } });
    const body = { acao: 'desativar-ociosos', alcance: 'todos' };
    const preview = await call('POST', '/api/plataforma/v1/usuarios/lote/previa', { headers, body });
    expect(preview.json.resultado).toMatchObject({ acao: 'desativar-ociosos', total: 1, alterar: 1, ignorados: [] });
    const started = await call('POST', '/api/plataforma/v1/usuarios/lote', { headers, body });
    expect(started.status).toBe(200);
    await processBulkJobs(db);
    const job = await call('GET', `/api/plataforma/v1/usuarios/lote/${started.json.resultado.idLote}`, { headers });
    expect(job.json.resultado).toMatchObject({ acao: 'desativar-ociosos', situacao: 'CONCLUIDO', resultados: { alterado: 1 } });
    expect(await statusOf('vendedor@legado.demo')).toBe('INATIVO');
    await reactivate(['vendedor@legado.demo']);
  });
});

describe('the pages under random posts', () => {
  const TABLES = ['users', 'user_companies', 'user_groups', 'sessions', 'user_imports', 'user_import_changes', 'user_bulk_jobs'];
  it('never throw, and a refused post changes nothing', async () => {
    await db.updateTable('users').set({ last_access_at: new Date() }).execute();
    const legacy = await sessionOf('suporte@legado.demo');
    const partner = await sessionOf('parceiro.admin@parceiro.demo');
    const value = fc.oneof(hostileText(), fc.constantFrom('', 'desativar', 'desfazer', '1', '0', '-1', '999999999999', 'x'));
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('acao', 'usuario', 'importacao', 'page', 'cursor'),
          fc.oneof(value, fc.array(value, { maxLength: 25 })),
        ),
        fc.constantFrom('v1', 'v2'),
        fc.option(fc.constantFrom('1', '999999', 'x'), { nil: undefined }),
        // No `confirmar`: a preview only, which writes nothing whatever it is sent.
        fc.dictionary(
          fc.constantFrom('acao', 'alcance', 'ids', 'grupo', 'nome'),
          fc.oneof(value, fc.constantFrom('desativar-ociosos', 'todos', '__proto__', 'constructor'), fc.array(value, { maxLength: 5 })),
        ),
        async (fields, generation, importId, bulkFields) => {
          const before = await tablesFingerprint(db, TABLES);
          const session = generation === 'v1' ? legacy : partner;
          const review = new URL(`http://portal.test${generation === 'v1' ? '/revisao-acessos' : '/v2/usuario/revisao-acessos'}`);
          const reviewed = await accessReviewPage(generation, session, review, formPost(review.href, fields), '10.0.0.1');
          const query = importId ? `?importacao=${importId}` : '';
          const undo = new URL(
            `http://portal.test${generation === 'v1' ? '/importar-usuarios' : '/v2/usuario/importacao/resultado'}${query}`,
          );
          const undone = await importPage(
            generation,
            session,
            generation === 'v1' ? undefined : 'resultado',
            undo,
            formPost(undo.href, fields),
            '10.0.0.1',
          );
          expect(['page', 'not-found', 'redirect']).toContain(undone.kind);
          // The bulk preview the review's "todos" posts to (decision 076): any action text, never a throw.
          const lote = `http://portal.test${generation === 'v1' ? '/consulta-usuarios/lote' : '/v2/usuario/cadastro/lote'}`;
          const previewed = await bulkPreviewPage(generation, session, formPost(lote, bulkFields), '10.0.0.1');
          expect(['page', 'forbidden']).toContain(previewed.kind);
          // Random users are never the idle ones the page lists (every demo user signed in): nothing changes.
          if (reviewed.kind === 'page') expect(reviewed.status === 200 || reviewed.status >= 400).toBe(true);
          expect(await tablesFingerprint(db, TABLES)).toBe(before);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
