import { NAME_SEARCH_LIMIT } from '../../src/lib/insured-search';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { TOKEN_COOKIES, viewerOf, type PortalSession } from '../../src/lib/session';
import { keysetPager, type KeysetPage, type PageLink } from '../../src/lib/keyset-pages';
import { COMMISSION_LINES_PAGE_SIZE } from '../../src/lib/commissions';
import { DOCUMENTS_PAGE_SIZE } from '../../src/lib/documents';
import { WORKLIST_KIND_LIMIT } from '../../src/lib/worklist';
import { grownDatabase } from '../fixtures/grown';
import { apiClient, demoTokens } from '../fixtures/api';
import { isRead, rowsRead, type RanQuery } from '../fixtures/query-plans';

/**
 * Every page of records reads a bounded number of rows (issue 29, DESIGN §11): on the demo year grown
 * 40× — where a table read whole is several times the bound — each read statement a page runs is
 * explained with ANALYZE, and the rows its scans of the growing tables read (returned or filtered
 * out) stay under the bound, whatever plan the database chose. A page that sorts or counts its whole
 * scope, or a filter without its index, fails here rather than at a customer's.
 */
vi.hoisted(() => {
  process.env.PORTAL_ENV = 'TEST';
});
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined, capture: undefined as RanQuery[] | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { policiesListPage } = await import('../../src/features/policies/policies.server');
const { historyPage } = await import('../../src/features/history/history.server');
const { accessLogPage } = await import('../../src/features/access-log/access-log.server');
const { boletoPage, paymentsLookupPage } = await import('../../src/features/payments/payments.server');
const { consultPage } = await import('../../src/features/documents/documents.server');
const { analysisPage } = await import('../../src/features/proposals/analysis.server');
const { evolutionPage, attainmentPage } = await import('../../src/features/metrics/metrics.server');
const { statementPage, incomePage, notaUploadPage } = await import('../../src/features/commissions/commissions.server');
const { paymentsReportPage } = await import('../../src/features/payments/payments.server');
const { renewalsListPage } = await import('../../src/features/renewals/renewals.server');
const { worklist, worklistNewCount } = await import('../../src/server/services/reporting/worklist');
const { userPage, invitationsPage } = await import('../../src/features/users/user-page.server');

const TIMES = 40;
const TODAY = new Date().toISOString().slice(0, 10);
const YEAR_AGO = new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10);

/** The most rows a page's statement may read of one growing table: a page, its neighbours, a count up to 1,000. */
const ROWS_BOUND = 2_500;

let db: DB;
let close: () => Promise<void>;
const sessions = new Map<string, PortalSession>();
const ACCOUNTS = [
  'admin@seguradora.demo',
  'parceiro.admin@parceiro.demo',
  'parceiro.admin.rede1@parceiro.demo',
  'parceiro@parceiro.demo',
  'suporte@legado.demo',
  'vendedor@legado.demo',
  'admin@legado.demo',
  'substabelecido@parceiro.demo',
  'gestor@legado.demo',
] as const;
type Account = (typeof ACCOUNTS)[number];

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES, {
    onQuery: (text, parameters) => shared.capture?.push({ sql: text, parameters }),
  }));
  shared.db = db;
  await sql`analyze`.execute(db);
  const as = demoTokens(apiClient(db));
  for (const email of ACCOUNTS) {
    const { authtoken } = await as(email);
    const cookie = email.endsWith('@legado.demo') ? TOKEN_COOKIES.v1 : TOKEN_COOKIES.v2;
    sessions.set(email, (await resolvePortalSession(db, (name) => (name === cookie ? authtoken : undefined))).session);
  }
}, 300_000);
afterAll(() => close());

/** The read statements a page ran. */
async function statementsOf(page: () => Promise<unknown>): Promise<RanQuery[]> {
  shared.capture = [];
  try {
    await page();
    return shared.capture.filter((q) => isRead(q.sql));
  } finally {
    shared.capture = undefined;
  }
}

