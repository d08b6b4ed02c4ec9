import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { api } from '../../src/server/api';
import { changesSettled } from '../../src/server/db';
import { downloadResponse } from '../../src/server/api/download';
import { config } from '../../src/server/config';
import { FILE_MISSING_MESSAGE, fileStore, storeOf, type FileStore } from '../../src/server/files';
import { findUserByEmail } from '../../src/server/services/identity/principals';
import { FILE_GRACE_MS, sweepUploads } from '../../src/server/services/after-sale/document-uploads';
import { salesDataScopeFor } from '../../src/server/services/identity/scope';
import { metricsOptions } from '../../src/server/services/reporting/metrics';
import { generateReports, reportFile, requestReport } from '../../src/server/services/reporting/sales-reports';
import { notFoundAsUndefined } from '../../src/features/controller.server';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { MINIMAL_PDF } from '../fixtures/documents';
import { startS3, type S3TestServer } from '../fixtures/s3';

/**
 * Issue 30: the portal with STORAGE_DRIVER=s3 (an S3-compatible bucket, s3rver started here), as two
 * instances over one database and one bucket would run it — "A" is this process's portal (its API,
 * its DATA_DIR), "B" a store made from the same settings with a DATA_DIR of its own. What one
 * instance stores the other serves whole, nothing lands in the local folder, and a file the store
 * lacks is a pt-BR 404, never a 200 with a body cut short.
 */

let s3: S3TestServer;
let db: DB;
let close: () => Promise<void>;
let as: ReturnType<typeof demoTokens>;
/** "Instance B": the same settings, its own DATA_DIR (its own scratch directory). */
let instanceB: FileStore;
const dataDirA = mkdtempSync(join(tmpdir(), 'portal-s3-a-'));
const dataDirB = mkdtempSync(join(tmpdir(), 'portal-s3-b-'));
const saved = { ...process.env };

const PARTNER = 'parceiro@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';

beforeAll(async () => {
  s3 = await startS3();
  // Read at the first use of config(): this file's portal runs on the S3 driver.
  // Outside production, where the commissions (and so the notas fiscais) exist (SPEC §2).
  Object.assign(process.env, s3.env, { DATA_DIR: dataDirA, PORTAL_ENV: 'TEST' });
  ({ db, close } = await freshDatabase());
  as = demoTokens(apiClient(db));
  instanceB = storeOf({ ...config(), DATA_DIR: dataDirB });
});
afterAll(async () => {
  await close();
  await s3.stop();
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  for (const dir of [dataDirA, dataDirB]) rmSync(dir, { recursive: true, force: true });
});

const handle = async (request: Request) => {
  await changesSettled(db);
  return api.handle(request, { ip: '10.0.0.1', db: async () => db });
};

