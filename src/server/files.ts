import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { config } from './config';

/*
 * Files on disk (DESIGN §10, decision 040): DATA_DIR/files/<sha256>, named by their content's hash —
 * never by the name they were sent with, so no name reaches the file system — and written once: the
 * same bytes sent twice are one file. A write goes to a temporary name in the same directory and is
 * renamed into place, so a reader never sees half a file, whatever happens mid-write.
 */

const SHA256 = /^[0-9a-f]{64}$/;

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

/** Stores bytes under their hash (once) and answers the hash. */
export async function storeFile(dir: string, bytes: Uint8Array): Promise<string> {
  const sha256 = sha256Of(bytes);
  const target = storedPath(dir, sha256);
  if (await exists(target)) return sha256;
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
