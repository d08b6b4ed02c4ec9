import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { NAME_SEARCH_LIMIT, REFINE_SEARCH } from '../../src/lib/insured-search';
import { brasiliaDay } from '../../src/lib/format';
import { countCaption, keysetPager } from '../../src/lib/keyset-pages';
import { now } from '../../src/server/clock';
import { listDocuments } from '../../src/server/services/after-sale/documents';
import { listInstallments } from '../../src/server/services/after-sale/payments';
import { listPolicies } from '../../src/server/services/after-sale/policies';
import { documentScopeFor, scopeFor } from '../../src/server/services/identity/scope';
import { apiClient, demoTokens } from '../fixtures/api';
import { grownDatabase } from '../fixtures/grown';
import { viewerByEmail } from '../fixtures/selling';

/**
 * Issue 42, item 13: a name shared by many insureds. In a large book a common name ("almeida", 1 % of
 * the insureds) matched thousands of records, and every list read them all — to order them newest
 * first and to count them — to show ten: the page grew with the book (×2.3 to ×3.4 from the demo year
 * to 1000× it, 145–226 ms at 10,000×). Now a name search reads at most NAME_SEARCH_LIMIT of its
 * matches, ranks them by how close the name is to what was typed, and says "refine a busca" when more
 * matched — on the page (the caption and the notice) and in the API's answer.
 *
 * The demo year grown 25× (about 2,700 policies), then 600 of the v2 policies and every v2 quote with
 * a document given the surname "Quixaba" (their documents follow their quote, migration 055) — those
 * with open installments first: more than the limit of policies, of open installments and of documents
 * share it.
 */
const TIMES = 25;
const RENAMED = 600;
/** The servers' own day (Brasília's), as the pages ask: it only tells a policy in force from an ended one here. */
const TODAY = brasiliaDay(now());
const ADMIN = 'admin@seguradora.demo';
/** The first names given in turn; three of them hold "ana", so "ana quixaba" matches fewer than the limit. */
const FIRST_NAMES = ['Bruno', 'Mariana', 'Carlos', 'Luana', 'Diego', 'Ana Paula', 'Eduardo', 'Felipe', 'Gustavo', 'Heitor'];
/** The one insured named exactly as a person would type them. */
const EXACT = 'Ana Quixaba';

let db: DB;
let close: () => Promise<void>;
let captured: { sql: string; parameters: readonly unknown[] }[] = [];
let capturing = false;

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES, {
    onQuery: (text, parameters) => {
      if (capturing) captured.push({ sql: text, parameters });
    },
  }));
  // One statement per table: 600 policies, their quotes, and every other quote that has a document.
  const names = sql.join(FIRST_NAMES.map((name) => sql.lit(name)));
  await sql`with picked as (
      select id, quote_id, row_number() over (order by id) - 1 as i from (
        -- Those with open installments first: how many are still open depends on the day the year was generated.
        select id, quote_id from policies p where generation = 'v2'
        order by not exists (select 1 from installments i where i.policy_id = p.id and i.status = 'ABERTA'), id limit ${RENAMED}
      ) chosen
    ), named as (
      select id, quote_id, case when i = 0 then ${EXACT} else (array[${names}])[i % ${FIRST_NAMES.length} + 1] || ' Quixaba ' || i end as name from picked
    ), policy as (
      update policies p set nome_segurado = named.name from named where p.id = named.id
    )
    update quotes q set nome_segurado = named.name from named where q.id = named.quote_id`.execute(db);
  await sql`update quotes q set nome_segurado = 'Zuleica Quixaba ' || q.id
    where q.generation = 'v2' and q.nome_segurado not like '%Quixaba%'
      and exists (select 1 from proposals p join documents d on d.proposal_id = p.id where p.quote_id = q.id)`.execute(db);
  // The growth leaves about 200 v2 documents: each sent twice, so the name's outnumber the limit.
  await sql`insert into documents (proposal_id, user_id, categoria, nome, mime, tamanho, sha256, created_at)
    select proposal_id, user_id, categoria, nome, mime, tamanho, sha256, created_at + interval '1 minute'
    from documents where generation = 'v2'`.execute(db);
  await sql`analyze`.execute(db);
}, 600_000);
afterAll(() => close?.());

const policiesScope = async () => scopeFor(db, await viewerByEmail(db, ADMIN), 'APOLICES');
const documentsScope = async () => documentScopeFor(db, await viewerByEmail(db, ADMIN));

