import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import type { StoreBackend } from './files-backend';

/*
 * The S3 driver of the file store (server/files.ts; issue 30): one object per stored file,
 * `<prefix><sha256>` in one bucket of any S3-compatible store (AWS S3, MinIO, Ceph, …), through the
 * AWS SDK v3 client. What it relies on, and nothing more: PutObject is atomic (an object is there
 * whole or not at all), GetObject answers the length before the body, ListObjectsV2 pages the keys
 * under a prefix with their LastModified (a PutObject renews it: the "touch" the sweeper needs),
 * HeadBucket is a cheap reachability check.
 *
 * The SDK is loaded on first use, so a portal on the local driver never loads it.
 */

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  /** Both or neither; neither: the SDK's default chain (environment, profile, instance role…). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Put before every key ('' or ending in '/', as config.ts normalises it). */
  prefix?: string;
}

const SHA256 = /^[0-9a-f]{64}$/;
const checked = (sha256: string) => {
  if (!SHA256.test(sha256)) throw new Error('Hash de arquivo inválido.');
  return sha256;
};

/** A "no such key" answer, however the store words it (GetObject: NoSuchKey, HeadObject: NotFound, 404). */
const isMissing = (error: unknown) => {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.Code === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

type Sdk = typeof import('@aws-sdk/client-s3');

export function s3Backend(settings: S3Settings, scratchDir: string): StoreBackend {
  const prefix = settings.prefix ?? '';
  const key = (sha256: string) => `${prefix}${checked(sha256)}`;
  let ready: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const connect = () => {
    ready ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        forcePathStyle: settings.forcePathStyle,
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
        // Checksums only where the API demands them: many S3-compatible stores (and older MinIO or
        // Ceph) do not take the SDK's default aws-chunked uploads with a trailing CRC.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A store that does not answer fails the request instead of holding it (and /readyz) forever:
        // 5 s to connect, 30 s of silence on a socket (an idle limit, so a long download still flows).
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      }),
    }));
    return ready;
  };
  const Bucket = settings.bucket;

  const head = async (sha256: string) => {
    const { sdk, client } = await connect();
    try {
      return await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key(sha256) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  // Streamed from the temporary file, its length given: one PutObject (up to 5 GB, far above any
  // report the portal makes — an XLSX is capped at MAX_XLSX_ROWS), no multipart needed.
  const putFile = async (sha256: string, path: string) => {
    const { sdk, client } = await connect();
    const { size } = await stat(path);
    await client.send(new sdk.PutObjectCommand({ Bucket, Key: key(sha256), Body: createReadStream(path), ContentLength: size }));
  };
  const putBytes = async (sha256: string, bytes: Uint8Array) => {
    const { sdk, client } = await connect();
    await client.send(new sdk.PutObjectCommand({ Bucket, Key: key(sha256), Body: bytes, ContentLength: bytes.byteLength }));
  };

  return {
    driver: 's3',
    scratchDir,
    location: `s3://${Bucket}/${prefix}${settings.endpoint ? ` em ${new URL(settings.endpoint).host}` : ''}`,

    async renew(sha256, source) {
      // An object's LastModified changes only when it is written: the same bytes are written again
      // (CopyObject onto itself renews it on AWS, but not on every S3-compatible store — s3rver's
      // stays). Writing identical bytes over an object is harmless: a reader gets the old or the new.
      if (!(await head(sha256))) return false;
      if ('bytes' in source) await putBytes(sha256, source.bytes);
      else await putFile(sha256, source.path);
      return true;
    },

    exists: async (sha256) => (await head(sha256)) !== undefined,

    putFile,
    putBytes,

    async open(sha256) {
      const { sdk, client } = await connect();
      let answer: GetObjectCommandOutput;
      try {
        answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key(sha256) }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const body = answer.Body;
      if (!body || answer.ContentLength === undefined) throw new Error('O armazenamento S3 respondeu sem corpo ou sem tamanho.');
      return { size: answer.ContentLength, body: body.transformToWebStream() as ReadableStream<Uint8Array> };
    },

    async stat(sha256) {
      const info = await head(sha256);
      return info ? { size: info.ContentLength ?? 0, modifiedMs: info.LastModified?.getTime() ?? 0 } : undefined;
    },

    async remove(sha256) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key(sha256) }));
    },

    async *list(batch) {
      const { sdk, client } = await connect();
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, MaxKeys: batch, ContinuationToken: token }),
        );
        const files: { sha256: string; modifiedMs: number }[] = [];
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length) ?? '';
          // Only our names, directly under the prefix: anything else in the bucket is left alone.
          if (object.Key?.startsWith(prefix) && SHA256.test(name) && object.LastModified)
            files.push({ sha256: name, modifiedMs: object.LastModified.getTime() });
        }
        yield files;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    // Object storage has no disk to fill: no floor (UPLOADS_MIN_FREE_MB counts only local disks).
    freeBytes: async () => undefined,

    async check() {
      const { sdk, client } = await connect();
      await client.send(new sdk.HeadBucketCommand({ Bucket }));
      await mkdir(scratchDir, { recursive: true });
    },
  };
}
