import { DOCUMENT_MAX_BYTES, DOCUMENT_MESSAGES } from '../lib/documents';
import { NOTA_MAX_BYTES, NOTA_MESSAGES } from '../lib/nota-fiscal';
import { IMPORT_LIMITS, IMPORT_MESSAGES } from '../lib/user-import-format';

/**
 * Reading a request body within its route's limit — 1 MB, more only where BODY_LIMITS says
 * (docs/decisions/011-http-hardening.md, 022, 040). A body that declares its length is judged by the
 * header before anything runs; one sent in chunks, without a length, is only known to be too big
 * while it streams — by our own count, or by the node adapter's `bodySizeLimit` (astro.config.mjs),
 * which aborts the stream with an error of its own.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

export const BODY_TOO_LARGE_MESSAGE = 'O corpo da requisição excede o limite de 1 MB.';

/**
 * Headers of every 413: the rest of the refused body was never read, so the connection cannot carry
 * another request — without this the answer says keep-alive, the client sends its next request on
 * the same socket, and the server resets it.
 */
export const BODY_TOO_LARGE_HEADERS = { connection: 'close' } as const;

/**
 * The routes allowed more than 1 MB, each with its limit and its own 413 message: the document
 * uploads (docs/decisions/040-documents.md) and the nota fiscal's (decision 041). Every other route keeps MAX_BODY_BYTES. The node
 * adapter's `bodySizeLimit` (astro.config.mjs) is the largest of these, the outer bound; below it,
 * our own count holds each route to its limit.
 */
export const BODY_LIMITS: readonly { path: RegExp; bytes: number; message: string }[] = [
  {
    path: /^\/api\/(bff|plataforma)\/v1\/propostas\/[^/]+\/documentos\/?$/,
    bytes: DOCUMENT_MAX_BYTES,
    message: DOCUMENT_MESSAGES.tooLarge,
  },
  { path: /^\/api\/bff\/v1\/comissoes\/notas\/?$/, bytes: NOTA_MAX_BYTES, message: NOTA_MESSAGES.tooLarge },
  // The bulk user import's upload forms (decision 048): the file and the form's few fields.
  {
    path: /^\/(importar-usuarios|v2\/usuario\/importacao\/upload)\/?$/,
    bytes: IMPORT_LIMITS.maxBytes + 64 * 1024,
    message: IMPORT_MESSAGES.tooBig,
  },
];

/** The body limit of a path, and what its 413 says. */
export const bodyLimitFor = (pathname: string): { bytes: number; message: string } =>
  BODY_LIMITS.find((limit) => limit.path.test(pathname)) ?? { bytes: MAX_BODY_BYTES, message: BODY_TOO_LARGE_MESSAGE };

export class BodyTooLargeError extends Error {
  constructor() {
    super(BODY_TOO_LARGE_MESSAGE);
  }
}

/**
 * What @astrojs/node (astro/app/node `limitAsyncIterable`) throws into the body stream past its
 * limit: a plain Error with this message, no class or code to test for. Matched exactly, so any
 * other read failure stays what it is; tests/e2e/server-lifecycle.spec.ts sends a real chunked
 * body over the limit, so a change of wording in the adapter fails a test instead of becoming a 500.
 */
const ADAPTER_LIMIT_MESSAGE = /^Body size limit exceeded: received more than \d+ bytes$/;

export const isBodyTooLarge = (error: unknown): boolean =>
  error instanceof BodyTooLargeError || (error instanceof Error && ADAPTER_LIMIT_MESSAGE.test(error.message));

export const declaresTooLargeBody = (request: Request, limit = MAX_BODY_BYTES) =>
  Number(request.headers.get('content-length') ?? 0) > limit;

/** The whole body as bytes, or BodyTooLargeError as soon as it passes `limit` (declared or streamed). */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  if (declaresTooLargeBody(request, limit)) throw new BodyTooLargeError();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        throw new BodyTooLargeError();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isBodyTooLarge(error)) throw new BodyTooLargeError();
    throw error;
  }
  return Buffer.concat(chunks);
}

export const readBodyText = async (request: Request, limit = MAX_BODY_BYTES) => new TextDecoder().decode(await readBody(request, limit));
