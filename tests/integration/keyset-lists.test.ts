import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { listQuotes } from '../../src/server/services/selling/quote-history';
import { visibleTo } from '../../src/server/services/selling/quotes';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { listInstallments, paymentsCsv, paymentsReport } from '../../src/server/services/after-sale/payments';
import { listDocuments } from '../../src/server/services/after-sale/documents';
import { insuredMatches, policiesInScope, searchedPolicies } from '../../src/server/services/after-sale/policies';
import { documentScopeFor, scopeFor, soldWithin } from '../../src/server/services/identity/scope';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { periodBounds, type Period } from '../../src/lib/payments';
import { decodeCursor, keysetPager, pageRequestOf, type KeysetPage, type PageLink } from '../../src/lib/keyset-pages';
import type { Scope } from '../../src/lib/scope';
import type { DocumentFilters } from '../../src/lib/documents';
import { startOfBrasiliaDay } from '../../src/lib/calendar';
import { isNameSearch, NAME_SEARCH_LIMIT, nameWords } from '../../src/lib/insured-search';
import { viewerByEmail } from '../fixtures/selling';
import { grownDatabase } from '../fixtures/grown';
import { brasiliaDay } from '../../src/lib/format';
import { now } from '../../src/server/clock';

/**
 * Keyset pages (lib/keyset-pages.ts, db/keyset-page.ts) of the history, the payment lookups, the
 * documents consult and the payments report (issue 29), on the demo year grown 12×, as keyset-pages.test.ts does for the
 * policies: walking "Próxima" from page 1 to the end shows every row of the scope once, in the order
 * the one scope condition gives, for everyone's, a partner admin's and a seller's scope; each page's
 * "Anterior" returns the page before, row for row; rows sharing one microsecond are neither skipped
 * nor repeated.
 */
const TIMES = 12;
/** The run's day, and the month before last: inside the demo year whatever the calendar says. */
const TODAY = brasiliaDay(now());
const MONTH = brasiliaDay(new Date(now().getTime() - 60 * 86_400_000)).slice(0, 7);
const ONE_INSTANT = `${MONTH}-01 12:00:00.123456+00`;
let db: DB;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES));
  // Rows of one partner written in one instant, as an import or an operator's fix writes them.
  await sql`update quotes set created_at = ${ONE_INSTANT}
    where id in (select id from quotes where company_id is not null order by id limit 40)`.execute(db);
  await sql`update policies set emitida_em = ${ONE_INSTANT}
    where id in (select id from policies where company_id is not null order by id limit 40)`.execute(db);
  await sql`update documents set created_at = ${ONE_INSTANT} where id in (select id from documents order by id limit 25)`.execute(db);
  // Payments confirmed in one instant (a bank's batch file), in both generations.
  await sql`update payments set pago_em = ${ONE_INSTANT}
    where id in (select id from payments where generation = 'v2' and company_id is not null order by id limit 40)
       or id in (select id from payments where generation = 'v1' order by id limit 40)`.execute(db);
}, 240_000);
afterAll(() => close());

const PEOPLE = [
  ['the insurer’s ADMIN (everyone’s)', 'admin@seguradora.demo'],
  ['a partner admin (the companies’ branches and the own one)', 'parceiro.admin@parceiro.demo'],
  ['a seller (the own branch)', 'parceiro@parceiro.demo'],
] as const;

/** Walks a list from page 1 by its "Próxima" links, checking each "Anterior"; every key shown, in order. */
async function walk<T>(open: (link: PageLink) => Promise<KeysetPage<T>>, key: (row: T) => string): Promise<string[]> {
  const keys = (page: KeysetPage<T>) => page.content.map(key);
  const seen: string[] = [];
  let page = await open({ page: 1 });
  for (let n = 1; ; n++) {
    expect(page.page).toBe(n);
    seen.push(...keys(page));
    const pager = keysetPager(page);
    if (!pager.next) break;
    expect(decodeCursor(pager.next.cursor)?.direction).toBe('after');
    const next = await open(pager.next);
    expect(keys(await open(keysetPager(next).previous!))).toEqual(keys(page));
    page = next;
  }
  return seen;
}

/**
 * Walks a name search's pages (issue 42: ranked, paged by number, read whole up to its limit at each
 * page) by their "Próxima" links, checking each "Anterior"; every key shown, in order.
 */
