import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/server/errors';
import { FILE_MISSING_MESSAGE, sha256Of, storedDownload, storeOf, type FileStore } from '../../src/server/files';
import { S3_TEST_PORTS, STORE_DRIVERS, startS3, testStore, type S3TestServer } from '../fixtures/s3';
import { BodyTooLargeError } from '../../src/server/request-body';

/**
 * The file store's contract (server/files.ts, issue 30), the same for both drivers: the local folder
 * and S3-compatible object storage (s3rver, started here). Written once under the content's hash,
 * read back whole with its length known first, a missing file said so (never half a file), the
 * sweeper taking old orphans and nothing a row points at, and a cheap check for readiness.
 */

const HOUR = 60 * 60_000;
const text = (value: string) => new TextEncoder().encode(value);
const bytesOf = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer());

describe.each(STORE_DRIVERS)('the %s driver', (driver) => {
  let files: FileStore;
  /** Makes a stored file look `ms` old: the local file's time, or (s3rver) its object's LastModified. */
  let age: (sha256: string, ms: number) => void;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ files, age, dispose } = await testStore(driver));
  });
  afterAll(() => dispose());

  it('writes bytes once under their hash and reads them back whole, the length known first', async () => {
    const sha256 = await files.storeBytes(text('uma nota fiscal'));
    expect(sha256).toBe(sha256Of(text('uma nota fiscal')));
    expect(await files.storeBytes(text('uma nota fiscal'))).toBe(sha256);
    const opened = await files.open(sha256);
    expect(opened?.size).toBe(15);
    expect(new TextDecoder().decode(await bytesOf(opened!.body))).toBe('uma nota fiscal');
    expect(await files.exists(sha256)).toBe(true);
    expect((await files.stat(sha256))?.size).toBe(15);
  });

  it('renews a file’s time when the same bytes are stored again, so the sweeper leaves it to its new row', async () => {
    const sha256 = await files.storeBytes(text('guardado de novo'));
    const first = (await files.stat(sha256))!.modifiedMs;
    // The store's clock may count whole seconds (S3's LastModified).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await files.storeBytes(text('guardado de novo'));
    expect((await files.stat(sha256))!.modifiedMs).toBeGreaterThan(first);
    expect((await files.open(sha256))?.size).toBe(16);
  });

  it('answers nothing for a hash it does not hold, and refuses what is not a hash', async () => {
    const absent = 'a'.repeat(64);
    expect(await files.open(absent)).toBeUndefined();
    expect(await files.exists(absent)).toBe(false);
    expect(await files.stat(absent)).toBeUndefined();
    await expect(files.open('../../etc/passwd')).rejects.toThrow('Hash de arquivo inválido.');
    // A download of it is a 404 that says why, never a 200 cut short.
    const refused = await storedDownload(files, absent, { fileName: 'x.pdf', type: 'application/pdf' }).catch((error) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'not-found', message: FILE_MISSING_MESSAGE });
  });

  it('receives a stream within its limit into the scratch directory, places it, and leaves no temporary file', async () => {
    const big = new Uint8Array(300_000).fill(7);
    const received = await files.receive(new Blob([big]).stream(), 1_000_000);
    expect(received).toMatchObject({ sha256: sha256Of(big), size: big.byteLength });
    await (await files.place(received)).settle();
    expect((await files.open(received.sha256))?.size).toBe(big.byteLength);
    await expect(files.receive(new Blob([big]).stream(), 1000)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(readdirSync(files.scratchDir).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('adopts a file written in the scratch directory (a report), streamed, and removes the temporary one', async () => {
    const path = await files.temporaryPath('relatorio');
    const content = 'Apólice;Segurado\n'.repeat(20_000);
    writeFileSync(path, content);
    const sha256 = await files.adopt(path);
    expect(existsSync(path)).toBe(false);
    const opened = await files.open(sha256);
    expect(opened?.size).toBe(Buffer.byteLength(content));
    expect(new TextDecoder().decode(await bytesOf(opened!.body))).toBe(content);
  });

  it('places again what the sweeper took between placing and settling', async () => {
    const bytes = text('enviado duas vezes');
    const first = await files.receive(new Blob([bytes]).stream(), 1000);
    await (await files.place(first)).settle();
    const second = await files.receive(new Blob([bytes]).stream(), 1000);
    const placed = await files.place(second);
    await files.remove(second.sha256);
    await placed.settle();
    expect(await files.exists(second.sha256)).toBe(true);
  });

  it('sweeps old orphans and old temporary files, never a referenced file, a fresh one or a foreign name', async () => {
    const orphan = await files.storeBytes(text('órfão'));
    const referenced = await files.storeBytes(text('de uma linha'));
    age(orphan, 2 * HOUR);
    age(referenced, 2 * HOUR);
    const abandoned = await files.temporaryPath();
    writeFileSync(abandoned, 'metade');
    const old = new Date(Date.now() - 2 * HOUR);
    utimesSync(abandoned, old, old);
    const asked: string[] = [];
    const swept = await files.sweep(async (hashes) => {
      asked.push(...hashes);
      return new Set(hashes.filter((hash) => hash === referenced));
    }, HOUR);
    expect(asked).toContain(orphan);
    expect(await files.exists(orphan)).toBe(false);
    expect(await files.exists(referenced)).toBe(true);
    expect(existsSync(abandoned)).toBe(false);
    expect(swept).toBe(2);
    // Fresh files are not even asked about with the real grace.
    const fresh = await files.storeBytes(text('recém-chegado'));
    const seen: string[] = [];
    await files.sweep(async (hashes) => {
      seen.push(...hashes);
      return new Set(hashes);
    }, HOUR);
    expect(seen).not.toContain(fresh);
    expect(await files.exists(fresh)).toBe(true);
  });

  it('checks it is reachable, cheaply (readiness)', async () => {
    await expect(files.check()).resolves.toBeUndefined();
  });
});

describe('the S3 driver against a store that is not there', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(() => s3.stop());

  it('check() fails for a bucket that does not exist', async () => {
    const store = storeOf({
      ...(await import('../../src/server/config')).config(),
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'nao-existe',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    await expect(store.check()).rejects.toThrow();
  });

  it('check() fails, and soon, for a store nothing answers at', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { s3Store } = await import('../../src/server/files');
    // A port the system just gave and took back: nothing listens there.
    const { createServer } = await import('node:net');
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const scratch = mkdtempSync(join(tmpdir(), 's3-scratch-'));
    const store = s3Store({ ...s3.settings, endpoint: `http://127.0.0.1:${port}` }, scratch);
    const started = Date.now();
    try {
      await expect(store.check()).rejects.toThrow();
      expect(await store.open('c'.repeat(64)).catch(() => 'falhou')).toBe('falhou');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('has no disk floor: object storage says nothing of free bytes', async () => {
    expect(await s3.store().freeBytes()).toBeUndefined();
  });

  it('keeps its objects under S3_PREFIX, and leaves foreign keys alone when sweeping', async () => {
    const prefixed = await startS3({ prefix: 'portal/', bucket: 'outro-bucket' });
    try {
      const store = prefixed.store();
      const sha256 = await store.storeBytes(text('com prefixo'));
      const { S3Client, ListObjectsV2Command, PutObjectCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({
        endpoint: prefixed.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await client.send(new PutObjectCommand({ Bucket: prefixed.bucket, Key: 'outra-coisa.txt', Body: 'não é nosso' }));
      await client.send(new PutObjectCommand({ Bucket: prefixed.bucket, Key: `portal/${'b'.repeat(64)}x`, Body: 'nem este' }));
      await store.sweep(async () => new Set(), -5_000);
      const keys = ((await client.send(new ListObjectsV2Command({ Bucket: prefixed.bucket }))).Contents ?? []).map((o) => o.Key);
      expect(keys).toContain('outra-coisa.txt');
      expect(keys).toContain(`portal/${'b'.repeat(64)}x`);
      expect(keys).not.toContain(`portal/${sha256}`);
      client.destroy();
    } finally {
      await prefixed.stop();
    }
  });
});

describe('the S3 test server (tests/fixtures/s3.ts)', () => {
  it('takes the next port of its range when one is in use, instead of hanging', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    const port = await new Promise<number | undefined>((resolve) => {
      taken.once('error', () => resolve(undefined));
      taken.listen(S3_TEST_PORTS[0], '127.0.0.1', () => resolve(S3_TEST_PORTS[0]));
    });
    const s3 = await startS3();
    try {
      if (port !== undefined) expect(s3.port).not.toBe(port);
      await expect(s3.store().check()).resolves.toBeUndefined();
    } finally {
      await s3.stop();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
