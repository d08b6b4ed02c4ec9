import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { ACCENTED, searchableName } from '../../src/lib/insured-search';
import type { Scope } from '../../src/lib/scope';
import { listDocuments } from '../../src/server/services/after-sale/documents';
import { listInstallments } from '../../src/server/services/after-sale/payments';
import { listPolicies } from '../../src/server/services/after-sale/policies';
import { documentScopeFor, scopeFor } from '../../src/server/services/identity/scope';
import { grownDatabase } from '../fixtures/grown';
import { viewerByEmail } from '../fixtures/selling';

/**
 * Issue 29: the insured-name searches (policies, the payment lookups and 2ª via, documents) read the
 * stored nome_busca through its trigram index (migration 029, lib/insured-search.ts), on the demo
 * year grown 100× (some 11,000 policies; at 30× a
 * sequential scan of 3,000 is still the cheaper plan, and the planner rightly takes it).
 */
const TIMES = 100;
const TODAY = new Date().toISOString().slice(0, 10);
let db: DB;
let close: () => Promise<void>;
/** The statements run while `capturing`, with their parameters, to be explained. */
let captured: { sql: string; parameters: readonly unknown[] }[] = [];
let capturing = false;

const ADMIN = 'admin@seguradora.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const SELLER = 'parceiro@parceiro.demo';
const policiesScope = async (email: string) => scopeFor(db, await viewerByEmail(db, email), 'APOLICES');
const documentsScope = async (email: string) => documentScopeFor(db, await viewerByEmail(db, email));

/** Four v2 policies (and their quotes: documents search by the quote's insured) renamed: name → number. */
const named: Record<string, string> = {};
async function renameSome() {
  const picked = await db
    .selectFrom('policies')
    .select(['id', 'quote_id', 'nr_apolice'])
    .where('generation', '=', 'v2')
    .orderBy('id')
    .limit(4)
    .execute();
  const names = ['JOSÉ DA CONCEIÇÃO QUÍXABA', 'joão quíxaba', 'Maria_Antônia 100% Quixotê', 'Mariaxantonia 1000 Quixotê'];
  for (const [i, policy] of picked.entries()) {
    await db.updateTable('policies').set({ nome_segurado: names[i]! }).where('id', '=', policy.id).execute();
    await db.updateTable('quotes').set({ nome_segurado: names[i]! }).where('id', '=', policy.quote_id).execute();
    named[names[i]!] = policy.nr_apolice;
  }
}

beforeAll(async () => {
  ({ db, close } = await grownDatabase(TIMES, {
    onQuery: (text, parameters) => {
      if (capturing) captured.push({ sql: text, parameters });
    },
  }));
  await renameSome();
  await sql`analyze`.execute(db);
}, 300_000);
afterAll(() => close?.());

