import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';

/**
 * Issue 15: in production (PORTAL_ENV=PRD, the default) the commission module does not exist — SPEC
 * §2 gives it to DEV, HML and TEST only: every commission endpoint is a 404 for everyone, the ADMIN
 * included, while the income statement (not a commission screen) stays.
 */
vi.hoisted(() => {
  process.env.PORTAL_ENV = 'PRD';
});

let db: DB;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await freshDatabase({ afterSaleDemo: false })));
afterAll(() => close());

const token = async (email: string) => tokenOf((await signInApi(apiClient(db), email)).json) as string;

describe('commissions in production', () => {
  it.each([
    ['GET', '/api/bff/v1/comissoes/extrato'],
    ['GET', '/api/bff/v1/comissoes/notas'],
    ['POST', '/api/bff/v1/comissoes/notas?empresa=11222333000181&competencia=2026-03&numero=1&valor=100'],
    ['POST', '/api/bff/v1/comissoes/notas/1/decisao'],
    ['GET', '/api/bff/v1/comissoes/notas/1/arquivo'],
  ])('%s %s is not found, for the partner admin and the insurer’s admin alike', async (method, path) => {
    for (const email of ['parceiro.admin@parceiro.demo', 'admin@seguradora.demo']) {
      const answer = await apiClient(db)(method, path, {
        headers: { authtoken: await token(email) },
        ...(method === 'POST' ? { body: { decisao: 'APROVAR' } } : {}),
      });
      expect(answer.status, `${email} ${JSON.stringify(answer.json)}`).toBe(404);
    }
  });

  it('keeps the income statement', async () => {
    const answer = await apiClient(db)('GET', '/api/bff/v1/informes-rendimentos', {
      headers: { authtoken: await token('parceiro.admin@parceiro.demo') },
    });
    expect(answer.status).toBe(200);
  });
});
