import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { listAccessLog } from '../../src/server/services/identity/access-log';
import { analysisQueue } from '../../src/server/services/after-sale/acceptance';
import { containing } from '../../src/server/services/identity/users';
import { keysetPager, pageRequestOf, type KeysetPage, type PageLink } from '../../src/lib/keyset-pages';
import type { AccessLogFilters } from '../../src/lib/access-log';
import { normalizeCnpj } from '../../src/lib/validators';
import { grownDatabase } from '../fixtures/grown';
import { brasiliaDay } from '../../src/lib/format';
import { now } from '../../src/server/clock';

/**
 * Issue 29: the access log and the underwriter's queue read keyset pages (db/keyset-page.ts) — the log
 * newest first through one branch per filter, the queue its nearest deadline first. On the demo year
 * grown 12× (~11,000 events, more than the count's bound), walking "Próxima" from page 1 to the end
 * shows every row once in the order of the one plain query — for each filter, whose branches must be
 * disjoint and together whole — and "Anterior" returns the same page; rows sharing one microsecond are
 * neither skipped nor repeated.
 */
const TIMES = 12;
/** Last year and this one, by the run's calendar: the demo year and its growth fall inside, whatever the day. */
const THIS_YEAR = Number(brasiliaDay(now()).slice(0, 4));
const YEARS: Pick<AccessLogFilters, 'de' | 'ate'> = { de: `${THIS_YEAR - 1}-01-01`, ate: `${THIS_YEAR}-12-31` };
let db: DB;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES));
  // Thirty events written in one instant (an import); the log refuses updates, so its trigger steps aside here.
  await sql`alter table access_events disable trigger access_events_append_only`.execute(db);
  const instant = `${brasiliaDay(new Date(now().getTime() - 60 * 86_400_000))} 12:00:00.123456+00`;
  await sql`update access_events set created_at = ${instant}::timestamptz
    where id in (select id from access_events order by id limit 30)`.execute(db);
  await sql`alter table access_events enable trigger access_events_append_only`.execute(db);
  // Ten pending proposals sharing one deadline.
  await sql`update proposals set aceite_ate = '2026-12-10 12:00:00.654321+00'
    where id in (select id from proposals where status in ('EM_ANALISE', 'AGUARDANDO_DOCUMENTOS') order by id limit 10)`.execute(db);
}, 240_000);
afterAll(() => close());

/** Walks a keyset list from page 1 by its "Próxima" links; from every fifth page "Anterior" must give back the page before. */
async function walk<T>(
  open: (link: PageLink) => Promise<KeysetPage<T>>,
  key: (row: T) => unknown,
): Promise<{ seen: unknown[]; last: KeysetPage<T> }> {
  const seen: unknown[] = [];
  let previous: unknown[] = [];
  let page = await open({ page: 1 });
  for (let n = 1; ; n++) {
    expect(page.page).toBe(n);
    const rows = page.content.map(key);
    if (n % 5 === 0) expect((await open(keysetPager(page).previous!)).content.map(key)).toEqual(previous);
    seen.push(...rows);
    const next = keysetPager(page).next;
    if (!next) return { seen, last: page };
    previous = rows;
    page = await open(next);
  }
}

