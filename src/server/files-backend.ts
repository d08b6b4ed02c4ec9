/*
 * What a driver of the file store (server/files.ts) provides: the local folder's (files.ts
 * localBackend) and S3's (files-s3.ts). A module of its own so neither driver imports the other.
 */

/** A stored file opened for reading: its length is known before a byte of it is sent. */
export interface OpenedFile {
  size: number;
  body: ReadableStream<Uint8Array>;
}

/** What one driver does; everything above it (hashing, receiving, placing, sweeping) is shared, in files.ts storeOver. */
export interface StoreBackend {
  readonly driver: 'local' | 's3';
  /** Where temporary files are written (a local directory, whatever the driver). */
  readonly scratchDir: string;
  /** Where the files are, for an operator's log line (no credentials). */
  readonly location: string;
  /**
   * Marks the file already there fresh (the sweeper leaves it), answering false when there is none.
   * `source` holds the same bytes, for a store that can renew a file's time only by writing it again.
   */
  renew(sha256: string, source: { path: string } | { bytes: Uint8Array }): Promise<boolean>;
  exists(sha256: string): Promise<boolean>;
  /** Puts the file at `path` (of the scratch directory) under `sha256`; `path` may be gone afterwards. */
  putFile(sha256: string, path: string): Promise<void>;
  putBytes(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The file for reading, or undefined when there is none — known before any byte is sent. */
  open(sha256: string): Promise<OpenedFile | undefined>;
  stat(sha256: string): Promise<{ size: number; modifiedMs: number } | undefined>;
  remove(sha256: string): Promise<void>;
  /** Every stored hash with its last write (pages of `batch`); other names are left out. */
  list(batch: number): AsyncIterable<{ sha256: string; modifiedMs: number }[]>;
  /** Bytes free where the files are written; undefined where there is no floor (object storage). */
  freeBytes(): Promise<number | undefined>;
  /** Cheap: is the store reachable and writable? Throws why not. */
  check(): Promise<void>;
}
