import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { CHANNEL_MESSAGES as M } from '../../src/lib/hierarchy';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';

/**
 * The hierarchy and channel pages (issue 17) as a browser — or anyone — drives them: who opens what,
 * a refused form coming back with its messages, and under random input no answer throws (the page's
 * 500) and a refused form stores nothing. The pages' functions run against a test database of their
 * own (server/database is swapped for it).
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { channelFormPage, hierarchyPage } = await import('../../src/features/hierarchy/hierarchy.server');

let db: DB;
let close: () => Promise<void>;
const TABLES = ['channels', 'companies', 'permission_groups', 'access_events'];
let admin: PortalSession;
let manager: PortalSession;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  const id = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  admin = { v1: { idUsuario: await id('suporte@legado.demo') } } as PortalSession;
  manager = { v1: { idUsuario: await id('gestor@legado.demo') } } as PortalSession;
});
afterAll(() => close());

const fingerprint = () => tablesFingerprint(db, TABLES);

const post = formPost;
const get = (url: string) => new Request(url);
const channelId = async (codigo: string) =>
  (await db.selectFrom('channels').select('id').where('codigo', '=', codigo).executeTakeFirstOrThrow()).id;

describe('the channel form', () => {
  it('is the admin group’s: a HIERARQUIA holder gets 403, an unknown channel the 404 page', async () => {
    expect((await channelFormPage(manager, undefined, get('http://portal.test/cadastrar-canal'), '10.0.0.1')).kind).toBe('forbidden');
    expect((await channelFormPage(manager, '1', get('http://portal.test/editar-canal/1'), '10.0.0.1')).kind).toBe('forbidden');
    for (const id of ['999999', 'x', '0', '-1', '1e3'])
      expect((await channelFormPage(admin, id, get(`http://portal.test/editar-canal/${id}`), '10.0.0.1')).kind, id).toBe('not-found');
    const page = await channelFormPage(admin, String(await channelId('portal')), get('http://portal.test/editar-canal/1'), '10.0.0.1');
    expect(page.kind === 'page' && page.props.parents.map((p) => p.codigo)).toEqual([]);
  });

  it('creates a channel and redirects to the hierarchy, which says so', async () => {
    const routed = await channelFormPage(
      admin,
      undefined,
      post('http://portal.test/cadastrar-canal', {
        codigo: 'rede-norte',
        nome: 'Rede Norte',
        tipo: 'VAREJO',
        canalPai: 'portal',
        status: 'ATIVO',
      }),
      '10.0.0.1',
    );
    expect(routed).toEqual({ kind: 'redirect', to: '/consulta-hierarquia?salvo=rede-norte' });
    const { props } = await hierarchyPage(admin, new URL('http://portal.test/consulta-hierarquia?salvo=rede-norte'));
    expect(props.notice?.text).toBe('Canal Rede Norte salvo.');
    // The parent list of the portal's channel now leaves out the new one (below it).
    const edit = await channelFormPage(admin, String(await channelId('portal')), get('http://portal.test/editar-canal/1'), '10.0.0.1');
    expect(edit.kind === 'page' && edit.props.parents.map((p) => p.codigo)).toEqual([]);
    const norte = await channelFormPage(admin, String(await channelId('rede-norte')), get('http://portal.test/editar-canal'), '10.0.0.1');
    expect(norte.kind === 'page' && norte.props.parents.map((p) => p.codigo)).toEqual(['portal', 'varejo']);
  });

  it('a loop posted by hand comes back as the form with its message (409), and stores nothing', async () => {
    const before = await fingerprint();
    const routed = await channelFormPage(
      admin,
      String(await channelId('portal')),
      post('http://portal.test/editar-canal/1', { nome: 'Portal de Parceiros', tipo: 'DIGITAL', canalPai: 'rede-norte', status: 'ATIVO' }),
      '10.0.0.1',
    );
    expect(routed.kind === 'page' && [routed.status, routed.props.errors]).toEqual([409, { canalPai: [M.cycle] }]);
    const bad = await channelFormPage(admin, undefined, post('http://portal.test/cadastrar-canal', { codigo: 'Rede Sul' }), '10.0.0.1');
    expect(bad.kind === 'page' && bad.status).toBe(400);
    expect(bad.kind === 'page' && bad.props.values.codigo).toBe('Rede Sul');
    expect(await fingerprint()).toBe(before);
  });
});

describe('the hierarchy page', () => {
  it('shows the admin group everything and a manager their branch; a long search is a 400 with the whole tree', async () => {
    const all = await hierarchyPage(admin, new URL('http://portal.test/consulta-hierarquia'));
    expect([all.status, all.props.scope, all.props.canEdit]).toEqual([200, 'all', true]);
    const branch = await hierarchyPage(manager, new URL('http://portal.test/consulta-hierarquia?busca=Savassi'));
    expect([branch.status, branch.props.scope, branch.props.canEdit, branch.props.matches]).toEqual([200, 'companies', false, 1]);
    expect(branch.props.channels.map((c) => c.codigo)).toEqual(['portal']);
    const long = await hierarchyPage(admin, new URL(`http://portal.test/consulta-hierarquia?busca=${'x'.repeat(200)}`));
    expect([long.status, long.props.errors?.busca, long.props.matches]).toEqual([400, ['Busque com até 120 caracteres.'], undefined]);
  });
});

describe('the pages under random input', () => {
  const value = fc.oneof(
    hostileText(),
    fc.constantFrom('', 'portal', 'varejo', 'rede-norte', 'nova-rede', 'Nova Rede', 'VAREJO', 'DIGITAL', 'ATIVO', 'INATIVO', 'ativo', 'x'),
  );
  const fields = fc.dictionary(
    fc.constantFrom('codigo', 'nome', 'tipo', 'canalPai', 'status', 'busca', 'id'),
    fc.oneof(value, fc.array(value, { maxLength: 3 })),
  );

  it('channel form (new and edit) and the hierarchy never throw, and a refused form stores nothing', async () => {
    const ids = [String(await channelId('portal')), String(await channelId('varejo')), String(await channelId('rede-norte'))];
    await fc.assert(
      fc.asyncProperty(
        fields,
        fc.oneof(fc.constant(undefined), fc.constantFrom(...ids, '999999'), hostileText()),
        fc.oneof(hostileText(), fc.constantFrom('horizonte', '11.222.333/0001-81', 'vendedor@legado.demo')),
        async (body, id, busca) => {
          const before = await fingerprint();
          const routed = await channelFormPage(admin, id, post('http://portal.test/cadastrar-canal', body), '10.0.0.1');
          if (routed.kind === 'page') {
            expect(routed.status).toBeGreaterThanOrEqual(400);
            expect(await fingerprint()).toBe(before);
          }
          const url = new URL('http://portal.test/consulta-hierarquia');
          url.searchParams.set('busca', busca);
          const page = await hierarchyPage(admin, url);
          expect([200, 400]).toContain(page.status);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});