const params = (query: string) => new URLSearchParams(query);
const session = (email: Account) => sessions.get(email)!;
const withLink = (query: string, link: PageLink, pageKey: string) => {
  const address = params(query);
  address.set(pageKey, String(link.page));
  if (link.cursor) address.set('cursor', link.cursor);
  return address;
};

/**
 * A keyset list page, and the pages its "Próxima" link opens after it (pages read from a cursor):
 * `read` opens an address and answers the page's list.
 */
const walk =
  (read: (address: URLSearchParams) => Promise<KeysetPage<unknown> | undefined>, query: string, hops = 0, pageKey = 'page') =>
  async () => {
    let address = params(query);
    for (let hop = 0; ; hop++) {
      const result = await read(address);
      const next = result && keysetPager(result).next;
      if (hop === hops || !next) return;
      address = withLink(query, next, pageKey);
    }
  };

const ip = '10.0.0.1';
const url = (path: string, address: URLSearchParams) => new URL(`http://portal.test${path}?${address}`);
const policies = (generation: 'v1' | 'v2', email: Account, query: string, hops = 0) =>
  walk(async (address) => (await policiesListPage(generation, session(email), address)).result, query, hops);
const renewals = (generation: 'v1' | 'v2', email: Account, query: string, hops = 0) =>
  walk(async (address) => (await renewalsListPage(generation, session(email), address)).result, query, hops);
const history = (generation: 'v1' | 'v2', email: Account, query: string, hops = 0) =>
  walk(async (address) => (await historyPage(generation, session(email), address)).result, query, hops);
const accessLog = (query: string, hops = 0) =>
  walk(
    async (address) => {
      const routed = await accessLogPage(session('admin@seguradora.demo'), url('/v2/log-acesso', address));
      return routed.kind === 'page' ? routed.props.result : undefined;
    },
    query,
    hops,
    'pagina',
  );
const boleto = (email: Account, query: string, hops = 0) =>
  walk(async (address) => (await boletoPage(session(email), address, ip)).result, query, hops);
const paymentsLookup = (query: string, hops = 0) =>
  walk(async (address) => (await paymentsLookupPage(session('suporte@legado.demo'), address, ip)).result, query, hops);
const documents = (generation: 'v1' | 'v2', email: Account, query: string, hops = 0) =>
  walk(async (address) => (await consultPage(generation, session(email), address)).result, query, hops);
const queue = (hops = 0) =>
  walk(
    async (address) => {
      const page = await analysisPage(
        session('admin@seguradora.demo'),
        new Request('http://portal.test/'),
        url('/v2/propostas/analise', address),
      );
      return 'queue' in page ? page.queue : undefined;
    },
    '',
    hops,
    'pagina',
  );
const evolution = (generation: 'v1' | 'v2', email: Account) => () => evolutionPage(generation, session(email), params(''));
const attainment =
  (generation: 'v1' | 'v2', email: Account, query = '') =>
  () =>
    attainmentPage(generation, session(email), new Request('http://portal.test/'), url('/v2/metricas/atingimento-meta', params(query)));

/** The commission statement of a month (commissions open outside production: PORTAL_ENV is TEST here). */
const statement =
  (email: Account, query = '') =>
  () =>
    statementPage(session(email), params(query));
/** The informe's list of beneficiaries and years (every partner for the insurer's admin). */
const income = (email: Account) => () => incomePage('v2', session(email), params(''));
const notaUpload =
  (email: Account, query = '') =>
  () =>
    notaUploadPage(session(email), params(query));
const paymentsReport =
  (email: Account, query = '', hops = 0) =>
  () =>
    walk(
      async (address) => {
        const page = await paymentsReportPage(session(email), address);
        return 'payments' in page ? page.payments : undefined;
      },
      query,
      hops,
    )();

/**
 * A user's page (issue 32): the user's facts, then both histories; `hops` follows the access log's
 * "Próxima" that many times (its cursor in `registro-cursor`).
 */