async function walkRanked<T>(open: (link: PageLink) => Promise<KeysetPage<T>>, key: (row: T) => string): Promise<string[]> {
  const keys = (page: KeysetPage<T>) => page.content.map(key);
  const seen: string[] = [];
  let page = await open({ page: 1 });
  expect(page.ranked).toEqual({ limit: NAME_SEARCH_LIMIT, exceeded: false });
  for (let n = 1; ; n++) {
    expect(page.page).toBe(n);
    seen.push(...keys(page));
    const pager = keysetPager(page);
    if (!pager.next) break;
    expect(pager.next).toEqual({ page: n + 1 });
    const next = await open(pager.next);
    expect(keys(await open(keysetPager(next).previous!))).toEqual(keys(page));
    page = next;
  }
  return seen;
}

describe('the quote and proposal history', () => {
  const sellerOf = async (email: string) =>
    sellerFromV2(db, await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true }));

  it.each(PEOPLE)(
    '%s: every quote once, newest first, page after page',
    async (_, email) => {
      const seller = await sellerOf(email);
      const expected = (
        await visibleTo(seller)(db.selectFrom('quotes as q'))
          .select('q.nr_cotacao')
          .where('q.generation', '=', seller.generation)
          .orderBy('q.created_at', 'desc')
          .orderBy('q.id', 'desc')
          .execute()
      ).map((r) => r.nr_cotacao);
      expect(expected.length).toBeGreaterThan(10);
      const seen = await walk(
        (link) => listQuotes(db, seller, {}, pageRequestOf(link.page, link.cursor)),
        (row) => row.nrCotacao,
      );
      expect(seen).toEqual(expected);
      const first = await listQuotes(db, seller, {});
      expect(first.total === undefined).toBe(expected.length > 1000);
    },
    240_000,
  );

  it('past the bound the count says "more than", and a filtered list still reaches its last page at once', async () => {
    const seller = await sellerOf('admin@seguradora.demo');
    expect((await listQuotes(db, seller, {})).total).toBeUndefined();
    const all = await listQuotes(db, seller, { status: 'VENCIDA' });
    expect(all.total).toBeGreaterThan(10);
    const last = keysetPager(all).pages.at(-1) as PageLink;
    const atLast = await listQuotes(db, seller, { status: 'VENCIDA' }, pageRequestOf(last.page, last.cursor));
    expect(atLast).toMatchObject({ page: Math.ceil(all.total! / 10), more: false });
  });
});

describe('the payment lookups (installments of the policies a search names)', () => {
  /**
   * A search that names many installments, but no more than a name search reads (NAME_SEARCH_LIMIT,
   * issue 42): three letters that begin an insured's name, found anywhere in the names.
   */
  const commonSearch = async () =>
    (
      await sql<{ t: string }>`with typed as (select distinct substr(nome_busca, 1, 3) as t from policies)
        select typed.t from typed join policies a on a.nome_busca like '%' || typed.t || '%'
          join installments i on i.policy_id = a.id
        group by typed.t having count(*) <= ${NAME_SEARCH_LIMIT} order by count(*) desc, 1 limit 1`.execute(db)
    ).rows[0]!.t;

  it.each(PEOPLE)(
    '%s: every installment once, the closest name first, then newest policy first and 1…N within it',
    async (_, email) => {
      const viewer = await viewerByEmail(db, email);
      const scope: Scope = await scopeFor(db, viewer, 'BOLETOS');
      const search = { segurado: await commonSearch() };
      const expected = (
        await policiesInScope(db, scope, viewer.generation)
          .$call(searchedPolicies(search))
          .innerJoin('installments as i', 'i.policy_id', 'a.id')
          .select(['a.nr_apolice', 'i.numero'])
          .orderBy(sql`similarity(a.nome_busca, ${search.segurado})`, 'desc')
          .orderBy('a.emitida_em', 'desc')
          .orderBy('a.id', 'desc')
          .orderBy('i.numero')
          .execute()
      ).map((r) => `${r.nr_apolice}/${r.numero}`);
      expect(expected.length).toBeGreaterThan(0);
      const seen = await walkRanked(
        (link) => listInstallments(db, scope, viewer.generation, search, pageRequestOf(link.page, link.cursor), TODAY),
        (row) => `${row.nrApolice}/${row.numero}`,
      );
      expect(seen).toEqual(expected);
    },
    240_000,
  );
});

