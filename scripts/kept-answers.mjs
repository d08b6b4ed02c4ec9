// Answers the server keeps in memory and sends again without entering Astro: the pages shared by
// every visitor without a session (scripts/shared-pages.mjs) and the viewer memo's signed-in answers
// (scripts/viewer-memo.mjs). A page or endpoint marks an answer as keepable with a header, which
// never leaves the server; what is kept is the pipeline's answer as it was — every header it set
// (CSP, framing, no-store for browsers), uncompressed — and each encoding is made once, when first
// asked (docs/decisions/031-request-cost.md, 044-viewer-memo.md).
import { headersGiven, preferredEncoding } from './compress-whole.mjs';

/** Sends `kept` ({ headers, bodies: { identity, … } }) in the encoding the client prefers, made once with `encoders`. */
export function sendKept(kept, req, res, encoders) {
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  kept.bodies[encoding] ??= encoders[encoding](kept.bodies.identity);
  const body = kept.bodies[encoding];
  res.writeHead(200, {
    ...kept.headers,
    vary: 'Accept-Encoding',
    'content-length': body.length,
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Watches what Astro answers (uncompressed: this runs before the compression sees it) and hands
 * `keep(headers, body, value)` the answer when it carried the marker (`1`, or what the viewer memo's
 * says it was judged on), is a 200 and sets no cookie; the
 * marker is removed either way. Astro's adapter hands its headers to writeHead at once, so they are
 * read there.
 */
export function watchMarked(res, marker, keep) {
  const chunks = [];
  let kept;
  let markerValue;
  const { writeHead, write, end } = res;
  res.writeHead = function (status, ...rest) {
    const given = headersGiven(rest);
    const value = String(given[marker] ?? res.getHeader(marker) ?? '');
    const marked = value !== '';
    delete given[marker];
    res.removeHeader(marker);
    const headers = { ...res.getHeaders(), ...given };
    if (marked && status === 200 && !headers['set-cookie']) {
      kept = headers;
      markerValue = value;
    }
    return writeHead.call(this, status, ...rest);
  };
  res.write = function (chunk, ...rest) {
    if (kept && chunk) chunks.push(Buffer.from(chunk));
    return write.call(this, chunk, ...rest);
  };
  res.end = function (chunk, ...rest) {
    if (kept && chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
    if (kept) keep(withoutTransferHeaders(kept), Buffer.concat(chunks), markerValue);
    return end.call(this, chunk, ...rest);
  };
}

/** The pipeline's headers of a kept answer, but those that describe one transfer (a request id too: each has its own). */
function withoutTransferHeaders(headers) {
  const kept = { ...headers };
  for (const name of [
    'content-length',
    'content-encoding',
    'transfer-encoding',
    'vary',
    'date',
    'connection',
    'keep-alive',
    'x-request-id',
  ])
    delete kept[name];
  return kept;
}
