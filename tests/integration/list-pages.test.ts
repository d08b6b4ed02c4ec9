import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { TOKEN_COOKIES, type PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { totalPagesOf, type KeysetPage } from '../../src/lib/keyset-pages';

/**
 * Issue 27: `/consulta-usuarios?pagina=999` or `?pagina=abc` said "Nenhum usuário encontrado" (or
 * refused the page) instead of showing the last or the first page. Every paged list page of both
 * generations reads its page the same way now (lib/list-query.ts: withReadablePage, pageWithin): a
 * page that is no number is the first, one past the last is the last — with its rows.
 */
vi.hoisted(() => {
  // The commission lists exist outside production only.
  process.env.PORTAL_ENV = 'TEST';
});
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { userListPage } = await import('../../src/features/users/users-list.server');
const { permissionGroupsPage } = await import('../../src/features/access-groups/access-groups.server');
const { companyListPage } = await import('../../src/features/partners/partners.server');
const { pointOfSaleListPage } = await import('../../src/features/points-of-sale/points-of-sale.server');
const { accessLogPage } = await import('../../src/features/access-log/access-log.server');
const { policiesListPage } = await import('../../src/features/policies/policies.server');
const { paymentsLookupPage, boletoPage, paymentsReportPage } = await import('../../src/features/payments/payments.server');
const { consultPage } = await import('../../src/features/documents/documents.server');
const { reportsPage } = await import('../../src/features/reports/reports.server');
const { notasPage, statementPage } = await import('../../src/features/commissions/commissions.server');
const { historyPage } = await import('../../src/features/history/history.server');
const { mailboxPage } = await import('../../src/features/mail/mailbox.server');

let db: DB;
let close: () => Promise<void>;
const sessions = new Map<string, PortalSession>();
let legacyPolicy: string;
let v2Policy: string;

const ACCOUNTS = [
  'suporte@legado.demo',
  'vendedor@legado.demo',
  'admin@seguradora.demo',
  'parceiro.admin@parceiro.demo',
  'parceiro@parceiro.demo',
] as const;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  const as = demoTokens(apiClient(db));
  for (const email of ACCOUNTS) {
    const { authtoken } = await as(email);
    const cookie = email.endsWith('@legado.demo') ? TOKEN_COOKIES.v1 : TOKEN_COOKIES.v2;
    const { session } = await resolvePortalSession(db, (name) => (name === cookie ? authtoken : undefined));
    sessions.set(email, session);
  }
  // Enough users for several pages of four (SPEC §9), in both generations.
  const horizonte = (await db.selectFrom('companies').select('id').where('cnpj', '=', '11222333000181').executeTakeFirstOrThrow()).id;
  await db
    .insertInto('users')
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        email: `lista.${i}.${i % 2 ? 'v2' : 'v1'}@exemplo.com.br`,
        nome: `Pessoa da Lista ${String(i).padStart(2, '0')}`,
        generation: i % 2 ? ('v2' as const) : ('v1' as const),
        profile: i % 2 ? ('parceiro' as const) : null,
        company_id: horizonte,
        status: 'ATIVO' as const,
      })),
    )
    .execute();
  const policy = (generation: 'v1' | 'v2') =>
    db.selectFrom('policies').select('nr_apolice').where('generation', '=', generation).orderBy('id').executeTakeFirstOrThrow();
  legacyPolicy = (await policy('v1')).nr_apolice;
  v2Policy = (await policy('v2')).nr_apolice;
});
afterAll(() => close());

const session = (email: (typeof ACCOUNTS)[number]) => sessions.get(email)!;
const url = (path: string) => new URL(`http://portal.test${path}`);
const GET = (path: string) => new Request(url(path));