describe('the documents consult', () => {
  /**
   * The documents a viewer saw before documents carried their sale's scope (migration 035): those whose
   * proposal's quote is in the scope, by the quote's own seller, company and generation, filtered —
   * newest first. The consult reads the document's copy of them; the rule is the same.
   */
  const bySale = async (scope: Scope, generation: 'v1' | 'v2', filters: DocumentFilters) =>
    (
      await db
        .selectFrom('documents as d')
        .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
        .innerJoin('quotes as q', 'q.id', 'p.quote_id')
        .leftJoin('policies as a', 'a.proposal_id', 'p.id')
        .select('d.id')
        .where('d.removido_em', 'is', null)
        .where((eb) => soldWithin(scope, eb.ref('q.user_id'), eb.ref('q.company_id')))
        .where('q.generation', '=', generation)
        .$if(filters.segurado !== undefined, (qb) =>
          qb.where((eb) => insuredMatches(filters.segurado!, eb.ref('q.nome_busca'), eb.ref('q.documento_segurado'))),
        )
        .$if(filters.nrApolice !== undefined, (qb) => qb.where('a.nr_apolice', '=', filters.nrApolice!))
        .$if(filters.categoria !== undefined, (qb) => qb.where('d.categoria', '=', filters.categoria!))
        .$if(filters.de !== undefined, (qb) => qb.where('d.created_at', '>=', startOfBrasiliaDay(filters.de!)))
        // A name search ranks its matches, the closest name first (issue 42).
        .$if(isNameSearch(filters.segurado), (qb) =>
          qb.orderBy(sql`similarity(q.nome_busca, ${nameWords(filters.segurado!).join(' ')})`, 'desc'),
        )
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .execute()
    ).map((r) => String(r.id));

  const DOCUMENT_VIEWERS = [
    ...PEOPLE,
    ['a grown network’s partner admin', 'parceiro.admin.rede1@parceiro.demo'],
    ['the legacy support group', 'suporte@legado.demo'],
    ['a legacy seller', 'vendedor@legado.demo'],
  ] as const;

  it.each(DOCUMENT_VIEWERS)(
    '%s: every document the sale’s scope holds, once, newest first, page after page',
    async (_, email) => {
      const viewer = await viewerByEmail(db, email);
      const scope = await documentScopeFor(db, viewer);
      const expected = await bySale(scope, viewer.generation, {});
      expect(expected.length).toBeGreaterThan(0);
      const seen = await walk(
        (link) => listDocuments(db, scope, viewer.generation, {}, pageRequestOf(link.page, link.cursor)),
        (row) => String(row.id),
      );
      expect(seen).toEqual(expected);
    },
    240_000,
  );

  /** The last name of the insured of the newest document of a company of the scope: a name search that finds some. */
  const someInsured = async (scope: Scope) => {
    const { nome_segurado } = await db
      .selectFrom('documents as d')
      .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
      .innerJoin('quotes as q', 'q.id', 'p.quote_id')
      .select('q.nome_segurado')
      .where('d.company_id', 'in', scope.kind === 'companies' ? scope.companyIds : [-1])
      .orderBy('d.id', 'desc')
      .executeTakeFirstOrThrow();
    return nome_segurado.split(' ').at(-1)!;
  };

  it.each<[string, (scope: Scope) => Promise<DocumentFilters>]>([
    ['a category', async () => ({ categoria: 'LAUDO_VISTORIA' })],
    ['an insured', async (scope) => ({ segurado: await someInsured(scope) })],
    ['a period', async () => ({ de: '2026-06-01' })],
  ])('a partner admin, by %s: the same documents as the sale’s scope with the filter', async (_, filtersOf) => {
    const viewer = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
    const scope = await documentScopeFor(db, viewer);
    const filters = await filtersOf(scope);
    const expected = await bySale(scope, 'v2', filters);
    expect(expected.length).toBeGreaterThan(0);
    const seen = await (isNameSearch(filters.segurado) ? walkRanked : walk)(
      (link) => listDocuments(db, scope, 'v2', filters, pageRequestOf(link.page, link.cursor)),
      (row) => String(row.id),
    );
    expect(seen).toEqual(expected);
  });

  it('a policy’s number: its documents, for whoever sees them', async () => {
    const viewer = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
    const scope = await documentScopeFor(db, viewer);
    const { nr_apolice } = await db
      .selectFrom('documents as d')
      .innerJoin('policies as a', 'a.proposal_id', 'd.proposal_id')
      .select('a.nr_apolice')
      .where('d.company_id', 'in', scope.kind === 'companies' ? scope.companyIds : [-1])
      .executeTakeFirstOrThrow();
    const expected = await bySale(scope, 'v2', { nrApolice: nr_apolice });
    expect(expected.length).toBeGreaterThan(0);
    const { content } = await listDocuments(db, scope, 'v2', { nrApolice: nr_apolice }, { page: 1 });
    expect(content.map((row) => String(row.id))).toEqual(expected);
    const other = await documentScopeFor(db, await viewerByEmail(db, 'parceiro.admin.rede1@parceiro.demo'));
    expect((await listDocuments(db, other, 'v2', { nrApolice: nr_apolice }, { page: 1 })).content).toEqual([]);
  });

  it('the insurer’s ADMIN holds more than a page of them', async () => {
    const viewer = await viewerByEmail(db, 'admin@seguradora.demo');
    const first = await listDocuments(db, await documentScopeFor(db, viewer), viewer.generation, {}, { page: 1 });
    expect(first.more).toBe(true);
  });
});