const userPageOf =
  (generation: 'v1' | 'v2', email: Account, target: string, hops = 0) =>
  async () => {
    const { id } = await db.selectFrom('users').select('id').where('email', '=', target).executeTakeFirstOrThrow();
    const base = generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario';
    let address = params('');
    for (let hop = 0; ; hop++) {
      const routed = await userPage(
        generation,
        session(email),
        String(id),
        url(`${base}/${id}`, address),
        new Request('http://portal.test/'),
        ip,
      );
      const next = routed.kind === 'page' ? keysetPager(routed.props.histories.registro).next : undefined;
      if (hop === hops || !next) return;
      address = params(`registro-pagina=${next.page}${next.cursor ? `&registro-cursor=${next.cursor}` : ''}`);
    }
  };
const invitations = (generation: 'v1' | 'v2', email: Account) => () =>
  invitationsPage(
    generation,
    session(email),
    url(generation === 'v1' ? '/consulta-usuarios/convites' : '/v2/usuario/convites', params('')),
    new Request('http://portal.test/'),
    ip,
  );

/** The documents consult's pages that name no insured: their reads stay on the documents (see below). */
const DOCUMENT_PAGES: [string, () => Promise<unknown>][] = [
  ['/v2/documentos/consulta, ADMIN', documents('v2', 'admin@seguradora.demo', '')],
  ['/v2/documentos/consulta, ADMIN, 3rd page by cursor', documents('v2', 'admin@seguradora.demo', '', 2)],
  ['/v2/documentos/consulta, ADMIN, a category', documents('v2', 'admin@seguradora.demo', 'categoria=DECLARACAO_SAUDE')],
  ['/v2/documentos/consulta, ADMIN, a period, 2nd page', documents('v2', 'admin@seguradora.demo', `de=${YEAR_AGO}&ate=${TODAY}`, 1)],
  ['/v2/documentos/consulta, partner admin', documents('v2', 'parceiro.admin@parceiro.demo', '')],
  ['/v2/documentos/consulta, partner admin, 3rd page by cursor', documents('v2', 'parceiro.admin@parceiro.demo', '', 2)],
  ['/v2/documentos/consulta, a grown network’s partner admin, 2nd page', documents('v2', 'parceiro.admin.rede1@parceiro.demo', '', 1)],
  ['/v2/documentos/consulta, seller', documents('v2', 'parceiro@parceiro.demo', '')],
  ['/v2/documentos/consulta, seller, 2nd page by cursor', documents('v2', 'parceiro@parceiro.demo', '', 1)],
  ['/documentos/consulta, legacy support', documents('v1', 'suporte@legado.demo', '')],
  ['/documentos/consulta, legacy support, 2nd page by cursor', documents('v1', 'suporte@legado.demo', '', 1)],
  ['/documentos/consulta, legacy seller', documents('v1', 'vendedor@legado.demo', '')],
];

