import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { listPolicies } from '../../src/server/services/after-sale/policies';
import { scopeFor, soldWithin } from '../../src/server/services/identity/scope';
import { decodeCursor, keysetPager, pageRequestOf, type KeysetPage, type PageLink } from '../../src/lib/keyset-pages';
import type { PolicyFilters } from '../../src/lib/policies';
import type { Scope } from '../../src/lib/scope';
import { viewerByEmail } from '../fixtures/selling';
import { grownDatabase } from '../fixtures/grown';

/**
 * Keyset pages (lib/keyset-pages.ts, db/keyset-page.ts) on the demo year grown 12× (~1,300 policies,
 * more than the count's bound): walking the links from page 1 to the end shows every policy of the
 * scope once, in the order the one scope condition gives, for each kind of scope (everyone's, a
 * partner's companies plus the admin's own, a seller's own); back links return the same page; the
 * last page is reached from page 1 when the count is known; rows sharing one microsecond are neither
 * skipped nor repeated.
 */
const TIMES = 12;
const TODAY = '2026-11-27';
let db: DB;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES));
  // Forty policies of one partner issued in one instant, as an import or an operator's fix writes them.
  await sql`update policies set emitida_em = '2026-10-01 12:00:00.123456+00'
    where id in (select id from policies where company_id is not null order by id limit 40)`.execute(db);
}, 240_000);
afterAll(() => close());

const scopeOf = async (email: string) => {
  const viewer = await viewerByEmail(db, email);
  return { scope: await scopeFor(db, viewer, 'APOLICES'), generation: viewer.generation };
};

/** What the scope sees, newest first, by the one OR condition: what the pages must show, in order. */
const expected = async (scope: Scope, generation: 'v1' | 'v2', produto?: string) =>
  (
    await db
      .selectFrom('policies as a')
      .select('a.nr_apolice')
      .where((eb) => soldWithin(scope, eb.ref('a.user_id'), eb.ref('a.company_id')))
      .where('a.generation', '=', generation)
      .$if(produto !== undefined, (qb) => qb.where('a.simulator_code', '=', produto!))
      .orderBy('a.emitida_em', 'desc')
      .orderBy('a.id', 'desc')
      .execute()
  ).map((r) => r.nr_apolice);

const open = (scope: Scope, generation: 'v1' | 'v2', link: PageLink, filters: PolicyFilters = {}) =>
  listPolicies(db, scope, generation, filters, pageRequestOf(link.page, link.cursor), TODAY);
const numbers = (page: KeysetPage<{ nrApolice: string }>) => page.content.map((r) => r.nrApolice);

describe.each([
  ['the insurer’s ADMIN (everyone’s)', 'admin@seguradora.demo'],
  ['a partner admin (the companies’ branches and the own one)', 'parceiro.admin@parceiro.demo'],
  ['a seller (the own branch)', 'parceiro@parceiro.demo'],
])('%s', (_, email) => {
  it('walks from the first page to the last by "Próxima", every policy once, in order', async () => {
    const { scope, generation } = await scopeOf(email);
    const all = await expected(scope, generation);
    expect(all.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let page = await open(scope, generation, { page: 1 });
    for (let n = 1; ; n++) {
      expect(page.page).toBe(n);
      seen.push(...numbers(page));
      const pager = keysetPager(page);
      if (!pager.next) break;
      expect(decodeCursor(pager.next.cursor)?.direction).toBe('after');
      // Back from the next page lands on this one, row for row.
      const next = await open(scope, generation, pager.next);
      const back = keysetPager(next).previous!;
      expect(numbers(await open(scope, generation, back))).toEqual(numbers(page));
      page = next;
    }
    expect(seen).toEqual(all);
    expect(page.total === undefined).toBe(all.length > 1000);
  }, 120_000);
});

describe('counts and the last page', () => {
  it('a scope past the bound says "mais de" and offers no last page; a filtered one its last, reached at once', async () => {
    const { scope } = await scopeOf('admin@seguradora.demo');
    const first = await open(scope, 'v2', { page: 1 });
    expect((await expected(scope, 'v2')).length).toBeGreaterThan(1000);
    expect(first.total).toBeUndefined();
    expect(keysetPager(first).totalPages).toBeUndefined();

    const produto = (await db.selectFrom('policies').select('simulator_code').where('generation', '=', 'v2').executeTakeFirstOrThrow())
      .simulator_code;
    const all = await expected(scope, 'v2', produto);
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThanOrEqual(1000);
    const filtered = await open(scope, 'v2', { page: 1 }, { produto });
    expect(filtered.total).toBe(all.length);
    const pager = keysetPager(filtered);
    const lastLink = pager.pages[pager.pages.length - 1] as PageLink;
    expect(lastLink.page).toBe(Math.ceil(all.length / 10));
    const last = await open(scope, 'v2', lastLink, { produto });
    expect(numbers(last)).toEqual(all.slice((lastLink.page - 1) * 10));
    expect(last.more).toBe(false);
  });

  it('a page number alone (an old link) reads by offset within the bound, and past it the last page it reaches', async () => {
    const { scope } = await scopeOf('admin@seguradora.demo');
    const all = await expected(scope, 'v2');
    expect(numbers(await open(scope, 'v2', { page: 7 }))).toEqual(all.slice(60, 70));
    const far = await open(scope, 'v2', { page: 999_999 });
    expect(far.page).toBe(101);
    expect(numbers(far)).toEqual(all.slice(1000, 1010));
  });

  it('a cursor whose rows are gone reads the first page', async () => {
    const { scope } = await scopeOf('parceiro@parceiro.demo');
    const cursor = 'YS4wLjE5OTAtMDEtMDFUMDA6MDA6MDAuMDAwMDAwWi4x'; // after 1990-01-01, id 1: nothing older
    expect(decodeCursor(cursor)).toBeDefined();
    const page = await open(scope, 'v2', { page: 5, cursor });
    expect(page.page).toBe(1);
    expect(numbers(page)).toEqual((await expected(scope, 'v2')).slice(0, 10));
  });
});
