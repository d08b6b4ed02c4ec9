// Pages and API answers (HTML, JSON) are compressed whole, once, on the main thread: they are a few
// to a few hundred kilobytes, and Astro hands them over in a handful of chunks. Streaming them
// through `compression` (zlib on libuv's thread pool, a brotli encoder per response) cost half of a
// signed-in page's throughput (156 → 324 req/s without it) where compressing the 20 KB home at once
// takes 0.3 ms. Other bodies — scripts, styles — still stream through `compression`
// (scripts/serve.mjs; docs/decisions/031-request-cost.md).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const WHOLE = /^(?:text\/html|application\/json)\b/i;
// Below this, compressing costs more than the bytes it saves (as `compression`'s own threshold).
const MIN_BYTES = 1024;

/** br, gzip or identity, by what the client accepts (q=0 refuses); br first, as browsers prefer. */
export function preferredEncoding(acceptEncoding) {
  const accepted = String(acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.split('=')[1]) > 0)
    .map(([name]) => name.toLowerCase());
  return ['br', 'gzip'].find((name) => accepted.includes(name)) ?? 'identity';
}

export const ENCODERS = {
  identity: (body) => body,
  gzip: (body) => gzipSync(body),
  // Quality 2: the 20 KB signed-in home in 0.18 ms and 5.4 KB, where quality 4 (`compression`'s)
  // takes 0.36 ms for 5.0 KB — a tenth of the page's whole cost for 400 bytes.
  br: (body) =>
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
};

/** The headers object among writeHead's arguments after the status (an optional message may come first); {} when none. */
export const headersGiven = (args) => args.find((arg) => arg !== null && typeof arg === 'object' && !Array.isArray(arg)) ?? {};

/**
 * From here on, an HTML or JSON answer of `res` is held until it ends and then sent compressed,
 * with its length. Does nothing for a HEAD, a client that accepts no compression, or an answer that
 * is already encoded or has no body (204, 304).
 */
export function compressWhole(req, res) {
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  if (req.method === 'HEAD' || encoding === 'identity') return;
  const { writeHead, write, end } = res;
  const chunks = [];
  let held; // { status, headers } while the body is held back

  res.writeHead = function (status, ...rest) {
    const headers = { ...headersGiven(rest) };
    const type = headers['content-type'] ?? res.getHeader('content-type');
    const encoded = headers['content-encoding'] ?? res.getHeader('content-encoding');
    if (!WHOLE.test(String(type ?? '')) || encoded || status === 204 || status === 304) return writeHead.call(this, status, ...rest);
    held = { status, headers };
    return this;
  };
  res.write = function (chunk, ...rest) {
    if (!held) return write.call(this, chunk, ...rest);
    chunks.push(Buffer.from(chunk, typeof rest[0] === 'string' ? rest[0] : undefined));
    rest.find((arg) => typeof arg === 'function')?.();
    return true;
  };
  res.end = function (chunk, ...rest) {
    if (!held) return end.call(this, chunk, ...rest);
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk, typeof rest[0] === 'string' ? rest[0] : undefined));
    const body = Buffer.concat(chunks);
    const compress = body.length >= MIN_BYTES;
    const sent = compress ? ENCODERS[encoding](body) : body;
    const headers = { ...held.headers, 'content-length': sent.length };
    delete headers['transfer-encoding'];
    if (compress) {
      res.removeHeader('content-length');
      headers['content-encoding'] = encoding;
      headers.vary = [res.getHeader('vary') ?? headers.vary, 'Accept-Encoding'].filter(Boolean).join(', ');
    }
    writeHead.call(this, held.status, headers);
    return end.call(this, sent, ...rest.filter((arg) => typeof arg === 'function'));
  };
}
