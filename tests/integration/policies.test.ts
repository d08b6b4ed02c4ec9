import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { findPolicy, listPolicies } from '../../src/server/services/after-sale/policies';
import { scopeFor } from '../../src/server/services/identity/scope';

/**
 * Issue 13: who sees which policy (lib/scope.ts through services/identity/scope.ts), and the list's filters.
 * The demo partner's life proposal is accepted straight through when the seed sells it.
 */
let db: DB;
let close: () => Promise<void>;
let nrApolice: string;
const TODAY = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  nrApolice = (await db.selectFrom('policies').select('nr_apolice').executeTakeFirstOrThrow()).nr_apolice;
});
afterAll(() => close());

const viewer = (email: string) => viewerByEmail(db, email);
const seen = async (email: string) => {
  const v = await viewer(email);
  const scope = await scopeFor(db, v, 'APOLICES');
  return {
    list: (await listPolicies(db, scope, v.generation, {}, { page: 1 }, TODAY)).content.map((p) => p.nrApolice),
    detail: await findPolicy(db, scope, v.generation, nrApolice, TODAY),
  };
};

describe('who sees the demo partner’s policy', () => {
  it.each([
    ['the seller (APOLICE_VENDEDOR)', 'parceiro@parceiro.demo', true],
    ['the partner admin of the company', 'parceiro.admin@parceiro.demo', true],
    ['the provider’s admin', 'admin@seguradora.demo', true],
    ['a sub-delegated user without the operation', 'substabelecido@parceiro.demo', false],
    ['a legacy seller (another generation)', 'vendedor@legado.demo', false],
  ])('%s: %s', async (_, email, sees) => {
    const { list, detail } = await seen(email);
    expect(list.includes(nrApolice)).toBe(sees);
    expect(detail !== undefined).toBe(sees);
  });

  it('shows the policy with its coverages, premium and installments adding up to it', async () => {
    const { detail } = await seen('parceiro@parceiro.demo');
    expect(detail).toMatchObject({
      nrApolice,
      nomeSegurado: DEMO_INSURED.vida.nome,
      documentoSegurado: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/),
      status: 'VIGENTE',
      seller: 'Eduarda Lima',
    });
    expect(detail!.coverages.length).toBeGreaterThan(0);
    expect(detail!.installments.reduce((sum, i) => sum + i.valor, 0)).toBe(detail!.premioTotal);
  });
});

describe('the filters', () => {
  const list = async (filters: Parameters<typeof listPolicies>[3], today = TODAY) => {
    const scope = await scopeFor(db, await viewer('admin@seguradora.demo'), 'APOLICES');
    return (await listPolicies(db, scope, 'v2', filters, { page: 1 }, today)).content.map((p) => p.nrApolice);
  };
  it('by number, insured name (any case, part of it) or document, product and term', async () => {
    expect(await list({ nrApolice })).toEqual([nrApolice]);
    expect(await list({ nrApolice: '1' })).toEqual([]);
    expect(await list({ segurado: 'nogueira' })).toEqual([nrApolice]);
    // Every word, in any order, accents and case aside.
    expect(await list({ segurado: 'PINTO  rafael' })).toEqual([nrApolice]);
    expect(await list({ segurado: 'rafael souza' })).toEqual([]);
    expect(await list({ segurado: 'Nogueíra' })).toEqual([nrApolice]);

    expect(await list({ segurado: DEMO_INSURED.vida.cpf.replace(/\D/g, '') })).toEqual([nrApolice]);
    expect(await list({ segurado: '%' })).toEqual([]);
    expect(await list({ produto: 'VEU' })).toEqual([nrApolice]);
    expect(await list({ produto: 'RES' })).not.toContain(nrApolice);
    expect(await list({ vigenteEm: '2000-01-01' })).toEqual([]);
  });

  it('by state: in force today, expired once its term ended', async () => {
    expect(await list({ situacao: 'VIGENTE' })).toContain(nrApolice);
    expect(await list({ situacao: 'VENCIDA' })).not.toContain(nrApolice);
    const later = '2099-01-01';
    expect(await list({ situacao: 'VENCIDA' }, later)).toContain(nrApolice);
    expect(await list({ situacao: 'VIGENTE' }, later)).toEqual([]);
    // Only the demo's policy cancelled with a refund owed (issue 31), not this one.
    const cancelled = await list({ situacao: 'CANCELADA' });
    expect(cancelled).toHaveLength(1);
    expect(cancelled).not.toContain(nrApolice);
  });
});
