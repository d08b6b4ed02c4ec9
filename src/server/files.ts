import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, statfs, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { config } from './config';
import { BodyTooLargeError, isBodyTooLarge } from './request-body';

/*
 * Files on disk (DESIGN §10, decision 040): DATA_DIR/files/<sha256>, named by their content's hash —
 * never by the name they were sent with, so no name reaches the file system — and written once: the
 * same bytes sent twice are one file. A write goes to a temporary name in the same directory and is
 * renamed into place, so a reader never sees half a file, whatever happens mid-write.
 */

const SHA256 = /^[0-9a-f]{64}$/;
/** A write under way (ours, or a report's: `.tmp-relatorio-…`), named so no hash can be mistaken for one. */
const TEMPORARY = /^\.tmp-/;

/** Where the files live: DATA_DIR/files, or the directory a test gives. */
export const filesDir = (dataDir = config().DATA_DIR) => join(resolve(dataDir), 'files');

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The path of a stored file; only a well-formed hash names one, so nothing else can point outside. */
export function storedPath(dir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error('Hash de arquivo inválido.');
  return join(dir, sha256);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * A file already there is touched when it is stored again: the sweeper (sweepFiles) takes only files
 * untouched for a while, so one a new row is about to point at is never taken from under it.
 */
const touch = (path: string) => {
  const moment = new Date();
  return utimes(path, moment, moment).then(
    () => true,
    () => false,
  );
};

/** Stores bytes under their hash (once) and answers the hash. */
export async function storeFile(dir: string, bytes: Uint8Array): Promise<string> {
  const sha256 = sha256Of(bytes);
  const target = storedPath(dir, sha256);
  if (await touch(target)) return sha256;
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(temporary, bytes, { flag: 'wx', mode: 0o600 });
    // Two uploads of the same bytes may race here: both renames put identical content in place.
    await rename(temporary, target);
  } finally {
    await rm(temporary, { force: true });
  }
  return sha256;
}

/**
 * Stores a file written elsewhere in `dir` (a generated report) under its hash, read as a stream so a
 * large file is never held whole; the temporary file is gone afterwards. Answers the hash.
 */
export async function adoptFile(dir: string, temporary: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(temporary)) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  try {
    if (!(await exists(storedPath(dir, sha256)))) await rename(temporary, storedPath(dir, sha256));
  } finally {
    await rm(temporary, { force: true });
  }
  return sha256;
}

/** A body written to a temporary file of the files' directory, hashed on the way. */
export interface ReceivedFile {
  temporary: string;
  sha256: string;
  size: number;
}

/**
 * Streams a request body into a temporary file, hashing each chunk as it passes — never holding the
 * whole file in memory nor hashing 10 MB in one go, so other requests are served between chunks —
 * and stops with BodyTooLargeError past `limit`, leaving nothing behind. Whatever fails, the
 * temporary file is gone.
 */
export async function receiveFile(dir: string, body: ReadableStream<Uint8Array> | null, limit: number): Promise<ReceivedFile> {
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
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
}

/**
 * Puts a received file in place under its hash — or, when those bytes are stored already, touches
 * that one and keeps the temporary file until `settle`: should the sweeper have taken the stored one
 * meanwhile, settle puts this copy in its place. Call settle once the row pointing at it is committed
 * (or discard, if it was not).
 */
export async function placeFile(dir: string, received: ReceivedFile): Promise<{ settle(): Promise<void>; discard(): Promise<void> }> {
  const target = storedPath(dir, received.sha256);
  if (!(await touch(target))) {
    await rename(received.temporary, target);
    return { settle: async () => {}, discard: async () => {} };
  }
  return {
    async settle() {
      if (await exists(target)) await rm(received.temporary, { force: true });
      else await rename(received.temporary, target);
    },
    discard: () => rm(received.temporary, { force: true }),
  };
}

/** The bytes free for the portal on the files' disk (what an unprivileged process may still write). */
export async function freeBytes(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  const fs = await statfs(dir);
  return fs.bavail * fs.bsize;
}

/**
 * Removes, from the files' directory, what has not been touched for `graceMs` and nothing refers to:
 * a stored file no row points at (its rows removed, or a failed transaction's), and a temporary file
 * a dead process left. `referenced` answers which of a batch of hashes some row still points at.
 * A file's age is read again just before it goes, so one stored again meanwhile stays. Answers how
 * many went. Other names are left alone.
 */
export async function sweepFiles(
  dir: string,
  referenced: (hashes: string[]) => Promise<Set<string>>,
  graceMs: number,
  batch = 500,
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  // A file's times are the system's, not the portal's clock (which a demo may run days ahead).
  const cutoff = Date.now() - graceMs;
  const old = async (name: string) => {
    const info = await stat(join(dir, name)).catch(() => undefined);
    return info?.isFile() === true && info.mtimeMs < cutoff;
  };
  let removed = 0;
  for (const name of names.filter((n) => TEMPORARY.test(n))) {
    if (await old(name)) {
      await rm(join(dir, name), { force: true });
      removed += 1;
    }
  }
  const hashes = names.filter((n) => SHA256.test(n));
  for (let i = 0; i < hashes.length; i += batch) {
    const candidates: string[] = [];
    for (const name of hashes.slice(i, i + batch)) if (await old(name)) candidates.push(name);
    if (candidates.length === 0) continue;
    const kept = await referenced(candidates);
    for (const name of candidates) {
      if (kept.has(name) || !(await old(name))) continue;
      await rm(join(dir, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}
