import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, open, readdir, rename, rm, stat, statfs, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Download } from '../lib/download';
import { config } from './config';
import { notFound } from './errors';
import type { StoreBackend } from './files-backend';
import { s3Backend, type S3Settings } from './files-s3';
import { logError } from './log';
import { BodyTooLargeError, isBodyTooLarge } from './request-body';

/*
 * The portal's file store (DESIGN §10–11, decisions 040 and 057; issue 30): documents, notas fiscais
 * and sales reports, named by their content's hash — never by the name they were sent with, so no
 * name reaches a path or an object key — and written once: the same bytes sent twice are one file.
 *
 * One interface (FileStore), two drivers chosen by STORAGE_DRIVER (config.ts, .env.example):
 * - `local` (the default): DATA_DIR/files/<sha256>, exactly the layout every release before wrote. A
 *   write goes to a temporary name in the same directory and is renamed into place, so a reader never
 *   sees half a file. Only one instance can use it (or several over a shared POSIX file system).
 * - `s3`: any S3-compatible object store (server/files-s3.ts), `<S3_PREFIX><sha256>` in S3_BUCKET,
 *   which every instance shares. An object appears whole or not at all (PutObject is atomic).
 *
 * Whatever the driver, what is still being written stays on this instance's disk, under the scratch
 * directory (DATA_DIR/files for `local` — the same file system, for the rename —, DATA_DIR/tmp for
 * `s3`): an upload while it is received and checked, a report while it is generated. Only the
 * finished file goes to the store.
 */

export type { OpenedFile, StoreBackend } from './files-backend';

const SHA256 = /^[0-9a-f]{64}$/;
/** A write under way (ours, or a report's: `.tmp-relatorio-…`), named so no hash can be mistaken for one. */
const TEMPORARY = /^\.tmp-/;

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Only a well-formed hash names a stored file, so nothing else can point outside the store. */
export function checkedHash(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error('Hash de arquivo inválido.');
  return sha256;
}

/** A body written to a temporary file of the scratch directory, hashed on the way. */
export interface ReceivedFile {
  temporary: string;
  sha256: string;
  size: number;
}