const PAGES: [string, () => Promise<unknown>][] = [
  ['/v2/apolices, ADMIN', policies('v2', 'admin@seguradora.demo', '')],
  ['/v2/apolices, ADMIN, 3rd page by cursor', policies('v2', 'admin@seguradora.demo', '', 2)],
  ['/v2/apolices, ADMIN, cancelled', policies('v2', 'admin@seguradora.demo', 'situacao=CANCELADA')],
  ['/v2/apolices, ADMIN, expired', policies('v2', 'admin@seguradora.demo', 'situacao=VENCIDA')],
  ['/v2/apolices, ADMIN, a page number alone (101)', policies('v2', 'admin@seguradora.demo', 'page=101')],
  ['/v2/apolices, partner admin', policies('v2', 'parceiro.admin@parceiro.demo', '')],
  ['/v2/apolices, partner admin, 3rd page by cursor', policies('v2', 'parceiro.admin@parceiro.demo', '', 2)],
  ['/v2/apolices, partner admin, in force', policies('v2', 'parceiro.admin@parceiro.demo', 'situacao=VIGENTE')],
  ['/v2/apolices, seller', policies('v2', 'parceiro@parceiro.demo', '')],
  ['/v2/apolices, seller, 3rd page by cursor', policies('v2', 'parceiro@parceiro.demo', '', 2)],
  ['/apolices, legacy support', policies('v1', 'suporte@legado.demo', '')],
  ['/apolices, legacy support, 3rd page by cursor', policies('v1', 'suporte@legado.demo', '', 2)],
  ['/v2/renovacoes, ADMIN, 3rd page by cursor', renewals('v2', 'admin@seguradora.demo', '', 2)],
  ['/v2/renovacoes, ADMIN, a product', renewals('v2', 'admin@seguradora.demo', 'produto=VEU')],
  ['/v2/renovacoes, partner admin, 2nd page by cursor', renewals('v2', 'parceiro.admin@parceiro.demo', '', 1)],
  ['/v2/renovacoes, seller', renewals('v2', 'parceiro@parceiro.demo', '')],
  ['/renovacoes, legacy support, 2nd page by cursor', renewals('v1', 'suporte@legado.demo', '', 1)],
  ['/v2/historico, ADMIN, 3rd page by cursor', history('v2', 'admin@seguradora.demo', '', 2)],
  ['/v2/historico, partner admin, 3rd page by cursor', history('v2', 'parceiro.admin@parceiro.demo', '', 2)],
  ['/v2/historico, seller', history('v2', 'parceiro@parceiro.demo', '')],
  ['/historico, legacy seller, 3rd page by cursor', history('v1', 'vendedor@legado.demo', '', 2)],
  ['/historico, legacy admin, 3rd page by cursor', history('v1', 'admin@legado.demo', '', 2)],
  ['/v2/log-acesso, default (30 days), 3rd page by cursor', accessLog('', 2)],
  ['/v2/log-acesso, an event', accessLog('evento=LOGIN')],
  ['/v2/log-acesso, a page number alone (51)', accessLog('pagina=51')],
  // A page per user and the pending invitations (issue 32): the histories through their indexes, the pending users through theirs.
  [
    '/v2/usuario/{id}, ADMIN, a seller, 3rd page of her access log by cursor',
    userPageOf('v2', 'admin@seguradora.demo', 'parceiro@parceiro.demo', 2),
  ],
  ['/v2/usuario/{id}, partner admin, a seller', userPageOf('v2', 'parceiro.admin@parceiro.demo', 'parceiro@parceiro.demo')],
  // Issue 42: a viewer who reads few of the user's rows (their own scope's) — the scan stays bounded.
  [
    '/v2/usuario/{id}, sub-delegated manager, the partner admin, 2nd page by cursor',
    userPageOf('v2', 'substabelecido@parceiro.demo', 'parceiro.admin@parceiro.demo', 1),
  ],
  ['/consulta-usuarios/{id}, legacy manager, the legacy admin', userPageOf('v1', 'gestor@legado.demo', 'admin@legado.demo')],
  [
    '/consulta-usuarios/{id}, legacy manager, a seller, 2nd page by cursor',
    userPageOf('v1', 'gestor@legado.demo', 'vendedor@legado.demo', 1),
  ],
  [
    '/consulta-usuarios/{id}, legacy support, a seller, 2nd page by cursor',
    userPageOf('v1', 'suporte@legado.demo', 'vendedor@legado.demo', 1),
  ],
  ['/v2/usuario/convites, ADMIN', invitations('v2', 'admin@seguradora.demo')],
  ['/v2/usuario/convites, partner admin', invitations('v2', 'parceiro.admin@parceiro.demo')],
  ['/consulta-usuarios/convites, legacy support', invitations('v1', 'suporte@legado.demo')],
  ['/v2/boleto, ADMIN, by insured', boleto('admin@seguradora.demo', 'segurado=almeida')],
  ['/v2/boleto, partner admin, by insured, 2nd page', boleto('parceiro.admin@parceiro.demo', 'segurado=almeida', 1)],
  ['/consulta-pagamento, legacy support, by insured', paymentsLookup('segurado=almeida')],
  ...DOCUMENT_PAGES,
  ['/v2/documentos/consulta, ADMIN, by insured', documents('v2', 'admin@seguradora.demo', 'segurado=almeida')],
  ['/v2/documentos/consulta, partner admin, by insured', documents('v2', 'parceiro.admin@parceiro.demo', 'segurado=almeida')],
  ['/v2/propostas/analise, 2nd page by cursor', queue(1)],
  ['/v2/metricas/evolucao-vendas, ADMIN', evolution('v2', 'admin@seguradora.demo')],
  ['/v2/metricas/evolucao-vendas, partner admin', evolution('v2', 'parceiro.admin@parceiro.demo')],
  ['/v2/metricas/atingimento-meta, ADMIN, sellers', attainment('v2', 'admin@seguradora.demo', 'ranking=vendedores')],
  ['/evolucao-vendas, legacy admin', evolution('v1', 'admin@legado.demo')],
  ['/v2/comissoes/extrato-comissoes, ADMIN', statement('admin@seguradora.demo')],
  ['/v2/comissoes/extrato-comissoes, partner admin, its company', statement('parceiro.admin@parceiro.demo')],
  ['/v2/comissoes/extrato-comissoes, partner admin, 2nd page', statement('parceiro.admin@parceiro.demo', 'page=2')],
  ['/v2/informe-rendimentos, ADMIN', income('admin@seguradora.demo')],
  ['/v2/informe-rendimentos, partner admin', income('parceiro.admin@parceiro.demo')],
  ['/relatorio-pagamento, legacy admin, this month', paymentsReport('admin@legado.demo')],
  ['/relatorio-pagamento, legacy support, a year, 5th page', paymentsReport('suporte@legado.demo', `de=${YEAR_AGO}&ate=${TODAY}&page=5`)],
  [
    '/relatorio-pagamento, legacy support, a year, a page number alone (101)',
    paymentsReport('suporte@legado.demo', `de=${YEAR_AGO}&ate=${TODAY}&page=101`),
  ],
  [
    '/relatorio-pagamento, legacy support, a year, 3rd page by cursor',
    paymentsReport('suporte@legado.demo', `de=${YEAR_AGO}&ate=${TODAY}`, 2),
  ],
];

