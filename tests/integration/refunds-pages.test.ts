import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';
import { viewerByEmail } from '../fixtures/selling';

/**
 * The refunds queue pages (issue 31) as anyone may post to them: plain forms that take whatever is
 * sent. No answer may throw (the page's 500); a refused form changes nothing — no refund moved, no
 * event, no e-mail, no access log row; bad input is a 4xx with the form's words. The demo seed holds a
 * refund owed in each generation.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { refundsQueuePage } = await import('../../src/features/refunds/refunds.server');

let db: DB;
let close: () => Promise<void>;
let admin: PortalSession;
let legacyAdmin: PortalSession;
let owed: { v1: number; v2: number };
const TABLES = ['refunds', 'refund_events', 'emails', 'access_events'];

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  admin = { v2: (await viewerByEmail(db, 'admin@seguradora.demo')).user } as PortalSession;
  legacyAdmin = { v1: (await viewerByEmail(db, 'suporte@legado.demo')).user } as PortalSession;
  const rows = await db.selectFrom('refunds').select(['id', 'generation']).where('status', '=', 'DEVIDA').execute();
  owed = { v1: rows.find((r) => r.generation === 'v1')!.id, v2: rows.find((r) => r.generation === 'v2')!.id };
});
afterAll(() => close());

const page = (generation: 'v1' | 'v2', session: PortalSession, request: Request, url: string) =>
  refundsQueuePage(generation, session, request, new URL(url), '10.0.0.1');

describe('the refunds queue under random input', () => {
  const value = fc.oneof(
    hostileText(),
    fc.constantFrom('', 'pagar', 'devolver', 'reabrir', 'PIX', 'CONTA', '0', '-1', 'OUTRO', '999999999'),
  );
  const fields = fc.dictionary(
    fc.constantFrom('acao', 'id', 'comprovante', 'motivo', 'detalhe', 'tipo', 'chave', 'banco', 'agencia', 'conta', 'tipoConta', 'titular'),
    value,
  );

  it('a refused post changes nothing; none throws', async () => {
    await fc.assert(
      fc.asyncProperty(fields, async (body) => {
        // The demo refunds' ids are not among the values: a valid action on one would be done (a redirect).
        const before = await tablesFingerprint(db, TABLES);
        const routed = await page('v2', admin, formPost('http://portal.test/v2/restituicoes', body), 'http://portal.test/v2/restituicoes');
        if ('redirect' in routed) return;
        expect(routed.status).toBeGreaterThanOrEqual(400);
        expect(routed.status).toBeLessThan(500);
        expect(await tablesFingerprint(db, TABLES)).toBe(before);
      }),
      { numRuns: 80 },
    );
  }, 120_000);

  it('any query answers a page or a 400, never a throw', async () => {
    const query = fc.dictionary(
      fc.constantFrom('situacao', 'nrApolice', 'page', 'cursor', 'corrigir', 'devolver', 'feito', 'apolice'),
      value,
    );
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const url = `http://portal.test/restituicoes?${new URLSearchParams(params)}`;
        const routed = await page('v1', legacyAdmin, new Request(url), url);
        expect('redirect' in routed).toBe(false);
        if (!('redirect' in routed)) expect([200, 400]).toContain(routed.status);
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});

describe('the actions through the page', () => {
  it('pays a refund with a post and answers 303 to "pagas"; the same post again changes nothing more', async () => {
    const body = { acao: 'pagar', id: String(owed.v2) };
    const first = await page('v2', admin, formPost('http://portal.test/v2/restituicoes', body), 'http://portal.test/v2/restituicoes');
    expect(first).toEqual({ redirect: expect.stringMatching(/^\/v2\/restituicoes\?situacao=pagas&feito=pagar&apolice=\d+$/) });
    const before = await tablesFingerprint(db, ['refunds', 'refund_events', 'emails']);
    const again = await page('v2', admin, formPost('http://portal.test/v2/restituicoes', body), 'http://portal.test/v2/restituicoes');
    expect(again).toEqual({ redirect: expect.stringContaining('&repetido=1') });
    expect(await tablesFingerprint(db, ['refunds', 'refund_events', 'emails'])).toBe(before);
  });

  it('a refund of the other generation is not found from this queue: the 404 words, nothing changed', async () => {
    const body = { acao: 'pagar', id: String(owed.v1) };
    const routed = await page('v2', admin, formPost('http://portal.test/v2/restituicoes', body), 'http://portal.test/v2/restituicoes');
    expect(routed).toMatchObject({ status: 404, props: { open: { failure: 'Restituição não encontrada.' } } });
    expect((await db.selectFrom('refunds').select('status').where('id', '=', owed.v1).executeTakeFirstOrThrow()).status).toBe('DEVIDA');
  });

  it('a return without its reason is the form again with the field’s error (400)', async () => {
    const body = { acao: 'devolver', id: String(owed.v2), motivo: '' };
    const routed = await page('v2', admin, formPost('http://portal.test/v2/restituicoes', body), 'http://portal.test/v2/restituicoes');
    expect(routed).toMatchObject({
      status: 400,
      props: { open: { action: 'devolver', errors: { motivo: ['Escolha o motivo da devolução.'] } } },
    });
  });
});
