import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { freshDatabase } from '../fixtures/db';

/**
 * Property-based fuzzing of every API endpoint: random and malformed bodies, query strings, path
 * parameters and headers. No answer may be a 5xx or carry a stack trace, and the business data may
 * not change (audit rows — rate-limit counters and access events — are allowed to grow).
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const BUSINESS_TABLES = ['users', 'companies', 'points_of_sale', 'user_companies', 'user_operations', 'permission_groups',
  'group_permissions', 'user_groups', 'sessions', 'one_time_codes', 'emails', 'simulators', 'offers', 'quotes', 'proposals'];

async function fingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const table of BUSINESS_TABLES) {
    const { rows } = await sql<{ t: string }>`select coalesce(string_agg(t::text, '|' order by t::text), '') as t from ${sql.table(table)} t`.execute(db);
    hash.update(`${table}:${rows[0]?.t ?? ''}`);
  }
  return hash.digest('hex');
}

const printable = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const pathSegment = fc.oneof(printable.filter((s) => s.length > 0 && !s.includes('/') && !s.includes('?') && !s.includes('#')), fc.integer().map(String));

const bodyText = fc.oneof(
  fc.anything().map((v) => JSON.stringify(v) ?? ''),
  fc.json(),
  fc.string({ maxLength: 200 }),
  fc.record({ user_name: fc.anything(), password: fc.anything(), userName: fc.anything(), email: fc.anything() }).map((v) => JSON.stringify(v)),
  fc.constant('{"user_name": "vendedor@legado.demo", "password": '),
);

const headers = fc.record({
  authtoken: fc.option(printable, { nil: undefined }),
  empresa: fc.option(printable, { nil: undefined }),
  nmIdSessao: fc.option(printable, { nil: undefined }),
  cookie: fc.option(printable.map((s) => `tokenV2=${s}; tokenV1=${s}`), { nil: undefined }),
  'content-type': fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'), { nil: undefined }),
  'x-portal-session': fc.option(fc.constantFrom('cookie', 'x'), { nil: undefined }),
});

const query = fc.dictionary(fc.constantFrom('page', 'page-size', 'email', 'nome', 'empresa', 'status', 'APP_NAME', 'x'), printable, { maxKeys: 4 });

describe.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s under random input', (_, e) => {
  it('never answers 5xx, never leaks a stack trace, never changes business data', async () => {
    const before = await fingerprint();
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathSegment, { minLength: 3, maxLength: 3 }), bodyText, query, headers,
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), fc.boolean(),
        async (segments, body, params, rawHeaders, otherMethod, useOtherMethod) => {
          let index = 0;
          const path = e.path.replace(/:\w+/g, () => encodeURIComponent(segments[index++] ?? 'x'));
          const method = useOtherMethod ? otherMethod : e.method;
          const search = new URLSearchParams(params).toString();
          const requestHeaders = new Headers();
          for (const [name, value] of Object.entries(rawHeaders)) if (value !== undefined) requestHeaders.set(name, value);
          const response = await api.handle(
            new Request(`http://portal.test${path}${search ? `?${search}` : ''}`, {
              method, headers: requestHeaders, body: method === 'GET' ? undefined : body,
            }),
            { ip: '10.1.2.3', db: async () => db },
          );
          calls += 1;
          const text = await response.text();
          expect(response.status, `${method} ${path} → ${text}`).toBeLessThan(500);
          expect(text).not.toMatch(/\n\s+at |Error: |node_modules/);
          if (response.status >= 400) expect(JSON.parse(text)).toMatchObject({ status: response.status, message: expect.any(String) });
        },
      ),
      { numRuns: 1000 },
    );
    expect(calls).toBe(1000);
    expect(await fingerprint()).toBe(before);
  }, 120_000);
});