/** A received file put in place: settle once the row pointing at it is committed, or discard. */
export interface PlacedFile {
  settle(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * The store: the backend's operations and the ones every driver shares. Services receive one (the
 * default is `fileStore()`, from the configuration) and never see a path or a key.
 */
export interface FileStore extends Omit<StoreBackend, 'putFile' | 'putBytes' | 'renew' | 'list'> {
  /** Stores bytes under their hash (once) and answers the hash. */
  storeBytes(bytes: Uint8Array): Promise<string>;
  /**
   * Stores a file written in the scratch directory (a generated report) under its hash, read as a
   * stream so a large file is never held whole; the temporary file is gone afterwards.
   */
  adopt(temporary: string): Promise<string>;
  /** A temporary file's path in the scratch directory (`.tmp-<label>-<random>`). */
  temporaryPath(label?: string): Promise<string>;
  receive(body: ReadableStream<Uint8Array> | null, limit: number): Promise<ReceivedFile>;
  place(received: ReceivedFile): Promise<PlacedFile>;
  discardReceived(received: ReceivedFile): Promise<void>;
  sweep(referenced: (hashes: string[]) => Promise<Set<string>>, graceMs: number, batch?: number): Promise<number>;
}

const pathExists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** DATA_DIR/files/<sha256>: the layout the portal always had. */
export function localBackend(dir: string): StoreBackend {
  const path = (sha256: string) => join(dir, checkedHash(sha256));
  return {
    driver: 'local',
    scratchDir: dir,
    location: `pasta ${dir}`,
    // A file's times are the system's, not the portal's clock (which a demo may run days ahead).
    renew(sha256) {
      const moment = new Date();
      return utimes(path(sha256), moment, moment).then(
        () => true,
        () => false,
      );
    },
    exists: (sha256) => pathExists(path(sha256)),
    // Two writers of the same bytes may race here: both renames put identical content in place.
    putFile: (sha256, temporary) => rename(temporary, path(sha256)),
    async putBytes(sha256, bytes) {
      await mkdir(dir, { recursive: true });
      const temporary = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
      try {
        await writeFile(temporary, bytes, { flag: 'wx', mode: 0o600 });
        await rename(temporary, path(sha256));
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async open(sha256) {
      // Opened before anything is answered: a file removed after this still reads whole (POSIX).
      const handle = await open(path(sha256), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!handle) return undefined;
      try {
        const { size } = await handle.stat();
        return { size, body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array> };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async stat(sha256) {
      const info = await stat(path(sha256)).catch(() => undefined);
      return info?.isFile() ? { size: info.size, modifiedMs: info.mtimeMs } : undefined;
    },
    remove: (sha256) => rm(path(sha256), { force: true }),
    async *list(batch) {
      let names: string[];
      try {
        names = (await readdir(dir)).filter((name) => SHA256.test(name));
      } catch {
        return;
      }
      for (let i = 0; i < names.length; i += batch) {
        const page: { sha256: string; modifiedMs: number }[] = [];
        for (const sha256 of names.slice(i, i + batch)) {
          const info = await stat(join(dir, sha256)).catch(() => undefined);
          if (info?.isFile()) page.push({ sha256, modifiedMs: info.mtimeMs });
        }
        yield page;
      }
    },
    async freeBytes() {
      await mkdir(dir, { recursive: true });
      const fs = await statfs(dir);
      return fs.bavail * fs.bsize;
    },
    async check() {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
    },
  };
}

/** The shared part of every store, over one backend. */
export function storeOver(backend: StoreBackend): FileStore {
  const scratch = backend.scratchDir;
  const temporaryPath = async (label?: string) => {
    await mkdir(scratch, { recursive: true });
    return join(scratch, `.tmp-${label ? `${label}-` : ''}${randomBytes(8).toString('hex')}`);
  };
  const putTemporary = async (sha256: string, temporary: string) => {
    try {
      await backend.putFile(sha256, temporary);
    } finally {
      await rm(temporary, { force: true });
    }
  };
  const isOld = async (sha256: string, cutoff: number) => {
    const info = await backend.stat(sha256);
    return info !== undefined && info.modifiedMs < cutoff;
  };
  return {
    driver: backend.driver,
    scratchDir: scratch,
    location: backend.location,
    exists: (sha256) => backend.exists(sha256),
    open: (sha256) => backend.open(sha256),
    stat: (sha256) => backend.stat(sha256),
    remove: (sha256) => backend.remove(sha256),
    freeBytes: () => backend.freeBytes(),
    check: () => backend.check(),
    temporaryPath,

    async storeBytes(bytes) {
      const sha256 = sha256Of(bytes);
      // A file already there is touched when it is stored again: the sweeper takes only files
      // untouched for a while, so one a new row is about to point at is never taken from under it.
      if (!(await backend.renew(sha256, { bytes }))) await backend.putBytes(sha256, bytes);
      return sha256;
    },

    async adopt(temporary) {
      try {
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(temporary)) hash.update(chunk as Buffer);
        const sha256 = hash.digest('hex');
        if (!(await backend.renew(sha256, { path: temporary }))) await backend.putFile(sha256, temporary);
        return sha256;
      } finally {
        await rm(temporary, { force: true });
      }
    },

    /**
     * Streams a request body into a temporary file, hashing each chunk as it passes — never holding
     * the whole file in memory nor hashing 10 MB in one go, so other requests are served between
     * chunks — and stops with BodyTooLargeError past `limit`, leaving nothing behind. Whatever
     * fails, the temporary file is gone.
     */
    async receive(body, limit) {
      const temporary = await temporaryPath();
      const file = await open(temporary, 'wx', 0o600);
      const hash = createHash('sha256');
      let size = 0;
      try {
        if (body) {
          const reader = body.getReader();
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              size += value.byteLength;
              if (size > limit) throw new BodyTooLargeError();
              hash.update(value);
              await file.write(value);
            }
          } catch (error) {
            reader.cancel().catch(() => {});
            throw isBodyTooLarge(error) ? new BodyTooLargeError() : error;
          }
        }
        await file.close();
      } catch (error) {
        await file.close().catch(() => {});
        await rm(temporary, { force: true });
        throw error;
      }
      return { temporary, sha256: hash.digest('hex'), size };
    },

    /**
     * Puts a received file in place under its hash — or, when those bytes are stored already,
     * touches that one and keeps the temporary file until `settle`: should the sweeper have taken
     * the stored one meanwhile, settle puts this copy in its place.
     */
    async place(received) {
      if (!(await backend.renew(received.sha256, { path: received.temporary }))) {
        await putTemporary(received.sha256, received.temporary);
        return { settle: async () => {}, discard: async () => {} };
      }
      return {
        async settle() {
          if (await backend.exists(received.sha256)) await rm(received.temporary, { force: true });
          else await putTemporary(received.sha256, received.temporary);
        },
        discard: () => rm(received.temporary, { force: true }),
      };
    },

    discardReceived: (received) => rm(received.temporary, { force: true }),

    /**
     * Removes what has not been touched for `graceMs` and nothing refers to: a stored file no row
     * points at (its rows removed, or a failed transaction's), and a temporary file a dead process
     * left in the scratch directory. `referenced` answers which of a batch of hashes some row still
     * points at. A file's age is read again just before it goes, so one stored again meanwhile
     * stays. Answers how many went. Other names are left alone.
     */
    async sweep(referenced, graceMs, batch = 500) {
      const cutoff = Date.now() - graceMs;
      let removed = 0;
      let names: string[] = [];
      try {
        names = (await readdir(scratch)).filter((name) => TEMPORARY.test(name));
      } catch {
        // No scratch directory yet: nothing was ever written here.
      }
      for (const name of names) {
        const info = await stat(join(scratch, name)).catch(() => undefined);
        if (info?.isFile() && info.mtimeMs < cutoff) {
          await rm(join(scratch, name), { force: true });
          removed += 1;
        }
      }
      for await (const page of backend.list(batch)) {
        const candidates = page.filter((file) => file.modifiedMs < cutoff).map((file) => file.sha256);
        if (candidates.length === 0) continue;
        const kept = await referenced(candidates);
        for (const sha256 of candidates) {
          if (kept.has(sha256) || !(await isOld(sha256, cutoff))) continue;
          await backend.remove(sha256);
          removed += 1;
        }
      }
      return removed;
    },
  };
}

/** Where the local driver keeps its files: DATA_DIR/files. */
export const filesDir = (dataDir = config().DATA_DIR) => join(resolve(dataDir), 'files');

/** The local driver over a directory (a test's, or DATA_DIR/files). */
export const localStore = (dir: string) => storeOver(localBackend(dir));

/** The S3 driver (server/files-s3.ts), its temporary files under `scratchDir`. */
export const s3Store = (settings: S3Settings, scratchDir: string) => storeOver(s3Backend(settings, scratchDir));

/** The store the configuration names (STORAGE_DRIVER and S3_*), built from a configuration. */
export function storeOf(settings: ReturnType<typeof config>): FileStore {
  if (settings.STORAGE_DRIVER === 'local') return localStore(filesDir(settings.DATA_DIR));
  return s3Store(
    {
      bucket: settings.S3_BUCKET!,
      endpoint: settings.S3_ENDPOINT,
      region: settings.S3_REGION,
      accessKeyId: settings.S3_ACCESS_KEY_ID,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE ?? Boolean(settings.S3_ENDPOINT),
      prefix: settings.S3_PREFIX,
    },
    join(resolve(settings.DATA_DIR), 'tmp'),
  );
}

let cached: FileStore | undefined;

/** The portal's store, from the configuration, made once. */
export function fileStore(): FileStore {
  cached ??= storeOf(config());
  return cached;
}

/** Said when a record's file is not in the store (a lost object, a store set up wrong): never a cut 200. */
export const FILE_MISSING_MESSAGE = 'O arquivo não foi encontrado no armazenamento. Avise o suporte do portal.';

/**
 * A stored file as a download, opened before any header is written: its length is the stored one,
 * and a file the store does not have is a 404 with FILE_MISSING_MESSAGE (logged for the operators),
 * never a 200 whose body breaks off.
 */
export async function storedDownload(files: FileStore, sha256: string, meta: Omit<Download, 'body' | 'size'>): Promise<Download> {
  const opened = await files.open(sha256);
  if (!opened) {
    logError('arquivo-ausente', { armazenamento: files.driver, sha256 });
    throw notFound(FILE_MISSING_MESSAGE);
  }
  return { ...meta, body: opened.body, size: opened.size };
}
