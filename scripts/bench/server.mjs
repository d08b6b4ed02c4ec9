// Building, starting and stopping the production portal for the benchmark, and what we read off
// its process (start-up time, resident memory).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateSync } from 'otplib';

export const root = join(import.meta.dirname, '..', '..');
/**
 * The Node flags `npm start` gives the server (package.json's start script): the bench starts it
 * the same way, so its memory is the memory a deployment sees (docs/decisions/044-viewer-memo.md).
 */
export const SERVER_NODE_FLAGS = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  .scripts.start.split(/\s+/)
  .filter((word) => word.startsWith('--'));
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 180_000; // a first start makes the demo's year before it listens (~20 s; decision 077)
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
 * `environment`: PORTAL_ENV, production unless a page exists only elsewhere (the scale phase's commissions).
 */
export async function startPortal({ dataDir, pinning, databaseUrl, environment = 'PRD' }) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const [command, args] = onCore(pinning, 0, process.execPath, [...SERVER_NODE_FLAGS, join(root, 'scripts/start.mjs'), '--no-build']);
  const started = performance.now();
  // taskset execs node in place, so child.pid is the server's own pid (needed for /proc/<pid>/status).
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST, DATA_DIR: dataDir, PORTAL_ENV: environment, DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = keepTail(child);
  const memoryLines = watchMemoryLines(child);
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
  const server = { url, child, stop, memory: () => memoryOf(child, memoryLines) };

  const deadline = started + START_TIMEOUT_MS;
  while (performance.now() < deadline && exitStatus === undefined) {
    if (await answers200(`${url}/signin`)) return { ...server, spawnedAt: started, startSeconds: (performance.now() - started) / 1000 };
    await sleep(POLL_INTERVAL_MS);
  }
  if (exitStatus !== undefined) throw new Error('The portal did not start (see its output above).');
  await server.stop();
  throw new Error(`The portal did not answer 200 on /signin within ${START_TIMEOUT_MS / 1000} s. Its last output:\n${log()}`);
}

/**
 * The packages a server start imports before it answers (static imports only, as a start loads them):
 * those of scripts/start.mjs and what it imports, and those of the built server's entry and its chunks.
 * The pages and the database are imported on demand, so they are the portal's own start-up work.
 */
export function startPackages() {
  const files = new Set();
  const packages = new Set();
  const walk = (file) => {
    if (files.has(file) || !existsSync(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) walk(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  walk(join(root, 'scripts/start.mjs'));
  walk(join(root, 'dist/server/entry.mjs'));
  return [...packages].sort();
}

/**
 * Seconds from spawning a bare Node start of the portal's size (bare-start.mjs: the same Node, flags,
 * core and NODE_ENV, importing startPackages()) to its first 200, polled as startPortal polls the portal.
 */
export async function bareStart(pinning) {
  const port = await freePort();
  const job = JSON.stringify({ port, host: HOST, packages: startPackages() });
  const [command, args] = onCore(pinning, 0, process.execPath, [...SERVER_NODE_FLAGS, join(import.meta.dirname, 'bare-start.mjs'), job]);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    while (performance.now() < started + START_TIMEOUT_MS && child.exitCode === null) {
      if (await answers200(`http://${HOST}:${port}/`)) return (performance.now() - started) / 1000;
      await sleep(POLL_INTERVAL_MS);
    }
    throw new Error('The bare Node start (scripts/bench/bare-start.mjs) did not answer 200.');
  } finally {
    await stopProcess(child, exited);
  }
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
function residentMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return null;
  }
}

/** The `{"memoryUsage": …}` lines the server prints on SIGUSR2 (scripts/serve.mjs), as they come. */
function watchMemoryLines(child) {
  const waiting = [];
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    let end = text.indexOf('\n');
    while (end >= 0) {
      const line = text.slice(0, end);
      text = text.slice(end + 1);
      if (line.startsWith('{"memoryUsage"')) waiting.shift()?.(JSON.parse(line).memoryUsage);
      end = text.indexOf('\n');
    }
  });
  return waiting;
}

/**
 * The server's memory: resident (now and peak, from /proc) and, from the process itself, the V8
 * heap and the memory outside it (buffers, WASM) — RSS alone does not say what holds it.
 */
