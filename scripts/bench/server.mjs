// Building, starting and stopping the production portal for the benchmark, and what we read off
// its process (start-up time, resident memory).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const root = join(import.meta.dirname, '..', '..');
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 90_000; // a first start migrates and seeds the database (~5-10 s)
const POLL_INTERVAL_MS = 50;
const STOP_TIMEOUT_MS = 12_000; // serve.mjs forces its own exit after 9 s

/** Builds with the Node we run on (npm's Node 24; a bare `node` may be the machine's older one). */
export function build() {
  // The build's own log goes to stderr so that stdout carries only the report.
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
}

/**
 * Server and load generator each get their own core when `taskset` works here and there are at least
 * two cores, so autocannon's CPU use doesn't eat into the server's.
 */
export function cpuPinning() {
  if (os.cpus().length < 2) return { enabled: false, reason: 'a single CPU' };
  const works = ['0', '1'].every((core) => spawnSync('taskset', ['-c', core, 'true']).status === 0);
  return works ? { enabled: true } : { enabled: false, reason: '`taskset` is missing or not allowed here' };
}

/** `[command, args]` that run `args` on `core` when pinning is on, as they are otherwise. */
export function onCore(pinning, core, command, args) {
  return pinning.enabled ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/** A port nobody listens on right now (the kernel picks it). */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((done) => probe.listen(0, HOST, done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

/**
 * Spawns `scripts/start.mjs --no-build` and resolves once `/signin` answers 200, with the seconds
 * that took: polling the page a visitor would open first measures what "started" means to them.
 */
export async function startPortal({ dataDir, pinning }) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const [command, args] = onCore(pinning, 0, process.execPath, [join(root, 'scripts/start.mjs'), '--no-build']);
  const started = performance.now();
  // taskset execs node in place, so child.pid is the server's own pid (needed for /proc/<pid>/status).
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST, DATA_DIR: dataDir, PORTAL_ENV: 'PRD' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = keepTail(child);
  const exited = new Promise((done) => {
    child.once('exit', (code, signal) => done(code ?? signal));
    child.once('error', (error) => done(error.message));
  });
  let stopping = false;
  let exitStatus;
  exited.then((status) => {
    exitStatus = status;
    // A server that dies mid-run would otherwise only show up as a puzzling browser or load error.
    if (!stopping) console.error(`The portal exited unexpectedly (${status}). Its last output:\n${log()}`);
  });
  const stop = () => {
    stopping = true;
    return stopProcess(child, exited);
  };
  const server = { url, child, stop };

  const deadline = started + START_TIMEOUT_MS;
  while (performance.now() < deadline && exitStatus === undefined) {
    if (await answers200(`${url}/signin`)) return { ...server, startSeconds: (performance.now() - started) / 1000 };
    await sleep(POLL_INTERVAL_MS);
  }
  if (exitStatus !== undefined) throw new Error('The portal did not start (see its output above).');
  await server.stop();
  throw new Error(`The portal did not answer 200 on /signin within ${START_TIMEOUT_MS / 1000} s. Its last output:\n${log()}`);
}

async function answers200(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** Keeps the last lines a child printed, to show them if it fails. */
function keepTail(child, maxChars = 4_000) {
  let text = '';
  const append = (chunk) => (text = (text + chunk).slice(-maxChars));
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return () => text;
}

/** SIGTERM (the portal drains and closes its database), SIGKILL if it hangs. */
export async function stopProcess(child, exited) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** VmRSS (now) and VmHWM (peak) of a process in bytes, from /proc; null where /proc is missing. */
export function residentMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * Signs a demo account in through the API and returns its session as a Cookie header value.
 * Failed sign-ins are rate-limited, so this never retries.
 */
export async function signIn(url, { path, body }) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-portal-session': 'cookie' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((line) => line.split(';')[0]);
  if (res.status !== 200 || cookies.length === 0) throw new Error(`Sign-in at ${path} failed: HTTP ${res.status}`);
  return cookies.join('; ');
}