/** What a list page shows: which page, of how many, with how many rows. */
interface Shown {
  page: number;
  totalPages: number;
  rows: number;
}
const shown = (paged: ({ page: number; content: unknown[] } & ({ totalPages: number } | KeysetPage<unknown>)) | undefined): Shown => ({
  page: paged?.page ?? -1,
  // A keyset list (lib/keyset-pages.ts) knows its pages while its count is within the bound: the demo's are.
  // An empty one has no pages, as a counted list says.
  totalPages: paged ? ('totalPages' in paged ? paged.totalPages : paged.total === 0 ? 0 : (totalPagesOf(paged) ?? -2)) : -1,
  rows: paged?.content.length ?? -1,
});
const routedList = async (routed: Promise<{ kind: string; props?: unknown; status?: number }>) => {
  const answer = await routed;
  if (answer.kind !== 'page') throw new Error(`not a page: ${answer.kind}`);
  return answer.props as Record<string, unknown>;
};

/** [list, page parameter, the address's other parameters, how to read it] — every paged list page. */
const LISTS: [string, string, string, (query: string) => Promise<Shown>][] = [
  [
    '/consulta-usuarios',
    'pagina',
    '',
    async (q) => {
      const props = await routedList(
        userListPage('v1', session('suporte@legado.demo'), url(`/consulta-usuarios?${q}`), GET('/'), '10.0.0.1'),
      );
      return { page: props.page as number, totalPages: props.totalPages as number, rows: (props.rows as unknown[]).length };
    },
  ],
  [
    '/v2/usuario/cadastro/consulta',
    'pagina',
    '',
    async (q) => {
      const props = await routedList(
        userListPage('v2', session('parceiro.admin@parceiro.demo'), url(`/v2/usuario/cadastro/consulta?${q}`), GET('/'), '10.0.0.1'),
      );
      return { page: props.page as number, totalPages: props.totalPages as number, rows: (props.rows as unknown[]).length };
    },
  ],
  [
    '/v2/usuario/permissoes/consulta',
    'pagina',
    '',
    async (q) => {
      const { props } = await permissionGroupsPage(session('parceiro.admin@parceiro.demo'), url(`/v2/usuario/permissoes/consulta?${q}`));
      return { page: props.page, totalPages: props.totalPages, rows: props.rows.length };
    },
  ],
  [
    '/v2/parceiros/consulta',
    'pagina',
    '',
    async (q) => {
      const props = await routedList(companyListPage('PARCEIRO', session('admin@seguradora.demo'), url(`/v2/parceiros/consulta?${q}`)));
      return { page: props.page as number, totalPages: props.totalPages as number, rows: (props.rows as unknown[]).length };
    },
  ],
  [
    '/v2/substabelecido/consulta',
    'pagina',
    '',
    async (q) => {
      const props = await routedList(
        companyListPage('SUBSTABELECIDO', session('parceiro.admin@parceiro.demo'), url(`/v2/substabelecido/consulta?${q}`)),
      );
      return { page: props.page as number, totalPages: props.totalPages as number, rows: (props.rows as unknown[]).length };
    },
  ],
  [
    '/v2/ponto-venda/consulta',
    'page',
    '',
    async (q) => {
      const props = await routedList(pointOfSaleListPage(session('admin@seguradora.demo'), url(`/v2/ponto-venda/consulta?${q}`)));
      return shown(props.paged as never);
    },
  ],
  [
    '/v2/log-acesso',
    'pagina',
    '',
    async (q) =>
      shown(
        ((await routedList(accessLogPage(session('admin@seguradora.demo'), url(`/v2/log-acesso?${q}`)))) as never as { result: never })
          .result,
      ),
  ],
  [
    '/apolices',
    'page',
    '',
    async (q) => shown((await policiesListPage('v1', session('suporte@legado.demo'), new URLSearchParams(q))).result),
  ],
  [
    '/v2/apolices',
    'page',
    '',
    async (q) => shown((await policiesListPage('v2', session('parceiro@parceiro.demo'), new URLSearchParams(q))).result),
  ],
  [
    '/consulta-pagamento',
    'page',
    'nrApolice=LEGACY',
    async (q) => shown((await paymentsLookupPage(session('suporte@legado.demo'), new URLSearchParams(q), '10.0.0.1')).result),
  ],
  [
    '/v2/boleto',
    'page',
    'nrApolice=V2',
    async (q) => shown((await boletoPage(session('parceiro@parceiro.demo'), new URLSearchParams(q), '10.0.0.1')).result),
  ],
  [
    '/relatorio-pagamento',
    'page',
    'de=2025-01-01&ate=2025-12-31',
    async (q) => {
      const page = await paymentsReportPage(session('suporte@legado.demo'), new URLSearchParams(q));
      return shown('payments' in page ? page.payments : undefined);
    },
  ],
  [
    '/documentos/consulta',
    'page',
    '',
    async (q) => shown((await consultPage('v1', session('suporte@legado.demo'), new URLSearchParams(q))).result),
  ],
  [
    '/v2/documentos/consulta',
    'page',
    '',
    async (q) => shown((await consultPage('v2', session('admin@seguradora.demo'), new URLSearchParams(q))).result),
  ],
  [
    '/relatorio-vendas',
    'page',
    '',
    async (q) => {
      const page = await reportsPage('v1', session('vendedor@legado.demo'), GET('/'), url(`/relatorio-vendas?${q}`));
      return shown('result' in page ? page.result : undefined);
    },
  ],
  [
    '/v2/relatorios/vendas/consulta',
    'page',
    '',
    async (q) => {
      const page = await reportsPage('v2', session('parceiro.admin@parceiro.demo'), GET('/'), url(`/v2/relatorios/vendas/consulta?${q}`));
      return shown('result' in page ? page.result : undefined);
    },
  ],
  [
    '/v2/comissoes/nota-fiscal',
    'page',
    '',
    async (q) => shown((await notasPage(session('admin@seguradora.demo'), new URLSearchParams(q)))?.result),
  ],
  [
    '/v2/comissoes/extrato-comissoes',
    'page',
    '',
    async (q) => shown((await statementPage(session('parceiro.admin@parceiro.demo'), new URLSearchParams(q)))?.statement?.lines),
  ],
  ['/historico', 'page', '', async (q) => shown((await historyPage('v1', session('vendedor@legado.demo'), new URLSearchParams(q))).result)],
  [
    '/v2/historico',
    'page',
    '',
    async (q) => shown((await historyPage('v2', session('parceiro@parceiro.demo'), new URLSearchParams(q))).result),
  ],
  [
    '/caixa-postal',
    'page',
    '',
    async (q) => {
      const page = await mailboxPage(session('admin@seguradora.demo'), url(`/caixa-postal?${q}`));
      return shown(page.kind === 'page' ? page.props.result : undefined);
    },
  ],
];