describe(`each page's statements read at most ${ROWS_BOUND} rows of a growing table, on the demo grown ${TIMES}×`, () => {
  it('the grown tables are several times the bound (else this proves nothing)', async () => {
    const { n } = (await sql<{ n: number }>`select count(*)::int as n from policies`.execute(db)).rows[0]!;
    expect(n).toBeGreaterThan(ROWS_BOUND * 1.5);
    // What the lists did before keyset pages: an exact count of the scope reads it all, and is caught.
    const { read } = await rowsRead(db, { sql: `select count(*) from policies a where a.generation = $1`, parameters: ['v2'] });
    expect(read.policies).toBeGreaterThan(ROWS_BOUND);
  });

  it.each(PAGES)('%s', async (_, page) => {
    const statements = await statementsOf(page);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const { read, plan } = await rowsRead(db, statement);
      for (const [table, rows] of Object.entries(read))
        expect(rows, `${table} read ${rows} rows in\n${statement.sql}\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(ROWS_BOUND);
    }
  });

  it('the commission statement reads its month of the company through the payments, not the company’s whole history', async () => {
    // The company with the most paid installments and the month with the most payments: neither the
    // company's history nor everyone's month is a bounded read, the company's month is.
    const busiest = await sql<{ cnpj: string; month: string; n: number; history: number; everyone: number }>`
      with paid as (
        select a.company_id, to_char(pg.pago_em at time zone 'America/Sao_Paulo', 'YYYY-MM') as month
        from payments pg join installments i on i.id = pg.installment_id join policies a on a.id = i.policy_id
      ),
      largest as (select company_id, count(*)::int as history from paid where company_id is not null group by 1 order by 2 desc limit 1),
      busiest as (select month, count(*)::int as everyone from paid group by 1 order by 2 desc limit 1)
      select c.cnpj, b.month, l.history, b.everyone,
        (select count(*)::int from paid p where p.company_id = l.company_id and p.month = b.month) as n
      from largest l cross join busiest b join companies c on c.id = l.company_id`.execute(db);
    const { cnpj, month, n, history, everyone } = busiest.rows[0]!;
    // The rows that month holds, and what a page of lines adds to them: each line's installment count
    // (parcela n/N, a policy has a few) and first endorsement.
    const bound = n + 5 * COMMISSION_LINES_PAGE_SIZE;
    expect(history, 'the company’s history outgrows its month (else this proves nothing)').toBeGreaterThan(bound * 2);
    expect(everyone, 'everyone’s month outgrows the company’s (else this proves nothing)').toBeGreaterThan(bound * 2);
    const ofMonth = (await statementsOf(statement('admin@seguradora.demo', `empresa=${cnpj}&competencia=${month}`))).filter((q) =>
      q.sql.includes('"pg"."pago_em" >='),
    );
    expect(ofMonth.length).toBe(2); // the page of lines and their count
    for (const statement of ofMonth) {
      const { read, plan } = await rowsRead(db, statement);
      for (const [table, rows] of Object.entries(read))
        expect(rows, `${table} read ${rows} rows (bound ${bound}) in\n${statement.sql}\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(bound);
    }
  });

  it('the commission statement’s months, the nota’s and the informe’s read the rollup alone, never the payments of a whole history', async () => {
    const largest = await sql<{ cnpj: string }>`
      select c.cnpj from commissions_monthly m join companies c on c.id = m.company_id group by c.cnpj order by sum(m.payments) desc limit 1`.execute(
      db,
    );
    const { cnpj } = largest.rows[0]!;
    const pages: [string, () => Promise<unknown>][] = [
      ['statement', statement('admin@seguradora.demo', `empresa=${cnpj}`)],
      ['nota upload', notaUpload('parceiro.admin@parceiro.demo', `empresa=${cnpj}`)],
      ['informe, ADMIN', income('admin@seguradora.demo')],
    ];
    for (const [name, page] of pages) {
      const monthly = (await statementsOf(page)).filter((q) => q.sql.includes('"commissions_monthly"'));
      expect(monthly.length, name).toBe(1);
      const { read, plan } = await rowsRead(db, monthly[0]!);
      expect(Object.keys(read), `${name}\n${plan.slice(0, 4000)}`).toEqual(['commissions_monthly']);
    }
    // The informe lists every beneficiary's years from the rollup: it reads no payment at all.
    const informe = await statementsOf(income('admin@seguradora.demo'));
    expect(informe.filter((q) => /\b(from|join) "(payments|refunds)"/.test(q.sql))).toEqual([]);
  });

  it.each(DOCUMENT_PAGES)(
    'the documents consult reads its scope on the documents themselves, the sale only for the rows shown: %s',
    async (_, page) => {
      // A document carries its sale's scope (migration 035): a branch is a range of the documents'
      // index and its count an index-only range; a proposal and a quote are read for a row the page
      // shows (each branch brings at most a page and one more), never to decide whether a row is in scope.
      const { n } = (await sql<{ n: number }>`select count(*)::int as n from documents`.execute(db)).rows[0]!;
      const shown = 3 * (DOCUMENTS_PAGE_SIZE + 1);
      expect(n, 'the documents outnumber what a page shows (else this proves nothing)').toBeGreaterThan(shown * 4);
      for (const statement of await statementsOf(page)) {
        const { read, plan } = await rowsRead(db, statement);
        for (const table of ['quotes', 'proposals'])
          expect(read[table] ?? 0, `${table} read in\n${statement.sql}\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(shown);
      }
    },
  );

  it('everyone’s documents of a category nobody sent read no document: the category has its index', async () => {
    const sent = await sql<{ n: number }>`select count(*)::int as n from documents where categoria = 'NOTA_FISCAL'`.execute(db);
    expect(sent.rows[0]!.n).toBe(0);
    const ran = await statementsOf(documents('v2', 'admin@seguradora.demo', 'categoria=NOTA_FISCAL'));
    expect(ran.length).toBeGreaterThan(0);
    for (const statement of ran) {
      const { read, plan } = await rowsRead(db, statement);
      expect(read.documents ?? 0, plan.slice(0, 4000)).toBe(0);
    }
  });

  it('a partner admin’s documents by insured read a bounded number of the named documents, and the proposals of the page’s rows', async () => {
    // Decision 078: the name is searched on the documents' own copy of it (migration 055), each branch
    // of the scope reading at most NAME_SEARCH_LIMIT + 1 of its matches, unordered; the proposals are
    // read for the page's rows only. (Before, the scope was said again on the quotes the name found.)
    const ran = await statementsOf(documents('v2', 'parceiro.admin@parceiro.demo', 'segurado=almeida'));
    expect(ran.length).toBeGreaterThan(0);
    for (const statement of ran) {
      const { read, plan } = await rowsRead(db, statement);
      expect(read.documents ?? 0, `documents\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(NAME_SEARCH_LIMIT + 1);
      expect(read.proposals ?? 0, `proposals\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(3 * (DOCUMENTS_PAGE_SIZE + 1));
    }
  });

  it('the payments report totals a period from the payments alone, never joining each payment to its installment and policy', async () => {
    const ran = await statementsOf(paymentsReport('suporte@legado.demo', `de=${YEAR_AGO}&ate=${TODAY}`));
    // The totals per product (the page's rows' installment counts are grouped too, from installments).
    const totals = ran.filter((q) => /group by/i.test(q.sql) && /from "payments"/.test(q.sql));
    expect(totals.length).toBe(1);
    const { read, plan } = await rowsRead(db, totals[0]!);
    expect(Object.keys(read), plan.slice(0, 4000)).toEqual(['payments']);
    // The period's count is the totals' sum: no statement counts the period again.
    expect(
      ran.filter((q) => /count\(\*\)/i.test(q.sql) && !/group by/i.test(q.sql) && !/count\(\*\)::int from installments/i.test(q.sql)),
    ).toEqual([]);
  });
});

/**
 * The worklist (issue 31) reads each kind as the scope's branches, each an index range in the kind's
 * order cut at the kind's limit: a statement reads a few limits' worth of a table, however large the
 * window of the whole book — the overdue installments or decided proposals of every network, of both
 * generations, which it read and threw away before the sale's scope lived on those rows (migration 042).
 */
describe(`the worklist reads its items, not the book's window, on the demo grown ${TIMES}×`, () => {
  /** A page's branch: its rows and their joins' lookups; the count: up to its 100 keys across branches. */
  const BOUND = 3 * WORKLIST_KIND_LIMIT;
  const VIEWERS: Account[] = [
    'admin@seguradora.demo',
    'parceiro.admin@parceiro.demo',
    'parceiro.admin.rede1@parceiro.demo',
    'parceiro@parceiro.demo',
    'admin@legado.demo',
    'vendedor@legado.demo',
  ];

  it('the windows of the whole book outgrow the bound (else this proves nothing)', async () => {
    const { overdue, decided } = (
      await sql<{ overdue: number; decided: number }>`select
        (select count(*)::int from installments where status = 'ABERTA' and vencimento < current_date and vencimento >= current_date - 60) as overdue,
        (select count(*)::int from proposals where status in ('ACEITA', 'RECUSADA') and decidida_em >= now() - interval '30 days') as decided`.execute(
        db,
      )
    ).rows[0]!;
    expect(overdue).toBeGreaterThan(BOUND);
    expect(decided).toBeGreaterThan(BOUND);
  });

  it.each(VIEWERS)('%s: the page and the bell’s count', async (email) => {
    const viewer = viewerOf(session(email), email.endsWith('@legado.demo') ? 'v1' : 'v2')!;
    const statements = [...(await statementsOf(() => worklist(db, viewer))), ...(await statementsOf(() => worklistNewCount(db, viewer)))];
    expect(statements.length).toBeGreaterThan(1);
    for (const statement of statements) {
      const { read, plan } = await rowsRead(db, statement);
      for (const [table, rows] of Object.entries(read))
        expect(rows, `${table} read ${rows} rows in\n${statement.sql}\n${plan.slice(0, 4000)}`).toBeLessThanOrEqual(BOUND);
    }
  });
});
