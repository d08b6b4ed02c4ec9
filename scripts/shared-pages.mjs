// Pages that are the same for every visitor without a session (the home, the terms, the login
// pages) are rendered once per process and then answered from memory, compressed once, without
// entering Astro: a page says it is such with the `x-portal-shared` header (src/server/shared-page.ts);
// the first visitor's answer is kept, with every header the pipeline gave it (CSP, framing, no-store
// for browsers), and the header itself never leaves the server. A request with a query, a session
// cookie or another method than GET/HEAD always goes to Astro. Nothing here can go stale: such a
// page changes only with the code and configuration the process started with
// (docs/decisions/031-request-cost.md).
import { brotliCompressSync, constants } from 'node:zlib';
import { ENCODERS, headersGiven, preferredEncoding } from './compress-whole.mjs';

export const SHARED_PAGE_HEADER = 'x-portal-shared';
const SESSION_COOKIE = /(?:^|;\s*)token(?:V1|V2|Simulador)=/;
// Far above the number of shared pages (one copy per scheme); it bounds memory whatever is asked.
const MAX_PAGES = 64;

/**
 * The key of a request that may be answered from memory, or undefined. A page's headers depend on
 * the scheme the browser speaks (HSTS), decided by the portal's own rule for trusted proxies
 * (src/server/shared-page.ts): until the portal has rendered a shared page, nothing is shared.
 */
function keyOf(req) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const url = req.url ?? '';
  if (url.includes('?') || SESSION_COOKIE.test(req.headers.cookie ?? '')) return undefined;
  const scheme = globalThis[Symbol.for('portal.requestScheme')]?.(req);
  return scheme && `${url}|${scheme}`;
}

// Shared pages are compressed once each, so at brotli's best quality.
const SHARED_ENCODERS = {
  ...ENCODERS,
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
};

export function sharedPages() {
  const pages = new Map();

  /** Answers from memory the request of `key` (keyOf) when it can; true when it did. */
  function answer(key, req, res) {
    const page = key && pages.get(key);
    if (!page) return false;
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    page.bodies[encoding] ??= SHARED_ENCODERS[encoding](page.bodies.identity);
    const body = page.bodies[encoding];
    res.writeHead(200, {
      ...page.headers,
      vary: 'Accept-Encoding',
      'content-length': body.length,
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /**
   * Watches what Astro answers a request that could be shared (uncompressed: this runs before the
   * compression sees it) and keeps it when the page said so; the marker header is removed either way.
   * Astro's adapter hands its headers to writeHead at once, so they are read there.
   */
  function watch(key, req, res) {
    if (!key || req.method !== 'GET') return;
    const chunks = [];
    let kept;
    const { writeHead, write, end } = res;
    res.writeHead = function (status, ...rest) {
      const given = headersGiven(rest);
      const shared = given[SHARED_PAGE_HEADER] === '1' || res.getHeader(SHARED_PAGE_HEADER) === '1';
      delete given[SHARED_PAGE_HEADER];
      res.removeHeader(SHARED_PAGE_HEADER);
      const headers = { ...res.getHeaders(), ...given };
      if (shared && status === 200 && !headers['set-cookie']) kept = headers;
      return writeHead.call(this, status, ...rest);
    };
    res.write = function (chunk, ...rest) {
      if (kept && chunk) chunks.push(Buffer.from(chunk));
      return write.call(this, chunk, ...rest);
    };
    res.end = function (chunk, ...rest) {
      if (kept && chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
      if (kept && pages.size < MAX_PAGES)
        pages.set(key, { headers: withoutTransferHeaders(kept), bodies: { identity: Buffer.concat(chunks) } });
      return end.call(this, chunk, ...rest);
    };
  }

  return { keyOf, answer, watch };
}

/** The pipeline's headers of a kept page, but those that describe one transfer. */
function withoutTransferHeaders(headers) {
  const kept = { ...headers };
  for (const name of ['content-length', 'content-encoding', 'transfer-encoding', 'vary', 'date', 'connection', 'keep-alive'])
    delete kept[name];
  return kept;
}
