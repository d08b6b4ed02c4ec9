// Throughput: autocannon against the portal and against a bare Node server answering the same
// /signin HTML from memory, so the portal's figures read as a share of what Node itself manages here.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup } from './cleanup.mjs';
import { onCore, stopProcess } from './server.mjs';

const HERE = import.meta.dirname;
const CHILD_TIMEOUT_MS = 120_000; // far above warm-up + duration; a hung child must not hang the run

/**
 * A target is a GET unless it names a method; a `body` is sent as JSON with every request.
 * @param {{url: string, tmpDir: string, pinning: object,
 *   targets: {name: string, path: string, method?: string, body?: object, cookie?: string}[],
 *   connections: number, duration: number, warmup: number}} options
 */
export async function measureLoad({ url, tmpDir, pinning, targets, connections, duration, warmup }) {
  const settings = { pinning, connections, duration, warmup };
  const raw = await startRawServer(url, tmpDir, pinning);
  let baseline;
  try {
    baseline = await runAutocannon({ url: `${raw.url}/signin`, method: 'GET', headers: {} }, settings);
  } finally {
    await raw.stop();
  }
  const results = [{ name: 'raw Node http, /signin HTML from memory', path: '/signin', method: 'GET', ...baseline, baseline: true }];
  for (const target of targets) {
    const request = requestOf(url, target);
    await answersOnce(request);
    const { cookie: _cookie, body: _body, ...described } = target; // the session stays out of the results
    results.push({ ...described, method: request.method, ...(await runAutocannon(request, settings)) });
  }
  return results;
}

/** The one request autocannon repeats: URL, method, headers and the body as a string. */
function requestOf(url, { path, method = 'GET', body, cookie }) {
  const headers = {};
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

/** Saves the portal's /signin HTML and serves it from a child on the server's core. */
async function startRawServer(url, tmpDir, pinning) {
  const res = await fetch(`${url}/signin`);
  if (res.status !== 200) throw new Error(`GET /signin answered ${res.status}`);
  const htmlFile = join(tmpDir, 'signin.html');
  writeFileSync(htmlFile, Buffer.from(await res.arrayBuffer()));

  const [command, args] = onCore(pinning, 0, process.execPath, [join(HERE, 'raw-server.mjs'), htmlFile]);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((done) => child.once('exit', done));
  const { port } = JSON.parse(await firstLine(child));
  return { url: `http://127.0.0.1:${port}`, stop: () => stopProcess(child, exited) };
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