describe('the stored name the searches read', () => {
  it('is the name as lib/insured-search.ts searchableName makes it: one mapping of the accents', async () => {
    const id = (await db.selectFrom('policies').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const written = `Zoë ${ACCENTED} D'Ávila`;
    const row = await db
      .updateTable('policies')
      .set({ nome_segurado: written })
      .where('id', '=', id)
      .returning(['nome_busca', 'nome_segurado'])
      .executeTakeFirstOrThrow();
    expect(row.nome_busca).toBe(searchableName(written));
    expect(row.nome_busca).toBe(`zoe ${'aaaaaeeeeiiiiooooouuuucn'.repeat(2)} d'avila`);
  });
});

describe('a name search', () => {
  const found = async (segurado: string) => {
    const { content } = await listPolicies(db, await policiesScope(ADMIN), 'v2', { segurado }, { page: 1 }, TODAY);
    return Object.entries(named)
      .filter(([, nr]) => content.some((row) => row.nrApolice === nr))
      .map(([name]) => name)
      .sort();
  };

  it.each([
    ['jose conceicao quixaba', ['JOSÉ DA CONCEIÇÃO QUÍXABA']],
    ['QUIXABA Conceição', ['JOSÉ DA CONCEIÇÃO QUÍXABA']],
    ['JOAO quixaba', ['joão quíxaba']],
    ['quíxaba', ['JOSÉ DA CONCEIÇÃO QUÍXABA', 'joão quíxaba']],
    ['QUIXABA da', ['JOSÉ DA CONCEIÇÃO QUÍXABA']],
    ['maria_antonia quixote', ['Maria_Antônia 100% Quixotê']],
    ['100% quixote', ['Maria_Antônia 100% Quixotê']],
    ['QUIXOTÊ antônia', ['Maria_Antônia 100% Quixotê', 'Mariaxantonia 1000 Quixotê']],
    ['mariaxantonia', ['Mariaxantonia 1000 Quixotê']],
    ['quixote 1000', ['Mariaxantonia 1000 Quixotê']],
    ['conceicao quixote', []],
  ])('%j finds %j (each word anywhere, accents and case aside, wildcards literal)', async (typed, names) => {
    expect(await found(typed)).toEqual(names);
  });

  it('is the same in the payment lookups and the documents', async () => {
    const scope = await policiesScope(ADMIN);
    const installments = await listInstallments(db, scope, 'v2', { segurado: 'maria_antonia quixote' }, { page: 1 }, TODAY);
    expect(new Set(installments.content.map((i) => i.nrApolice))).toEqual(new Set([named['Maria_Antônia 100% Quixotê']]));
    const documents = await listDocuments(db, await documentsScope(ADMIN), 'v2', { segurado: 'CONCEIÇÃO quixaba' }, { page: 1 });
    expect(documents.content.every((d) => d.nomeSegurado === 'JOSÉ DA CONCEIÇÃO QUÍXABA')).toBe(true);
  });
});

describe('the plans', () => {
  /** Runs `list` capturing its statements, and answers the plan of each that searches (`marker`: a name). */
  const plansOf = async (list: () => Promise<unknown>, marker = 'nome_busca') => {
    captured = [];
    capturing = true;
    try {
      await list();
    } finally {
      capturing = false;
    }
    const searching = captured.filter((q) => q.sql.includes(marker));
    expect(searching.length).toBeGreaterThan(0);
    return Promise.all(
      searching.map(async (q) => {
        const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
        return rows.map((row) => Object.values(row)[0]).join('\n');
      }),
    );
  };
  /** An insured's name, as one searches for a customer. */
  const segurado = 'quixaba conceição';
  const lists: [string, 'policies', (scope: Scope) => Promise<unknown>][] = [
    ['policies', 'policies', (scope) => listPolicies(db, scope, 'v2', { segurado }, { page: 1 }, TODAY)],
    ['payment lookup', 'policies', (scope) => listInstallments(db, scope, 'v2', { segurado }, { page: 1 }, TODAY)],
    ['2ª via', 'policies', (scope) => listInstallments(db, scope, 'v2', { segurado }, { page: 1 }, TODAY, { openOnly: true })],
  ];

  it.each(lists)('the insurer’s admin: %s reads the trigram index of %s', async (_, table, list) => {
    // The search finds its matches through the index; the page's rows are then read by their keys (decision 078).
    const plans = await plansOf(async () => list(await policiesScope(ADMIN)));
    expect(plans.some((plan) => plan.includes(`${table}_nome_busca`))).toBe(true);
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on (policies|quotes)/);
  });

  it('the insurer’s admin: the documents read no whole table of quotes or policies', async () => {
    // Fewer documents than quotes: they may be read first, each quote then by its key (at 1000× on
    // PostgreSQL the plan starts from quotes_nome_busca instead, notes of issue 29).
    const scope = await documentsScope(ADMIN);
    for (const plan of await plansOf(() => listDocuments(db, scope, 'v2', { segurado }, { page: 1 }))) {
      expect(plan).not.toMatch(/Seq Scan on (policies|quotes)/);
    }
  });

  it.each([PARTNER_ADMIN, SELLER])('%s: no list reads every policy or quote to find a name', async (email) => {
    const plans = [
      ...(await Promise.all(lists.map(async ([, , list]) => plansOf(async () => list(await policiesScope(email)))))).flat(),
      ...(await plansOf(async () => listDocuments(db, await documentsScope(email), 'v2', { segurado }, { page: 1 }))),
    ];
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on (policies|quotes)/);
  });

  it('a document (CPF/CNPJ) is found by its index', async () => {
    const { documento_segurado } = await db
      .selectFrom('policies')
      .select('documento_segurado')
      .where('generation', '=', 'v2')
      .executeTakeFirstOrThrow();
    const scope = await policiesScope(ADMIN);
    const plans = await plansOf(
      () => listPolicies(db, scope, 'v2', { segurado: documento_segurado }, { page: 1 }, TODAY),
      '"documento_segurado" = $',
    );
    for (const plan of plans) {
      expect(plan).toContain('policies_documento_segurado');
    }
  });
});