describe('the payments report (/relatorio-pagamento): its payments in the order paid', () => {
  /** Every payment of the demo, grown: the period a year's report covers, and wider. */
  const EVERY_DAY: Period = { de: '2000-01-01', ate: '2099-12-31' };
  /** The month of the payments confirmed in one instant: a narrower period, the report's one filter. */
  const ONE_MONTH: Period = { de: `${MONTH}-01`, ate: `${MONTH}-28` };

  /** What the scope sees of a period by the one scope condition, oldest first: what the pages must show, in order. */
  const expected = async (scope: Scope, generation: 'v1' | 'v2', period: Period) => {
    const { from, to } = periodBounds(period);
    return (
      await db
        .selectFrom('payments as pg')
        .innerJoin('installments as i', 'i.id', 'pg.installment_id')
        .innerJoin('policies as a', 'a.id', 'i.policy_id')
        .select(['a.nr_apolice', 'i.numero'])
        .where((eb) => soldWithin(scope, eb.ref('pg.user_id'), eb.ref('pg.company_id')))
        .where('pg.generation', '=', generation)
        .where('pg.pago_em', '>=', from)
        .where('pg.pago_em', '<', to)
        .orderBy('pg.pago_em')
        .orderBy('pg.id')
        .execute()
    ).map((r) => `${r.nr_apolice}/${r.numero}`);
  };
  const open = (scope: Scope, generation: 'v1' | 'v2', period: Period) => (link: PageLink) =>
    paymentsReport(db, scope, generation, period, pageRequestOf(link.page, link.cursor)).then((report) => report.payments);
  const key = (row: { nrApolice: string; numero: number }) => `${row.nrApolice}/${row.numero}`;

  /** Back from the last page by "Anterior" to page 1: every key, in the list's order. */
  async function walkBack(read: (link: PageLink) => Promise<KeysetPage<{ nrApolice: string; numero: number }>>, last: PageLink) {
    const pages: string[][] = [];
    let page = await read(last);
    for (let n = page.page; ; n--) {
      expect(page.page).toBe(n);
      pages.unshift(page.content.map(key));
      const previous = keysetPager(page).previous;
      if (!previous) break;
      page = await read(previous);
    }
    expect(page.page).toBe(1);
    return pages.flat();
  }

  /** The link to the last page of a list, reached by "Próxima" from page 1. */
  async function lastLink(read: (link: PageLink) => Promise<KeysetPage<unknown>>): Promise<PageLink> {
    let link: PageLink = { page: 1 };
    for (;;) {
      const next = keysetPager(await read(link)).next;
      if (!next) return link;
      link = next;
    }
  }

  const REPORT_PEOPLE = [...PEOPLE, ['the legacy admin group (everyone’s legacy payments)', 'admin@legado.demo']] as const;

  it.each(REPORT_PEOPLE)(
    '%s: every payment once, oldest first, forth to the last page and back to the first',
    async (_, email) => {
      const viewer = await viewerByEmail(db, email);
      const scope = await scopeFor(db, viewer, 'BOLETOS');
      const all = await expected(scope, viewer.generation, EVERY_DAY);
      expect(all.length).toBeGreaterThan(10);
      const read = open(scope, viewer.generation, EVERY_DAY);
      expect(await walk(read, key)).toEqual(all);
      expect(await walkBack(read, await lastLink(read))).toEqual(all);
      // The count is the totals' and exact; the pager shows it within the bound only.
      const first = await paymentsReport(db, scope, viewer.generation, EVERY_DAY, { page: 1 });
      expect(first.totals.total.count).toBe(all.length);
      expect(first.payments.total).toBe(all.length > 1000 ? undefined : all.length);
    },
    240_000,
  );

  it('a legacy manager’s own payments (a scope of one seller among everyone’s), forth and back', async () => {
    // GESTOR holds CLIENTES_CONSULTA_PAGAMENTO and sees the sales they made; the demo's manager sells
    // none, so this reads the legacy seller's as theirs.
    const seller = (await findUserByEmail(db, 'vendedor@legado.demo'))!;
    const scope: Scope = { kind: 'own', userId: seller.id };
    const all = await expected(scope, 'v1', EVERY_DAY);
    expect(all.length).toBeGreaterThan(10);
    const read = open(scope, 'v1', EVERY_DAY);
    expect(await walk(read, key)).toEqual(all);
    expect(await walkBack(read, await lastLink(read))).toEqual(all);
    const manager = await scopeFor(db, await viewerByEmail(db, 'gestor@legado.demo'), 'BOLETOS');
    expect(manager.kind).toBe('own');
  }, 240_000);

  it('payments confirmed in one microsecond are each shown once, across the pages they span', async () => {
    for (const [email, generation] of [
      ['admin@seguradora.demo', 'v2'],
      ['admin@legado.demo', 'v1'],
    ] as const) {
      const scope = await scopeFor(db, await viewerByEmail(db, email), 'BOLETOS');
      const { n } = (
        await sql<{
          n: number;
        }>`select count(*)::int as n from payments where generation = ${generation} and pago_em = ${ONE_INSTANT}::timestamptz`.execute(db)
      ).rows[0]!;
      expect(n).toBe(40);
      const all = await expected(scope, generation, ONE_MONTH);
      expect(all.length).toBeGreaterThan(40);
      const read = open(scope, generation, ONE_MONTH);
      expect(await walk(read, key)).toEqual(all);
      expect(await walkBack(read, await lastLink(read))).toEqual(all);
    }
  }, 240_000);

  it('keeps its period: a narrower one pages through its own payments only, and its cursors stay in it', async () => {
    const viewer = await viewerByEmail(db, 'admin@seguradora.demo');
    const scope = await scopeFor(db, viewer, 'BOLETOS');
    const october = await expected(scope, 'v2', ONE_MONTH);
    const every = await expected(scope, 'v2', EVERY_DAY);
    expect(october.length).toBeGreaterThan(10);
    expect(every.length).toBeGreaterThan(october.length);
    expect(await walk(open(scope, 'v2', ONE_MONTH), key)).toEqual(october);
    // A cursor of one period opened with another reads that other period's payments past its key.
    const second = keysetPager(await open(scope, 'v2', ONE_MONTH)({ page: 1 })).next!;
    const elsewhere = await open(scope, 'v2', EVERY_DAY)(second);
    expect(elsewhere.content.map(key)).toEqual(every.slice(every.indexOf(october[9]!) + 1, every.indexOf(october[9]!) + 11));
  }, 240_000);

  it('an address with a bad cursor reads its page by the number; one whose rows are gone reads the first', async () => {
    const viewer = await viewerByEmail(db, 'admin@legado.demo');
    const scope = await scopeFor(db, viewer, 'BOLETOS');
    const all = await expected(scope, 'v1', EVERY_DAY);
    const read = open(scope, 'v1', EVERY_DAY);
    for (const bad of ['bm90LWEtY3Vyc29y', 'not a cursor', '', 'YS4wLjIwMjYtMTEtMzJUMDA6MDA6MDAuMDAwMDAwWi4x']) {
      const page = await read({ page: 3, cursor: bad });
      expect(page.page).toBe(3);
      expect(page.content.map(key)).toEqual(all.slice(20, 30));
    }
    // After the end of time: nothing past it, so the first page.
    const gone = await read({ page: 5, cursor: Buffer.from('a.0.2099-12-31T23:59:59.999999Z.1').toString('base64url') });
    expect(gone.page).toBe(1);
    expect(gone.content.map(key)).toEqual(all.slice(0, 10));
  });

  it('exports every payment of the scope once, in the report’s order (the same keyset list, in batches)', async () => {
    const viewer = await viewerByEmail(db, 'admin@seguradora.demo');
    const scope = await scopeFor(db, viewer, 'BOLETOS');
    const all = await expected(scope, 'v2', EVERY_DAY);
    expect(all.length).toBeGreaterThan(1000); // more than two batches of 500
    const chunks: Buffer[] = [];
    for await (const chunk of paymentsCsv(db, scope, 'v2', EVERY_DAY)) chunks.push(Buffer.from(chunk));
    const lines = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .slice(1);
    // Apólice (quoted, a tab after the digits) and "n de N".
    const keys = lines.map((line) => {
      const cells = line.match(/("([^"]|"")*"|[^;]*)(;|$)/g)!.map((c) => c.replace(/;$/, ''));
      return `${cells[1]!.replace(/^"|\t"$/g, '')}/${cells[5]!.split(' de ')[0]}`;
    });
    expect(keys).toEqual(all);
  }, 240_000);
});
