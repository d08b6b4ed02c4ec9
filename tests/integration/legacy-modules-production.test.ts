import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { config, externalLinks } from '../../src/server/config';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { TOKEN_COOKIES, viewerOf, type PortalSession } from '../../src/lib/session';
import { pageAccess } from '../../src/lib/route-guards';
import { LEGACY_MENU } from '../../src/lib/menus';
import { visibleMenu, type VisibleItem } from '../../src/lib/menu-visibility';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';

/**
 * Issue 27 (17): in production (PORTAL_ENV=PRD, the default; the e2e server runs TEST) the legacy
 * routes SPEC §2 lists for a signed-in session — access groups, user import, payments lookup and
 * report, the new sales report — answer to whoever holds their permission (200) and refuse the
 * others (403), as the middleware's gate and then the page decide; only their *listing* in the menu
 * ("Módulos em homologação") stays outside production. They are reached from the screens they belong
 * to: a policy links its payments, the reports list its new report.
 */
vi.hoisted(() => {
  process.env.PORTAL_ENV = 'PRD';
});
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { legacyGroupsPage, legacyGroupPage } = await import('../../src/features/access-groups/access-groups.server');
const { importPage, templateResponse } = await import('../../src/features/user-import/import.server');
const { paymentsLookupPage, paymentsReportPage, paymentsExport } = await import('../../src/features/payments/payments.server');
const { requestPage, reportsPage } = await import('../../src/features/reports/reports.server');
const { policyPage } = await import('../../src/features/policies/policies.server');

let db: DB;
let close: () => Promise<void>;
const sessions = new Map<string, PortalSession>();

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  const as = demoTokens(apiClient(db));
  for (const email of ['admin@legado.demo', 'gestor@legado.demo', 'vendedor@legado.demo', 'consultor@legado.demo']) {
    const { authtoken } = await as(email);
    const { session } = await resolvePortalSession(db, (name) => (name === TOKEN_COOKIES.v1 ? authtoken : undefined));
    sessions.set(email, session);
  }
});
afterAll(() => close());

const session = (email: string) => sessions.get(email)!;
const url = (path: string) => new URL(`http://portal.test${path}`);
const get = (path: string) => new Request(url(path));

/** What the page answers: the gate's 403/404 first (middleware/index.ts), then the page's own status. */
async function answer(email: string, path: string, page: () => Promise<number>): Promise<number> {
  const access = pageAccess(url(path).pathname, viewerOf(session(email), 'v1')!, config().PORTAL_ENV);
  if (access === 'forbidden') return 403;
  if (access === 'not-found') return 404;
  return page();
}

const statusOf = (routed: { kind: string; status?: number }) => (routed.kind === 'page' ? routed.status! : routed.kind);

const ROUTES: [path: string, holder: string, other: string, page: (email: string) => Promise<number>][] = [
  [
    '/grupo-acesso',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    // The page answers its props or throws: reaching it is the 200.
    async (e) => {
      await legacyGroupsPage(session(e), url('/grupo-acesso'));
      return 200;
    },
  ],
  [
    '/grupo-acesso/VENDEDOR/portal/visualizar',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) =>
      statusOf(
        await legacyGroupPage(
          session(e),
          { grupo: 'VENDEDOR', canal: 'portal', action: 'visualizar' },
          get('/grupo-acesso/VENDEDOR/portal/visualizar'),
          '10.0.0.1',
        ),
      ) as number,
  ],
  [
    '/importar-usuarios',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) =>
      statusOf(await importPage('v1', session(e), undefined, url('/importar-usuarios'), get('/importar-usuarios'), '10.0.0.1')) as number,
  ],
  [
    '/importar-usuarios/modelo.csv',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) => (await templateResponse('v1', session(e)))?.status ?? 404,
  ],
  [
    '/consulta-pagamento',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) => (await paymentsLookupPage(session(e), url('/consulta-pagamento?nrApolice=1').searchParams, '10.0.0.1')).status,
  ],
  [
    '/relatorio-pagamento',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) => (await paymentsReportPage(session(e), new URLSearchParams())).status,
  ],
  [
    '/relatorio-pagamento/exportar.csv',
    'gestor@legado.demo',
    'vendedor@legado.demo',
    async (e) => (await paymentsExport(session(e), new URLSearchParams(), '10.0.0.1')).status,
  ],
  [
    '/novo-relatorio-vendas',
    'vendedor@legado.demo',
    'consultor@legado.demo',
    async (e) => {
      const page = await requestPage('v1', session(e), get('/novo-relatorio-vendas'));
      return 'status' in page ? page.status : 303;
    },
  ],
];

describe('the legacy modules in production (PORTAL_ENV=PRD)', () => {
  it('runs in production', () => expect(config().PORTAL_ENV).toBe('PRD'));

  it.each(ROUTES)(
    '%s answers 200 to a holder of its permission (and the admin group), 403 to another',
    async (path, holder, other, page) => {
      expect(await answer(holder, path, () => page(holder))).toBe(200);
      expect(await answer('admin@legado.demo', path, () => page('admin@legado.demo'))).toBe(200);
      expect(await answer(other, path, () => page(other))).toBe(403);
    },
  );

  it('keeps "Módulos em homologação" out of the menu, for the admin group too', () => {
    const titles = (items: VisibleItem[]): string[] => items.flatMap((i) => [i.title, ...titles(i.children ?? [])]);
    for (const email of ['admin@legado.demo', 'gestor@legado.demo']) {
      const menu = visibleMenu(LEGACY_MENU, viewerOf(session(email), 'v1')!, config().PORTAL_ENV, externalLinks());
      expect(titles(menu)).not.toContain('Módulos em homologação');
      expect(titles(menu)).not.toContain('Consulta de pagamentos');
      expect(titles(menu)).toContain('Usuários');
    }
  });

  it('the reports list offers the new report to whoever may ask for one', async () => {
    for (const email of ['vendedor@legado.demo', 'gestor@legado.demo']) {
      const page = await reportsPage('v1', session(email), get('/relatorio-vendas'), url('/relatorio-vendas'));
      expect('canRequest' in page && page.canRequest, email).toBe(true);
    }
  });

  it("a policy's page links its payments to whoever may look them up, and only to them", async () => {
    const policy = await db
      .selectFrom('policies')
      .innerJoin('users', 'users.id', 'policies.user_id')
      .select('policies.nr_apolice')
      .where('users.email', '=', 'vendedor@legado.demo')
      .executeTakeFirstOrThrow();
    const nr = policy.nr_apolice;
    // The legacy scope gives the admin group every policy and anyone else their own sales (lib/scope.ts).
    const forManager = await policyPage('v1', session('admin@legado.demo'), nr, '10.0.0.1');
    expect(forManager?.paymentsHref).toBe(`/consulta-pagamento?nrApolice=${nr}`);
    const forSeller = await policyPage('v1', session('vendedor@legado.demo'), nr, '10.0.0.1');
    expect(forSeller).toBeDefined();
    expect(forSeller?.paymentsHref).toBeUndefined();
  });
});
