// What a first visit to each route makes the browser download: every JS and CSS response, weighed
// as gzip bytes. We gzip each body ourselves (zlib, default level) so the figure doesn't depend on
// whether the server compresses; `compressed` says whether it did.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

const NAVIGATION_TIMEOUT_MS = 30_000;

/**
 * @param {string} url the portal's base URL
 * @param {{path: string, cookie?: string}[]} routes a cookie signs the visit in
 */
export async function measureBundles(url, routes) {
  // Playwright's own signal handlers would exit before our servers are stopped; it still closes the
  // browser when this process exits.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  try {
    const results = [];
    for (const route of routes) results.push(await measureRoute(browser, url, route));
    return { browserVersion: browser.version(), routes: results };
  } finally {
    await browser.close();
  }
}

async function measureRoute(browser, url, { path, cookie }) {
  // A fresh context per route: empty cache, so every asset counts as on a first visit.
  const context = await browser.newContext();
  try {
    if (cookie) await context.addCookies(parseCookies(cookie, url));
    const page = await context.newPage();
    const responses = [];
    page.on('response', (response) => responses.push(response));
    const main = await page.goto(`${url}${path}`, { waitUntil: 'networkidle', timeout: NAVIGATION_TIMEOUT_MS });
    // A signed-in route that bounced to a login page would otherwise be weighed as that login page.
    const landed = new URL(page.url()).pathname;
    if (main?.status() !== 200 || landed !== new URL(path, url).pathname) {
      throw new Error(`${path} answered ${main?.status()} and landed on ${landed}: is the session valid?`);
    }
    const totals = await weighResponses(responses);
    return { path, ...totals, inlineJsGzip: await inlineScriptGzip(page) };
  } finally {
    await context.close();
  }
}

async function weighResponses(responses) {
  const totals = { jsFiles: 0, jsGzip: 0, cssFiles: 0, cssGzip: 0, compressed: false };
  for (const response of responses) {
    const kind = assetKind(response.headers()['content-type'] ?? '');
    if (!kind || response.status() >= 300) continue; // redirects have no body
    const gzipBytes = gzipSync(await response.body()).length;
    totals[`${kind}Files`] += 1;
    totals[`${kind}Gzip`] += gzipBytes;
    if (response.headers()['content-encoding']) totals.compressed = true;
  }
  return totals;
}

function assetKind(contentType) {
  if (/javascript|ecmascript/.test(contentType)) return 'js';
  if (contentType.startsWith('text/css')) return 'css';
  return null;
}

/**
 * Inline scripts (Astro's island bootstrap) are part of the HTML, not a JS response, so they are not in
 * the budget; we still show them so that "0 bytes of JS" is visibly true of the whole page.
 */
async function inlineScriptGzip(page) {
  const sources = await page.$$eval('script:not([src])', (scripts) =>
    scripts.filter((s) => !/json/.test(s.type)).map((s) => s.textContent ?? ''),
  );
  return sources.length === 0 ? 0 : gzipSync(sources.join('\n')).length;
}

function parseCookies(header, url) {
  return header.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
}
