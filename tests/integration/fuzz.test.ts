import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { freshDatabase } from '../fixtures/db';
import { hostileSegment, hostileText, hostileUnit, MALFORMED_ESCAPES } from '../fixtures/hostile-text';
import { tablesFingerprint } from '../fixtures/page-forms';

/**
 * Property-based fuzzing of every API endpoint: random and malformed bodies, query strings, path
 * parameters and headers — text with NUL, lone surrogates, other control and astral characters,
 * escapes that do not decode. No answer may be a 5xx or carry a stack trace, and the business data
 * may not change (audit rows — rate-limit counters and access events — are allowed to grow).
 */
let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());

const BUSINESS_TABLES = [
  'users',
  'companies',
  'points_of_sale',
  'user_companies',
  'user_operations',
  'permission_groups',
  'group_permissions',
  'user_groups',
  'sessions',
  'one_time_codes',
  'emails',
  'simulators',
  'offers',
  'quotes',
  'proposals',
  'policies',
  'installments',
  'charges',
  'payments',
  'receipts',
  'endorsements',
  'refunds',
  'documents',
  'document_uploads',
  'notas_fiscais',
  'sales_targets',
  'sales_reports',
  'user_admin_drafts',
  'channels',
  'v2_permission_groups',
  'v2_permission_group_operations',
  'user_imports',
  'user_import_rows',
  'company_drafts',
  // Issue 32: the second factor — nothing a stranger sends may set one up, use one or open a step.
  'user_factors',
  'recovery_codes',
  'trusted_devices',
  'sign_in_challenges',
  // Bulk actions on users (issue 32).
  'user_bulk_jobs',
  'user_bulk_items',
];

const fingerprint = () => tablesFingerprint(db, BUSINESS_TABLES);

const printable = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

const unit = hostileUnit;
const text = hostileText();
const pathSegment = hostileSegment;

const bodyText = fc.oneof(
  fc.anything().map((v) => JSON.stringify(v) ?? ''),
  fc.anything({ stringUnit: unit }).map((v) => JSON.stringify(v) ?? ''),
  fc.json(),
  fc.string({ maxLength: 200 }),
  text,
  fc
    .record({ user_name: fc.anything(), password: fc.anything(), userName: fc.anything(), email: fc.anything() })
    .map((v) => JSON.stringify(v)),
  fc
    .record({ user_name: text, password: text, userName: text, email: text, token: text, codigo: text, senha: text })
    .map((v) => JSON.stringify(v)),
  fc.dictionary(text, text, { maxKeys: 3 }).map((v) => JSON.stringify(v)),
  fc.constant('{"user_name": "vendedor@legado.demo", "password": '),
);

const headers = fc.record({
  authtoken: fc.option(printable, { nil: undefined }),
  empresa: fc.option(printable, { nil: undefined }),
  nmIdSessao: fc.option(printable, { nil: undefined }),
  cookie: fc.option(
    fc.oneof(printable, fc.constantFrom(...MALFORMED_ESCAPES)).map((s) => `tokenV2=${s}; tokenV1=${s}`),
    { nil: undefined },
  ),
  'content-type': fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'), {
    nil: undefined,
  }),
  'x-portal-session': fc.option(fc.constantFrom('cookie', 'x'), { nil: undefined }),
  // The document upload's file name (percent-encoded UTF-8, or not).
  'x-nome-arquivo': fc.option(fc.oneof(printable, fc.constantFrom(...MALFORMED_ESCAPES)), { nil: undefined }),
});

const QUERY_KEYS = [
  'page',
  'page-size',
  'email',
  'nome',
  'empresa',
  'status',
  'APP_NAME',
  'tipo',
  'produto',
  'categoria',
  'nrProposta',
  'segurado',
  'de',
  'ate',
  // The commission statement's and the nota fiscal upload's (issue 15).
  'competencia',
  'numero',
  'valor',
  // The hierarchy's search (issue 17).
  'busca',
  // The partners' and substabelecidos' (issue 17).
  'cnpj',
  'pagina',
  'acao',
  // The access log's filters and the points of sale's (issue 17).
  'usuario',
  'evento',
  'registro',
  'situacao',
  // A keyset page's cursor (issue 29): the access log's API reads it.
  'cursor',
  // The users export's format (issue 32).
  'formato',
  'x',
];
/** A query string: well-encoded pairs (URLSearchParams turns a lone surrogate into U+FFFD), plus raw ones that are not. */
const query = fc
  .tuple(
    fc
      .dictionary(fc.constantFrom(...QUERY_KEYS), fc.oneof(printable, text), { maxKeys: 4 })
      .map((params) => new URLSearchParams(params).toString()),
    fc.array(
      fc.tuple(fc.constantFrom(...QUERY_KEYS, '%00'), fc.constantFrom(...MALFORMED_ESCAPES)).map(([key, value]) => `${key}=a${value}b`),
      { maxLength: 2 },
    ),
  )
  .map(([encoded, raw]) => [encoded, ...raw].filter(Boolean).join('&'));

describe.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s under random input', (_, e) => {
  it('never answers 5xx, never leaks a stack trace, never changes business data', async () => {
    const before = await fingerprint();
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathSegment, { minLength: 3, maxLength: 3 }),
        bodyText,
        query,
        headers,
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.boolean(),
        async (segments, body, search, rawHeaders, otherMethod, useOtherMethod) => {
          let index = 0;
          const path = e.path.replace(/:\w+/g, () => segments[index++] ?? 'x');
          const method = useOtherMethod ? otherMethod : e.method;
          const requestHeaders = new Headers();
          for (const [name, value] of Object.entries(rawHeaders)) if (value !== undefined) requestHeaders.set(name, value);
          const response = await api.handle(
            new Request(`http://portal.test${path}${search ? `?${search}` : ''}`, {
              method,
              headers: requestHeaders,
              body: method === 'GET' ? undefined : body,
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
