import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';
import { viewerByEmail } from '../fixtures/selling';

/**
 * The user administration pages (issue 16) under random input: their plain forms take whatever a
 * browser — or anyone — posts. No answer may throw (the page's 500), and a form that is refused
 * stores nothing: not a user, a link, a group, a draft. The pages' functions run against a test
 * database of their own (server/database is swapped for it).
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { userListPage } = await import('../../src/features/users/users-list.server');
const { legacyFormPage } = await import('../../src/features/users/users-legacy.server');
const { userStepPage } = await import('../../src/features/users/users-v2.server');
const { legacyGroupPage, permissionGroupPage } = await import('../../src/features/access-groups/access-groups.server');
const { importPage } = await import('../../src/features/user-import/import.server');
const { userPage, invitationsPage } = await import('../../src/features/users/user-page.server');

let db: DB;
let close: () => Promise<void>;
const TABLES = [
  'users',
  'user_companies',
  'user_operations',
  'user_groups',
  'user_admin_drafts',
  'sessions',
  'permission_groups',
  'group_permissions',
  'v2_permission_groups',
  'v2_permission_group_operations',
  'user_imports',
  'user_import_rows',
];
let legacyAdmin: PortalSession;
let partnerAdmin: PortalSession;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  // Whole sessions, as the pipeline hands the pages: the users list asks the route guards what to link.
  const sessionOf = async (email: string): Promise<PortalSession> => {
    const viewer = await viewerByEmail(db, email);
    return viewer.generation === 'v1' ? { v1: viewer.user } : { v2: viewer.user };
  };
  legacyAdmin = await sessionOf('suporte@legado.demo');
  partnerAdmin = await sessionOf('parceiro.admin@parceiro.demo');
});
afterAll(() => close());

const fingerprint = () => tablesFingerprint(db, TABLES);

const post = formPost;
const value = fc.oneof(
  hostileText(),
  fc.constantFrom(
    '',
    'ativo',
    'bloqueado',
    'PARCEIRO',
    'ADMIN',
    '11222333000181',
    '33444555000181',
    '52998224725',
    'VENDEDOR',
    'ADMINISTRADOR',
    'HISTORICO_VENDAS',
    'METRICAS',
    'previa',
    'salvar',
    'excluir',
    'confirmar',
    'sessao-encerrar',
    'sessoes-encerrar',
    '1',
    '-1',
  ),
);
const fields = fc.dictionary(
  fc.constantFrom(
    'nome',
    'email',
    'cpf',
    'empresa',
    'grupos',
    'status',
    'celular',
    'perfil',
    'empresas',
    'pontoVenda',
    'grupoPermissao',
    'operacoes',
    'id',
    'ver',
    'alterar',
    'descricao',
    'acao',
  ),
  fc.oneof(value, fc.array(value, { maxLength: 3 })),
);

describe('the user pages under random input', () => {
  it('legacy form and list: never throw, and a refused form stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fields, fc.constantFrom(undefined, '2', '999999', 'x', '0'), async (body, id) => {
        const before = await fingerprint();
        const form = await legacyFormPage(legacyAdmin, id, post('http://portal.test/cadastrar-usuario', body), '10.0.0.1');
        const list = await userListPage(
          'v1',
          legacyAdmin,
          new URL('http://portal.test/consulta-usuarios'),
          post('http://portal.test/consulta-usuarios', body),
          '10.0.0.1',
        );
        if (form.kind === 'page') expect(form.status).toBeGreaterThanOrEqual(400);
        if (form.kind !== 'redirect' && list.kind !== 'redirect') expect(await fingerprint()).toBe(before);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it("a user's page and the invitations (issue 32): never throw; a refused action stores nothing", async () => {
    const id = fc.oneof(hostileText(), fc.constantFrom('1', '2', '5', '999999', '0', '-1', 'x'));
    const query = fc.dictionary(
      fc.constantFrom('aviso', 'entradas-pagina', 'entradas-cursor', 'registro-pagina', 'registro-cursor', 'pagina', 'cursor'),
      fc.oneof(hostileText(), fc.constantFrom('2', '999999', 'YS4xLjIwMjYtMDEtMDFUMDA6MDA6MDAuMDAwMDAwWi4x', 'reenviar-convite')),
    );
    await fc.assert(
      fc.asyncProperty(fields, id, query, fc.boolean(), async (body, userId, params, legacy) => {
        const before = await fingerprint();
        const [generation, session, base] = legacy
          ? (['v1', legacyAdmin, 'http://portal.test/consulta-usuarios'] as const)
          : (['v2', partnerAdmin, 'http://portal.test/v2/usuario'] as const);
        const search = new URLSearchParams(params).toString();
        const url = new URL(`${base}/1${search ? `?${search}` : ''}`);
        const shown = await userPage(generation, session, userId, url, new Request(url), '10.0.0.1');
        if (shown.kind === 'page') expect(shown.status).toBe(200);
        const posted = await userPage(generation, session, userId, url, post(url.href, body), '10.0.0.1');
        const listed = await invitationsPage(
          generation,
          session,
          new URL(`${base}/convites?${search}`),
          post(`${base}/convites`, body),
          '10.0.0.1',
        );
        if (posted.kind === 'page') expect(posted.status).toBeGreaterThanOrEqual(400);
        if (listed.kind === 'page') expect(listed.status).toBeGreaterThanOrEqual(400);
        if (posted.kind !== 'redirect' && listed.kind !== 'redirect') expect(await fingerprint()).toBe(before);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('v2 steps: never throw; a refused step stores nothing', async () => {
    const steps = fc.constantFrom('dados-pessoais', 'vincular-usuario', 'finalizacao') as fc.Arbitrary<
      'dados-pessoais' | 'vincular-usuario' | 'finalizacao'
    >;
    await fc.assert(
      fc.asyncProperty(
        fields,
        steps,
        fc.record({
          cpf: fc.option(fc.oneof(hostileText(), fc.constantFrom('71428793860', '52998224725')), { nil: undefined }),
          acao: fc.option(fc.constantFrom('novo', 'editar', 'x'), { nil: undefined }),
        }),
        async (body, step, params) => {
          const before = await fingerprint();
          const routed = await userStepPage(partnerAdmin, step, params, post('http://portal.test/v2/usuario/cadastro', body), '10.0.0.1');
          if (routed.kind === 'page') {
            expect(routed.status).toBeGreaterThanOrEqual(400);
            expect(await fingerprint()).toBe(before);
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('groups, legacy and v2: never throw; a refused or previewed form stores nothing', async () => {
    const action = fc.oneof(hostileText(), fc.constantFrom('visualizar', 'editar', 'novo'));
    await fc.assert(
      fc.asyncProperty(
        fields,
        fc.record({
          grupo: fc.oneof(hostileText(), fc.constantFrom('VENDEDOR', 'ADMINISTRADOR', 'novo')),
          canal: fc.oneof(hostileText(), fc.constantFrom('portal', 'varejo')),
          action,
        }),
        fc.record({
          id: fc.option(fc.oneof(hostileText(), fc.constantFrom('1', '999999')), { nil: undefined }),
          cnpj: fc.constantFrom('11222333000181', '33444555000181', 'x'),
          action,
        }),
        async (body, legacy, v2) => {
          const before = await fingerprint();
          const a = await legacyGroupPage(legacyAdmin, legacy, post('http://portal.test/grupo-acesso', body), '10.0.0.1');
          const b = await permissionGroupPage(
            partnerAdmin,
            v2.id === undefined ? {} : v2,
            post('http://portal.test/v2/usuario/permissoes/cadastro', body),
            '10.0.0.1',
          );
          if (a.kind !== 'redirect' && b.kind !== 'redirect') expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('import: any file at any step never throws; a refused upload stores nothing', async () => {
    const cells = fc.oneof(hostileText(), fc.constantFrom('nome', 'email', 'cpf', 'empresa', 'grupos', '=1', '"a;b"'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          fc
            .array(fc.array(cells, { maxLength: 7 }), { maxLength: 5 })
            .map((rows) => new TextEncoder().encode(rows.map((r) => r.join(';')).join('\n'))),
        ),
        fc.constantFrom('upload', 'validacao', 'resultado', 'x'),
        fc.option(fc.constantFrom('1', '999999', 'x'), { nil: undefined }),
        async (bytes, step, id) => {
          const before = await fingerprint();
          const form = () => {
            const data = new FormData();
            data.append('arquivo', new File([bytes as Uint8Array<ArrayBuffer>], 'f.csv', { type: 'text/csv' }));
            return data;
          };
          const url = new URL(`http://portal.test/v2/usuario/importacao/${step}${id ? `?importacao=${id}` : ''}`);
          const v2 = await importPage('v2', partnerAdmin, step, url, new Request(url, { method: 'POST', body: form() }), '10.0.0.1');
          const legacyUrl = new URL('http://portal.test/importar-usuarios');
          const v1 = await importPage(
            'v1',
            legacyAdmin,
            undefined,
            legacyUrl,
            new Request(legacyUrl, { method: 'POST', body: form() }),
            '10.0.0.1',
          );
          if (v2.kind === 'page') expect(v2.status).toBeGreaterThanOrEqual(400);
          if (v2.kind !== 'redirect' && v1.kind !== 'redirect') expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});

describe('the list', () => {
  it('offers editing and the status actions, and the edit address with the CPF, only on users the viewer may change', async () => {
    const id = (await db.selectFrom('users').select('id').where('email', '=', 'substabelecido@parceiro.demo').executeTakeFirstOrThrow()).id;
    const manager = { v2: { idUsuario: id, cdPerfilUsuario: 'substabelecido' } } as PortalSession;
    const list = await userListPage(
      'v2',
      manager,
      new URL('http://portal.test/v2/usuario/cadastro/consulta'),
      new Request('http://portal.test/v2/usuario/cadastro/consulta'),
      '10.0.0.1',
    );
    if (list.kind !== 'page') throw new Error(list.kind);
    const rows = Object.fromEntries(list.props.rows.map((r) => [r.email, r]));
    // The partner's administrator shares Vale Verde with the sub-delegated manager, who sees but may not change them.
    expect(rows['parceiro.admin@parceiro.demo']).toMatchObject({ manageable: false, cpfDigits: undefined, cpf: '***.***.***-91' });
    expect(rows['substabelecido@parceiro.demo']).toMatchObject({ manageable: true, cpfDigits: expect.stringMatching(/^\d{11}$/) });
  });
});

describe('the import’s confirmation (issue 27)', () => {
  it('carries the choice about existing accounts: absent is create-only, "sim" updates, anything else is a 400 that confirms nothing', async () => {
    const csv =
      'nome;email;cpf;empresa;grupos;situacao\nHelena Martins Dias;consultor@legado.demo;987.654.321-00;11222333000181;CONSULTOR;';
    const send = async (fields: Record<string, string>, url: URL) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) data.append(k, v);
      return importPage('v1', legacyAdmin, undefined, url, new Request(url, { method: 'POST', body: data }), '10.0.0.2');
    };
    const upload = async () => {
      const url = new URL('http://portal.test/importar-usuarios');
      const data = new FormData();
      data.append('arquivo', new File([csv], 'x.csv', { type: 'text/csv' }));
      const routed = await importPage('v1', legacyAdmin, undefined, url, new Request(url, { method: 'POST', body: data }), '10.0.0.2');
      if (routed.kind !== 'redirect') throw new Error(routed.kind);
      return new URL(routed.to, 'http://portal.test');
    };
    const flag = async (url: URL) =>
      db
        .selectFrom('user_imports')
        .select(['status', 'update_existing'])
        .where('id', '=', Number(url.searchParams.get('importacao')))
        .executeTakeFirstOrThrow();

    const first = await upload();
    const page = await importPage('v1', legacyAdmin, undefined, first, new Request(first), '10.0.0.2');
    if (page.kind !== 'page') throw new Error(page.kind);
    expect(page.props.changes).toEqual([
      {
        line: 2,
        email: 'consultor@legado.demo',
        nome: 'Helena Martins',
        changes: [{ column: 'nome', label: 'Nome', before: 'Helena Martins', after: 'Helena Martins Dias' }],
      },
    ]);
    const odd = await send({ acao: 'confirmar', atualizar: 'talvez' }, first);
    expect(odd).toMatchObject({ kind: 'page', status: 400, props: { error: 'Ação inválida.' } });
    expect(await flag(first)).toEqual({ status: 'VALIDADO', update_existing: false });
    expect((await send({ acao: 'confirmar' }, first)).kind).toBe('redirect');
    expect(await flag(first)).toEqual({ status: 'NA_FILA', update_existing: false });

    const second = await upload();
    expect((await send({ acao: 'confirmar', atualizar: 'sim' }, second)).kind).toBe('redirect');
    expect(await flag(second)).toEqual({ status: 'NA_FILA', update_existing: true });
  });
});