async function memoryOf(child, waiting) {
  const resident = residentMemory(child.pid);
  const usage = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 5_000);
    waiting.push((value) => {
      clearTimeout(timer);
      resolve(value);
    });
    child.kill('SIGUSR2');
  });
  return {
    ...resident,
    heapUsed: usage?.heapUsed ?? null,
    heapTotal: usage?.heapTotal ?? null,
    external: usage?.external ?? null,
    arrayBuffers: usage?.arrayBuffers ?? null,
  };
}

/**
 * Signs a demo account in through the API as the login page does, and returns its session as a
 * Cookie header value: a v2 partner also takes the simulator token the page asks for (SPEC §4), so
 * the load sends what a signed-in browser sends. Failed sign-ins are rate-limited: no retries.
 */
export async function signIn(url, { path, body, simulatorToken }) {
  // A cookie jar, as a browser keeps one: a cookie set again replaces the one of the same name, and
  // one set empty (cleared) goes.
  const jar = new Map();
  const store = (cookies) => {
    for (const cookie of cookies) {
      const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
      if (value) jar.set(name, cookie);
      else jar.delete(name);
    }
  };
  const email = demoEmail(body.userName ?? body.user_name);
  const device = rememberedDevices.get(`${url}|${email}`);
  store(await postForCookies(url, path, body, device ? [device] : []));
  // An administrator's second factor (decision 068): the demo app's code, and the browser remembered.
  if (jar.has('desafioSegundoFator')) {
    const answer = () =>
      postForCookies(url, '/api/auth/v1/segundo-fator/totp', { codigo: demoTotpCode(email), lembrar: true }, [...jar.values()]);
    // A code is good once per 30 s: an earlier sign-in of the same account may have taken this one's.
    const nextStep = async () => {
      await sleep(30_000 - (Date.now() % 30_000) + 50);
      return answer();
    };
    store(await answer().catch(nextStep));
    const remembered = jar.get('dispositivoConfiavel');
    if (remembered) rememberedDevices.set(`${url}|${email}`, remembered);
  }
  if (simulatorToken) store(await postForCookies(url, '/api/plataforma/v1/login/token', simulatorToken, [...jar.values()]));
  jar.delete('dispositivoConfiavel');
  return [...jar.values()].join('; ');
}

/** The remembered browser of each administrator per server: one code per account, then the device. */
const rememberedDevices = new Map();
const DEMO_TOTP_SECRETS = JSON.parse(readFileSync(join(root, 'src/server/demo/second-factor-secrets.json'), 'utf8'));
/** The insurer's admins sign in with the name alone (SPEC §6). */
const demoEmail = (userName) => (userName.includes('@') ? userName : `${userName}@seguradora.demo`).trim().toLowerCase();
const demoTotpCode = (email) => generateSync({ secret: DEMO_TOTP_SECRETS[email] });

async function postForCookies(url, path, body, cookies = []) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-portal-session': 'cookie', cookie: cookies.join('; ') },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000), // a first start answers once the database is migrated and seeded
  });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().map((line) => line.split(';')[0]);
  if (res.status !== 200 || set.length === 0) throw new Error(`Sign-in at ${path} failed: HTTP ${res.status}`);
  return set;
}

/**
 * A throwaway PostgreSQL server for the signed-in rows on PostgreSQL: BENCH_DATABASE_URL when set,
 * else a cluster made with Debian's postgresql binaries in `dir` (as the postgres user when run as
 * root, in a directory of its own that user can reach), else the reason it cannot. `own`: always a
 * cluster of its own (the scale phase grows its database: never one given by BENCH_DATABASE_URL).
 */
export async function startPostgres({ own = false } = {}) {
  if (process.env.BENCH_DATABASE_URL && !own) return { url: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  const bin = ['/usr/lib/postgresql']
    .flatMap((base) => {
      try {
        return readdirSync(base).map((version) => join(base, version, 'bin'));
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .at(-1);
  if (!bin) return { skipped: 'no PostgreSQL server here (apt install postgresql, or set BENCH_DATABASE_URL)' };
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) => {
    const [cmd, full] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    const result = spawnSync(cmd, full, { cwd: '/', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  const dir = mkdtempSync(join(os.tmpdir(), 'portal-bench-pg-'));
  if (asRoot) spawnSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres']);
  run('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-o', `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1`, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (!existsSync(dir)) return; // stopped already
      try {
        run('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
