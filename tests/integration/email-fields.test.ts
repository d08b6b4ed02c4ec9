import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';

/**
 * Issue 42 item 4: sending a document to the insured accepted `"a"@[127.0.0.1]`. Through the API of
 * both generations, an address with a quoted local part or an IP literal is a 400 whose field error
 * is the field's own pt-BR message, and nothing is queued. (The rule itself, as a table, is
 * src/lib/email-field.test.ts.)
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let as: ReturnType<typeof demoTokens>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  as = demoTokens(call);
}, 120_000);
afterAll(() => close());

const policyOf = async (generation: 'v1' | 'v2') =>
  (
    await db
      .selectFrom('policies')
      .select('nr_apolice')
      .where('generation', '=', generation)
      .where('status', '=', 'VIGENTE')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).nr_apolice;
const queued = async () =>
  Number(
    (
      await db
        .selectFrom('emails')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('an address that is not one, where a document goes to the insured', () => {
  it.each([
    ['v2', '/api/bff', 'parceiro@parceiro.demo'],
    ['v1', '/api/plataforma', 'vendedor@legado.demo'],
  ] as const)('%s: quoted local parts and IP literals are "E-mail inválido", nothing sent', async (generation, base, seller) => {
    const headers = await as(seller);
    const nrApolice = await policyOf(generation);
    const before = await queued();
    for (const email of ['"a"@[127.0.0.1]', 'a@[127.0.0.1]', '"a b"@exemplo.com.br', 'a@127.0.0.1']) {
      const sent = await call('POST', `${base}/v1/apolices/${nrApolice}/envios`, { headers, body: { tipo: 'apolice', email } });
      expect(sent.status, email).toBe(400);
      expect(JSON.stringify(sent.json), email).toContain('E-mail inválido');
    }
    expect(await queued()).toBe(before);
    const good = await call('POST', `${base}/v1/apolices/${nrApolice}/envios`, {
      headers,
      body: { tipo: 'apolice', email: 'segurado.novo@exemplo.com.br' },
    });
    expect(good.status).toBe(200);
  });
});
