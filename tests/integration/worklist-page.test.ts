import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import { resolvePortalSession } from '../../src/server/services/identity/portal-session';
import { TOKEN_COOKIES, viewerOf, type PortalSession } from '../../src/lib/session';
import { newCountOf } from '../../src/lib/worklist';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';
import { HOUSE, sellResidential } from '../fixtures/selling';
import { decideProposal } from '../../src/server/services/after-sale/acceptance';
import { findUserByEmail } from '../../src/server/services/identity/principals';

/**
 * Issue 31, the worklist's pages as plain forms: "Marcar como lida" and "Marcar todas como lidas"
 * post to the page and come back to it (303); anything else posted is a pt-BR message and a 400 that
 * writes nothing; the bell counts what is new.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { worklistPage } = await import('../../src/features/worklist/worklist.server');
const { worklistNewCount } = await import('../../src/server/services/reporting/worklist');
/** The bell's count as the live stream gives it. */
const bell = (email: string, generation: 'v1' | 'v2') => worklistNewCount(db, viewerOf(sessions.get(email)!, generation)!);

let db: DB;
let close: () => Promise<void>;
const sessions = new Map<string, PortalSession>();
const PARTNER = 'parceiro@parceiro.demo';
const LEGACY = 'vendedor@legado.demo';
let nrProposta: string;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  const as = demoTokens(apiClient(db));
  for (const email of [PARTNER, LEGACY]) {
    const { authtoken } = await as(email);
    const cookie = email.endsWith('@legado.demo') ? TOKEN_COOKIES.v1 : TOKEN_COOKIES.v2;
    sessions.set(email, (await resolvePortalSession(db, (name) => (name === cookie ? authtoken : undefined))).session);
  }
  ({ nrProposta } = await sellResidential(db, { respostas: { ...HOUSE, construcao: 'mista' } }));
  const admin = (await findUserByEmail(db, 'admin@seguradora.demo'))!;
  await decideProposal(db, admin.id, nrProposta, { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Fotos da fachada.' }, new Date());
});
afterAll(async () => close());

const get = (email: string, path: string, generation: 'v1' | 'v2') =>
  worklistPage(sessions.get(email)!, new Request(`http://portal.test${path}`), new URL(`http://portal.test${path}`), generation);
const post = (email: string, path: string, generation: 'v1' | 'v2', fields: Record<string, string>) =>
  worklistPage(sessions.get(email)!, formPost(`http://portal.test${path}`, fields), new URL(`http://portal.test${path}`), generation);

describe('the worklist page', () => {
  it('lists the proposal waiting for documents, and the bell counts it until it is marked read', async () => {
    const page = await get(PARTNER, '/v2/pendencias', 'v2');
    if ('redirect' in page) throw new Error('no redirect expected');
    const item = page.groups.flatMap((g) => g.items).find((i) => i.what.includes(nrProposta))!;
    expect(item.isNew).toBe(true);
    const before = await bell(PARTNER, 'v2');
    expect(before).toBeGreaterThan(0);
    // The page's own count (the bell where the page read the whole worklist) is the stream's.
    const whole = await get(PARTNER, '/v2/pendencias', 'v2');
    if ('redirect' in whole) throw new Error('no redirect expected');
    expect(newCountOf(whole.groups)).toBe(before);
    expect(await post(PARTNER, '/v2/pendencias', 'v2', { acao: 'lida', chave: item.key, tipo: 'DOCUMENTOS' })).toEqual({
      redirect: '/v2/pendencias?tipo=DOCUMENTOS',
    });
    expect(await bell(PARTNER, 'v2')).toBe(before - 1);
  });

  it('filters by kind; an unknown kind is no filter', async () => {
    const page = await get(PARTNER, '/v2/pendencias?tipo=DOCUMENTOS', 'v2');
    if ('redirect' in page) throw new Error('no redirect expected');
    expect(page.kind).toBe('DOCUMENTOS');
    expect(page.groups.every((g) => g.kind === 'DOCUMENTOS')).toBe(true);
    const any = await get(PARTNER, '/v2/pendencias?tipo=%3Cscript%3E', 'v2');
    expect('redirect' in any ? undefined : any.kind).toBeUndefined();
  });

  it('"Marcar todas como lidas" empties the bell', async () => {
    expect(await post(LEGACY, '/pendencias', 'v1', { acao: 'todas' })).toEqual({ redirect: '/pendencias' });
    expect(await bell(LEGACY, 'v1')).toBe(0);
  });

  it('answers anything else posted with a pt-BR message and a 400, writing nothing', async () => {
    const tables = ['worklist_reads', 'worklist_seen'];
    await fc.assert(
      fc.asyncProperty(
        fc.record({ acao: fc.oneof(fc.constant('lida'), fc.string()), chave: fc.string(), tipo: fc.string() }),
        async (fields) => {
          if (fields.acao === 'todas') return;
          const before = await tablesFingerprint(db, tables);
          const page = await post(PARTNER, '/v2/pendencias', 'v2', fields);
          expect('redirect' in page).toBe(false);
          if ('redirect' in page) return;
          expect(page.status).toBe(400);
          expect(page.error).toMatch(/^(Pendência não encontrada|Escolha marcar)/);
          expect(await tablesFingerprint(db, tables)).toBe(before);
        },
      ),
      { numRuns: 40 },
    );
  });
});