const query = (key: string, value: string, rest: string) =>
  [rest.replace('LEGACY', legacyPolicy).replace('V2', v2Policy), `${key}=${encodeURIComponent(value)}`].filter(Boolean).join('&');

describe('every paged list page reads its page as a person reaches it', () => {
  it.each(LISTS)('%s: a page that is no number shows the first', async (_, key, rest, read) => {
    const first = await read(query(key, '1', rest));
    for (const bad of ['abc', '0', '-1', '1e3', ''])
      expect(await read(query(key, bad, rest)), `${key}=${bad}`).toEqual({ ...first, page: 1 });
  });

  it.each(LISTS)('%s: a page past the last shows the last, with its rows', async (_, key, rest, read) => {
    const first = await read(query(key, '1', rest));
    const last = Math.max(first.totalPages, 1);
    const atLast = await read(query(key, String(last), rest));
    for (const far of ['999', '99999999999']) expect(await read(query(key, far, rest)), `${key}=${far}`).toEqual({ ...atLast, page: last });
    if (first.totalPages > 0) expect(atLast.rows).toBeGreaterThan(0);
  });

  it('the lists where the demo holds several pages show rows on their last', async () => {
    const several = ['/consulta-usuarios', '/v2/usuario/cadastro/consulta', '/v2/log-acesso'];
    for (const [name, key, rest, read] of LISTS.filter(([name]) => several.includes(name))) {
      const far = await read(query(key, '999', rest));
      expect(far.totalPages, name).toBeGreaterThan(1);
      expect(far.page, name).toBe(far.totalPages);
      expect(far.rows, name).toBeGreaterThan(0);
    }
  });
});