/** The log's rows by the filters' one plain condition (the joins and ORs the branches replace), newest first. */
const expectedLog = async (filters: Partial<AccessLogFilters>) =>
  (
    await db
      .selectFrom('access_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .leftJoin('users as a', 'a.id', 'e.actor_id')
      .leftJoin('companies as c', 'c.id', 'e.company_id')
      .select('e.id')
      .$if(filters.evento !== undefined, (qb) => qb.where('e.event', '=', filters.evento!))
      .$if(filters.usuario !== undefined, (qb) => {
        const p = containing(filters.usuario!);
        return qb.where((eb) =>
          eb.or([eb('e.email', 'ilike', p), eb('u.nome', 'ilike', p), eb('a.email', 'ilike', p), eb('a.nome', 'ilike', p)]),
        );
      })
      .$if(filters.empresa !== undefined, (qb) => {
        const p = containing(filters.empresa!);
        const cnpj = containing(normalizeCnpj(filters.empresa!));
        return qb.where((eb) => eb.or([eb('c.razao_social', 'ilike', p), eb('c.nome_fantasia', 'ilike', p), eb('c.cnpj', 'like', cnpj)]));
      })
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .execute()
  ).map((r) => r.id);

describe('the access log, keyset-paged', () => {
  it.each<[string, Partial<AccessLogFilters>, number]>([
    ['no filter', {}, 100],
    ['a user filter matching many users (their rows, the ones they did, typed e-mails)', { usuario: 'parceiro' }, 50],
    ['a company filter', { empresa: 'a' }, 100],
    ['an event', { evento: 'LOGIN' }, 50],
    ['an event and a user', { evento: 'LOGOUT', usuario: 'parceiro' }, 20],
  ])(
    'walks every row of %s once, newest first',
    async (_, filters, size) => {
      const all = await expectedLog(filters);
      expect(all.length).toBeGreaterThan(size);
      const open = (link: PageLink) => listAccessLog(db, { ...YEARS, ...filters }, pageRequestOf(link.page, link.cursor), size);
      const { seen, last } = await walk(open, (row) => row.id);
      expect(seen).toEqual(all);
      const first = await open({ page: 1 });
      expect(first.total).toBe(all.length > 1000 ? undefined : all.length);
      expect(last.more).toBe(false);
    },
    180_000,
  );

  it('walks every row of one user (their own index) once, newest first', async () => {
    const { email } = await db
      .selectFrom('access_events as e')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select('u.email')
      .groupBy('u.email')
      .orderBy(sql`count(*)`, 'desc')
      .executeTakeFirstOrThrow();
    const all = await expectedLog({ usuario: email });
    expect(all.length).toBeGreaterThan(20);
    const open = (link: PageLink) => listAccessLog(db, { ...YEARS, usuario: email }, pageRequestOf(link.page, link.cursor), 20);
    expect((await walk(open, (row) => row.id)).seen).toEqual(all);
  }, 120_000);

  it('more than 1,000 rows: no count, no last page; a page number alone reads by offset no further than the bound', async () => {
    const all = await expectedLog({});
    const first = await listAccessLog(db, YEARS, { page: 1 }, 20);
    expect([first.total, keysetPager(first).totalPages]).toEqual([undefined, undefined]);
    expect((await listAccessLog(db, YEARS, { page: 7 }, 20)).content.map((r) => r.id)).toEqual(all.slice(120, 140));
    const far = await listAccessLog(db, YEARS, { page: 999_999 }, 20);
    expect(far.page).toBe(51);
    expect(far.content.map((r) => r.id)).toEqual(all.slice(1000, 1020));
  }, 60_000);
});

describe('the analysis queue, keyset-paged', () => {
  const expectedQueue = async () =>
    (
      await db
        .selectFrom('proposals')
        .select('nr_proposta')
        .where('status', 'in', ['EM_ANALISE', 'AGUARDANDO_DOCUMENTOS'])
        .orderBy('aceite_ate')
        .orderBy('id')
        .execute()
    ).map((r) => r.nr_proposta);

  it('walks every undecided proposal once, the nearest deadline first, ties by id', async () => {
    const all = await expectedQueue();
    expect(all.length).toBeGreaterThan(12);
    const now = new Date();
    const open = (link: PageLink) => analysisQueue(db, now, pageRequestOf(link.page, link.cursor), 3);
    const { seen, last } = await walk(open, (row) => row.nrProposta);
    expect(seen).toEqual(all);
    expect(last.page).toBe(Math.ceil(all.length / 3));
    const first = await open({ page: 1 });
    expect(first.total).toBe(all.length);
    // The last page, reached from the first at once, and the first page back from it.
    const pager = keysetPager(first);
    const lastLink = pager.pages.at(-1) as PageLink;
    expect((await open(lastLink)).content.map((r) => r.nrProposta)).toEqual(all.slice((lastLink.page - 1) * 3));
  }, 120_000);

  it('the default page holds twenty and says how many in all', async () => {
    const all = await expectedQueue();
    const page = await analysisQueue(db, new Date());
    expect(page.content.map((r) => r.nrProposta)).toEqual(all.slice(0, 20));
    expect(page.total).toBe(all.length);
  });
});
