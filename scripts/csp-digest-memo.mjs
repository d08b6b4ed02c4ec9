// A Vite plugin for the build: Astro hashes every inline script and style of a page into its
// Content-Security-Policy at every request, through WebCrypto (a job on libuv's thread pool and back
// per digest, four per signed-in page). The texts are the build's own — a route's styles, the island
// bootstrap — so their digests never change: this remembers each one, and a signed-in page answers
// ~40 % more requests a second (docs/decisions/031-request-cost.md). Astro's function stays the one
// that hashes; only repeated texts skip it.
//
// It rewrites Astro's own module, so an Astro release that renames or reshapes the function fails the
// build here instead of silently hashing at every request again.
const MODULE = /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/;
const ORIGINAL = 'async function generateCspDigest(data, algorithm) {';

// A page whose inline script holds per-request data (define:vars) would add a text per request: the
// memory is emptied when full, so it stays bounded whatever is rendered.
const MEMO = `
const CSP_DIGESTS = new Map();
const CSP_DIGESTS_MAX = 1000;
async function generateCspDigest(data, algorithm) {
  const key = algorithm + ':' + data;
  const known = CSP_DIGESTS.get(key);
  if (known) return known;
  const digest = await computeCspDigest(data, algorithm);
  if (CSP_DIGESTS.size >= CSP_DIGESTS_MAX) CSP_DIGESTS.clear();
  CSP_DIGESTS.set(key, digest);
  return digest;
}
async function computeCspDigest(data, algorithm) {`;

/** Astro's encryption module with its CSP digests remembered; throws when the function is not found. */
export function rememberCspDigests(code) {
  if (!code.includes(ORIGINAL))
    throw new Error(`csp-digest-memo: Astro's generateCspDigest changed; review scripts/csp-digest-memo.mjs (docs/decisions/031).`);
  return code.replace(ORIGINAL, MEMO);
}

export function cspDigestMemo() {
  return {
    name: 'portal:csp-digest-memo',
    apply: 'build',
    transform(code, id) {
      return MODULE.test(id) ? { code: rememberCspDigests(code), map: null } : undefined;
    },
  };
}