/** The statements `work` ran, explained as they ran (EXPLAIN ANALYZE). */
async function plansOf(work: () => Promise<unknown>): Promise<string[]> {
  captured = [];
  capturing = true;
  try {
    await work();
  } finally {
    capturing = false;
  }
  return Promise.all(
    captured.map(async (q) => {
      const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain analyze ${q.sql}`, [...q.parameters]));
      return rows.map((row) => Object.values(row)[0]).join('\n');
    }),
  );
}

/** The most rows any scan of `table` gave in `plans` (rows × loops of each scan node). */
function mostRowsRead(plans: string[], table: string): number {
  const scan = new RegExp(`Scan(?: Backward)?(?: using \\S+)? on ${table}\\b[^\\n]*rows=([\\d.]+) loops=(\\d+)`, 'g');
  return Math.max(0, ...plans.flatMap((plan) => [...plan.matchAll(scan)].map((m) => Number(m[1]) * Number(m[2]))));
}

describe('a name more than NAME_SEARCH_LIMIT records share', () => {
  it('policies: the page reads at most the limit of its matches, and asks to refine the search', async () => {
    const scope = await policiesScope();
    const plans = await plansOf(() => listPolicies(db, scope, 'v2', { segurado: 'quixaba' }, { page: 1 }, TODAY));
    expect(mostRowsRead(plans, 'policies')).toBeGreaterThan(0);
    expect(mostRowsRead(plans, 'policies')).toBeLessThanOrEqual(NAME_SEARCH_LIMIT + 1);

    const page = await listPolicies(db, scope, 'v2', { segurado: 'quixaba' }, { page: 1 }, TODAY);
    expect(page.content).toHaveLength(10);
    expect(page.ranked).toEqual({ limit: NAME_SEARCH_LIMIT, exceeded: true });
    expect(countCaption(page.total, 'apólice', 'apólices', page.ranked)).toBe(
      `mais de ${NAME_SEARCH_LIMIT} apólices, o nome mais parecido primeiro`,
    );
    // Paged by number over what was read: twenty pages of ten, a page past them is the last.
    expect(keysetPager(page).totalPages).toBe(NAME_SEARCH_LIMIT / 10);
    expect(keysetPager(page).next).toEqual({ page: 2 });
    const last = await listPolicies(db, scope, 'v2', { segurado: 'quixaba' }, { page: 99 }, TODAY);
    expect(last.page).toBe(NAME_SEARCH_LIMIT / 10);
    expect(last.content).toHaveLength(10);
    expect(last.more).toBe(false);
  });

  it('policies: what a person types in full comes first, wherever it is in the book', async () => {
    const page = await listPolicies(db, await policiesScope(), 'v2', { segurado: 'ANA quíxaba' }, { page: 1 }, TODAY);
    expect(page.ranked).toEqual({ limit: NAME_SEARCH_LIMIT, exceeded: false });
    expect(page.content[0]!.nomeSegurado).toBe(EXACT);
    // Every match counted: "Mariana", "Luana" and "Ana Paula" hold "ana" too.
    const matching = await db
      .selectFrom('policies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('generation', '=', 'v2')
      .where('nome_segurado', 'ilike', '%ana%quixaba%')
      .executeTakeFirstOrThrow();
    expect(page.total).toBe(Number(matching.n));
  });

  // Which plan reads the installments of a name depends on the size of the book (on 2,700 policies
  // PostgreSQL rightly reads them all with a hash join); the bench's scale phase measures it at 1000×.
  it('2ª via and the payment lookup: the installments of at most the limit', async () => {
    const scope = await scopeFor(db, await viewerByEmail(db, ADMIN), 'BOLETOS');
    for (const openOnly of [true, false]) {
      const page = await listInstallments(db, scope, 'v2', { segurado: 'quixaba' }, { page: 1 }, TODAY, { openOnly });
      expect(page.ranked).toEqual({ limit: NAME_SEARCH_LIMIT, exceeded: true });
      expect(page.total).toBe(NAME_SEARCH_LIMIT);
      expect(page.content).toHaveLength(10);
      expect(page.content.every((line) => /quixaba/i.test(line.nomeSegurado))).toBe(true);
    }
  });

  it('documents: searched on their own copy of the name (migration 055), at most the limit read', async () => {
    const scope = await documentsScope();
    const matching = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('nome_busca', 'like', '%quixaba%')
      .where('generation', '=', 'v2')
      .executeTakeFirstOrThrow();
    expect(Number(matching.n)).toBeGreaterThan(NAME_SEARCH_LIMIT);
    const plans = await plansOf(() => listDocuments(db, scope, 'v2', { segurado: 'quixaba' }, { page: 1 }));
    expect(mostRowsRead(plans, 'documents')).toBeGreaterThan(0);
    expect(mostRowsRead(plans, 'documents')).toBeLessThanOrEqual(NAME_SEARCH_LIMIT + 1);
    const page = await listDocuments(db, scope, 'v2', { segurado: 'quixaba' }, { page: 1 });
    expect(page.ranked?.exceeded).toBe(true);
    expect(page.content.every((row) => /quixaba/i.test(row.nomeSegurado))).toBe(true);
  });

  it('the documents API says it in its answer: refinarBusca and the pt-BR notice, pages by number', async () => {
    const call = apiClient(db);
    const headers = await demoTokens(call)(ADMIN);
    const wide = await call('GET', '/api/bff/v1/documentos?segurado=quixaba', { headers });
    expect(wide.status).toBe(200);
    expect(wide.json.dado).toMatchObject({ page: 1, more: true, refinarBusca: true, aviso: REFINE_SEARCH, next: { page: 2 } });
    expect(wide.json.dado.totalElements).toBeUndefined();
    expect(wide.json.dado.content).toHaveLength(10);
    const second = await call('GET', '/api/bff/v1/documentos?segurado=quixaba&page=2', { headers });
    expect(second.json.dado).toMatchObject({ page: 2, refinarBusca: true, previous: { page: 1 } });
    const ids = (answer: typeof wide) => answer.json.dado.content.map((d: { id: number }) => d.id);
    expect(ids(second).some((id: number) => ids(wide).includes(id))).toBe(false);

    // One insured's whole name: a handful of documents, counted, nothing to refine.
    const one = wide.json.dado.content[0].nomeSegurado;
    const narrow = await call('GET', `/api/bff/v1/documentos?segurado=${encodeURIComponent(one)}`, { headers });
    expect(narrow.json.dado).toMatchObject({ refinarBusca: false, totalElements: expect.any(Number) });
    expect(narrow.json.dado.content[0].nomeSegurado).toBe(one);
    expect(narrow.json.dado.aviso).toBeUndefined();
  });
});