async function uploadDocument(nrProposta: string, name: string, bytes: Uint8Array) {
  const response = await handle(
    new Request(`http://portal.test/api/bff/v1/propostas/${nrProposta}/documentos?categoria=OUTRO`, {
      method: 'POST',
      headers: {
        ...(await as(PARTNER)),
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.byteLength),
        'x-nome-arquivo': encodeURIComponent(name),
      },
      body: bytes as Uint8Array<ArrayBuffer>,
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()).dado.documento.id as number;
}

async function get(email: string, path: string) {
  const response = await handle(new Request(`http://portal.test${path}`, { headers: await as(email) }));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const hashOf = async (id: number) =>
  (await db.selectFrom('documents').select('sha256').where('id', '=', id).executeTakeFirstOrThrow()).sha256;
/** The hash-named files in a local folder (the local driver's layout): none may appear with S3. */
const localFiles = (dataDir: string) =>
  existsSync(join(dataDir, 'files')) ? readdirSync(join(dataDir, 'files')).filter((name) => /^[0-9a-f]{64}$/.test(name)) : [];

describe('documents on S3', () => {
  it('stores an upload in the bucket, not the local folder; both instances read it whole', async () => {
    expect(fileStore().driver).toBe('s3');
    const { nrProposta } = await sellResidential(db);
    const bytes = new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode('% no bucket')]);
    const id = await uploadDocument(nrProposta, 'laudo.pdf', bytes);
    const downloaded = await get(PARTNER, `/api/bff/v1/documentos/${id}/arquivo`);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('application/pdf');
    expect(downloaded.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(downloaded.headers.get('content-disposition')).toMatch(/^attachment; filename="laudo\.pdf"/);
    expect(downloaded.bytes).toEqual(bytes);
    const opened = await instanceB.open(await hashOf(id));
    expect(new Uint8Array(await new Response(opened!.body).arrayBuffer())).toEqual(bytes);
    expect(localFiles(dataDirA)).toEqual([]);
    // The upload's temporary file went from this instance's scratch directory.
    expect(readdirSync(join(dataDirA, 'tmp')).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('answers a 404 saying the file is missing — not a 200 cut short — when the bucket lost it', async () => {
    const { nrProposta } = await sellResidential(db);
    const bytes = new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode('% perdido')]);
    const id = await uploadDocument(nrProposta, 'perdido.pdf', bytes);
    await instanceB.remove(await hashOf(id));
    const answer = await get(PARTNER, `/api/bff/v1/documentos/${id}/arquivo`);
    expect(answer.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(answer.bytes))).toMatchObject({ message: FILE_MISSING_MESSAGE });
  });
});

describe('the sweeper job on S3', () => {
  it('removes old objects no row points at and keeps the live documents’ and the fresh ones', async () => {
    const { nrProposta } = await sellResidential(db);
    const bytes = new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode('% vivo')]);
    const live = await hashOf(await uploadDocument(nrProposta, 'vivo.pdf', bytes));
    const orphan = await instanceB.storeBytes(new TextEncoder().encode('órfão no bucket'));
    const fresh = await instanceB.storeBytes(new TextEncoder().encode('órfão recente'));
    for (const sha256 of [live, orphan]) s3.age(sha256, 2 * FILE_GRACE_MS);
    const swept = await sweepUploads(db, fileStore(), new Date());
    expect(swept.files).toBe(1);
    expect(await instanceB.exists(orphan)).toBe(false);
    expect(await instanceB.exists(live)).toBe(true);
    expect(await instanceB.exists(fresh)).toBe(true);
  });
});

describe('sales reports on S3', () => {
  it('a report made by instance B downloads whole through instance A; once lost, a 404', async () => {
    const viewer = await viewerByEmail(db, ADMIN);
    const { scope } = await salesDataScopeFor(db, viewer, 'RELATORIOS');
    const requester = { userId: viewer.user.idUsuario, generation: viewer.generation, seesAll: true };
    const asked = await requestReport(db, requester, scope, await metricsOptions(db, scope), {
      de: '2026-01-01',
      ate: '2026-12-31',
      tipo: 'apolices',
      produtos: [],
      formato: 'csv',
    });
    if (!asked.ok) throw new Error('not asked');
    expect(await generateReports(db, instanceB)).toBe(1);
    const row = await db.selectFrom('sales_reports').selectAll().where('id', '=', asked.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('PRONTO');
    const response = downloadResponse((await reportFile(db, fileStore(), requester, asked.id))!);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(Number(row.tamanho)));
    expect(bytes.byteLength).toBe(Number(row.tamanho));
    expect(bytes.byteLength).toBeGreaterThan(21);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(localFiles(dataDirA)).toEqual([]);
    expect(localFiles(dataDirB)).toEqual([]);

    await fileStore().remove(row.sha256!);
    await expect(reportFile(db, fileStore(), requester, asked.id)).rejects.toMatchObject({
      kind: 'not-found',
      message: FILE_MISSING_MESSAGE,
    });
    // The page's controller turns it into the 404 page.
    expect(await notFoundAsUndefined(reportFile(db, fileStore(), requester, asked.id))).toBeUndefined();
  });
});

describe('notas fiscais on S3', () => {
  it('a nota stored by instance B downloads whole through instance A', async () => {
    const bytes = new Uint8Array([...MINIMAL_PDF, ...new TextEncoder().encode('% nota')]);
    const sha256 = await instanceB.storeBytes(bytes);
    const company = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    const user = (await findUserByEmail(db, ADMIN))!;
    const { id } = await db
      .insertInto('notas_fiscais')
      .values({
        company_id: company.id,
        competencia: '2026-01',
        numero: '123',
        valor: 100,
        nome: 'nota.pdf',
        mime: 'application/pdf',
        tamanho: bytes.byteLength,
        sha256,
        user_id: user.id,
        created_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer = await get(ADMIN, `/api/bff/v1/comissoes/notas/${id}/arquivo`);
    expect(answer.status, new TextDecoder().decode(answer.bytes)).toBe(200);
    expect(answer.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(answer.bytes).toEqual(bytes);
  });
});
