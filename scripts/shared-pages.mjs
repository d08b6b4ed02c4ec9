// Pages that are the same for every visitor without a session (the home, the terms, the login
// pages) are rendered once per process and then answered from memory, compressed once, without
// entering Astro: a page says it is such with the `x-portal-shared` header (src/server/shared-page.ts).
// A request with a query, a session cookie or another method than GET/HEAD always goes to Astro.
// Nothing here can go stale: such a page changes only with the code and configuration the process
// started with (docs/decisions/031-request-cost.md).
import { brotliCompressSync, constants } from 'node:zlib';
import { ENCODERS } from './compress-whole.mjs';
import { sendKept, watchMarked } from './kept-answers.mjs';

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
  return {
    keyOf,
    /** Answers from memory the request of `key` (keyOf) when it can; true when it did. */
    answer(key, req, res) {
      const page = key && pages.get(key);
      if (!page) return false;
      sendKept(page, req, res, SHARED_ENCODERS);
      return true;
    },
    /** Keeps what Astro answers a request that could be shared, when the page said it is. */
    watch(key, req, res) {
      if (!key || req.method !== 'GET') return;
      watchMarked(res, SHARED_PAGE_HEADER, (headers, identity) => {
        if (pages.size < MAX_PAGES) pages.set(key, { headers, bodies: { identity } });
      });
    },
  };
}
