// Throughput: autocannon against the portal and, alternately, against a bare Node server answering, from memory,
// the HTML the portal renders for the signed-in home — the same bytes, uncompressed, as issue 12
// defines the baseline — so the portal's figures read as a share of what Node itself manages here.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { onCleanup } from './cleanup.mjs';
import { onCore, stopProcess } from './server.mjs';

const HERE = import.meta.dirname;
const CHILD_TIMEOUT_MS = 120_000; // far above warm-up + duration; a hung child must not hang the run

/**
 * A target is a GET unless it names a method; a `body` is sent as JSON with every request, with the
 * headers a browser sends (`headers`) and the session cookie. `raw` (startRawServer) is measured
 * before the first target and again after each one, so every target has a raw run on each side of it;
 * its share of raw is its requests per second over the mean of those two (`rawRequestsPerSecond`).
 * Whatever else loads the machine then loads both: the share is what moves only with the portal.
 * @param {{url: string, raw: object, pinning: object,
 *   targets: {name: string, path: string, method?: string, body?: object, cookie?: string, headers?: object}[],
 *   connections: number, duration: number, warmup: number}} options
 * @returns {{rawRuns: object[], rows: object[]}} every raw run in order, and each target's row
 */
export async function measureAlternately({ url, raw, pinning, targets, connections, duration, warmup }) {
  const settings = { pinning, connections, duration, warmup };
  const rawRuns = [await measureRaw(raw, settings)];
  const rows = [];
  for (const target of targets) {
    const row = await measureTarget(url, target, settings);
    rawRuns.push(await measureRaw(raw, settings));
    const around = rawRuns.slice(-2).map((run) => run.requestsPerSecond);
    rows.push({ ...row, rawRequestsPerSecond: (around[0] + around[1]) / 2 });
  }
  return { rawRuns, rows };
}

/** One run of the raw server (its errors count like a target's). */
function measureRaw(raw, settings) {
  return runAutocannon({ url: `${raw.url}${raw.path}`, method: 'GET', headers: raw.headers }, settings);
}

/** The raw runs summed up for the report: the median's figures, the range of requests per second, the totals. */
export function rawSummary(rawRuns) {
  const sorted = [...rawRuns].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    ...median,
    runs: rawRuns.length,
    min: sorted[0].requestsPerSecond,
    max: sorted.at(-1).requestsPerSecond,
    total: rawRuns.reduce((n, run) => n + run.total, 0),
    errors: rawRuns.reduce((n, run) => n + run.errors, 0),
    non2xx: rawRuns.reduce((n, run) => n + run.non2xx, 0),
  };
}

/** One target under load, after one request that must succeed. */
export async function measureTarget(url, target, settings) {
  const request = requestOf(url, target);
  await answersOnce(request);
  const { cookie: _cookie, body: _body, headers: _headers, ...described } = target; // the session stays out of the results
  return { ...described, method: request.method, ...(await runAutocannon(request, settings)) };
}

/** The one request autocannon repeats: URL, method, headers and the body as a string. */
function requestOf(url, { path, method = 'GET', body, cookie, headers: given = {} }) {
  const headers = { ...given };
  if (cookie) headers.cookie = cookie;
  // A POST signed in by cookie is what the portal's own fetches send (see server.mjs's signIn).
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-portal-session': 'cookie' });
  return { url: `${url}${path}`, method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

/**
 * One request before the load: a target that answers an error (a stale body, a lost session) stops
 * the run with the server's message instead of ten seconds of identical non-2xx responses.
 */
async function answersOnce({ url, method, headers, body }) {
  const res = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`${method} ${url} answered ${res.status} before the load: ${text.slice(0, 500)}`);
  }
}

/**
 * The raw baseline for `target` (a path, its cookie and headers, as measureTarget takes): the page the
 * portal at `url` renders for it, served from memory by a bare Node child. Stop it with `stop()`.
 */
export async function startBaseline({ url, target, tmpDir, pinning }) {
  const raw = await startRawServer(requestOf(url, target), tmpDir, pinning);
  return { ...raw, path: target.path, headers: target.headers };
}

/**
 * Saves the page the portal renders for `request` (decoded when it came compressed) and serves it
 * from a child on the server's core. Serving the compressed bytes instead would make the ceiling
 * about five times higher (17,333 req/s for 5 KB of brotli against ~3,500 for the 20 KB page, 2026-11):
 * then the baseline measures the size of a compressed page more than the work of a server.
 */
async function startRawServer(request, tmpDir, pinning) {
  const { status, headers, body: sent } = await rawResponse(request);
  if (status !== 200) throw new Error(`GET ${request.url} answered ${status}`);
  const body = DECODERS[headers['content-encoding'] ?? 'identity'](sent);
  const bodyFile = join(tmpDir, 'baseline.body');
  writeFileSync(bodyFile, body);
  const served = JSON.stringify({ file: bodyFile, contentType: headers['content-type'] });
  const [command, args] = onCore(pinning, 0, process.execPath, [join(HERE, 'raw-server.mjs'), served]);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((done) => child.once('exit', done));
  const { port } = JSON.parse(await firstLine(child));
  return { url: `http://127.0.0.1:${port}`, bytes: body.length, stop: () => stopProcess(child, exited) };
}

const DECODERS = { identity: (body) => body, gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync };

/** A response's status, headers and body bytes exactly as they came (fetch would decompress them). */
function rawResponse({ url, headers }) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

/** One autocannon run in a child on the load generator's core; its JSON summary. */
async function runAutocannon({ url, method, headers, body }, { pinning, connections, duration, warmup }) {
  console.error(`  autocannon ${method} ${url} (${connections} connections, ${warmup} s warm-up + ${duration} s)`);
  const job = JSON.stringify({ url, method, headers, body, connections, duration, warmup });
  const [command, args] = onCore(pinning, 1, process.execPath, [join(HERE, 'load-worker.mjs'), job]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  onCleanup(() => child.kill('SIGKILL'));
  const kill = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  try {
    return JSON.parse(await firstLine(child));
  } finally {
    clearTimeout(kill);
  }
}

/** The first line a child prints; rejects if it exits before printing one. */
function firstLine(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code, signal) => reject(new Error(`${child.spawnargs.join(' ')} exited (${code ?? signal}) without output`)));
    child.once('error', reject);
  });
}
