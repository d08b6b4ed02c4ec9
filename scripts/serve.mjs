// Runs the built portal inside our own http.Server, for what the standalone adapter lacks: response
// compression, pages shared by every visitor and signed-in answers that depend only on who asks
// answered from memory (docs/decisions/044), the database opened right after
// the first page (docs/decisions/031) — on a first start, made by a process of its own and opened
// before listening (decision 077) —, an operations key for local scripts (sso-link), pt-BR answers
// to addresses that do not decode, and a graceful SIGTERM — stop accepting, answer the requests in
// flight with `Connection: close`, close idle connections and the rest as their requests end, close
// the database, exit (docs/decisions/022). Around all of it, the operations layer (scripts/ops.mjs):
// /healthz, /readyz, /metrics, and a request id and one log line for every request.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import compression from 'compression';
import { compressWhole } from './compress-whole.mjs';
import { LABELS, operations, opsSettings } from './ops.mjs';
import { sharedPages } from './shared-pages.mjs';
import { viewerMemo } from './viewer-memo.mjs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const entryPath = resolve(root, process.env.PORTAL_DIST ?? 'dist', 'server/entry.mjs');

/** Where a running server tells local scripts how to reach it (PGlite allows one process per data dir). */
export const serverInfoPath = () => join(resolve(process.env.DATA_DIR ?? './data'), '.portal-server.json');

/**
 * An address whose escapes do not decode (%E0%A4%A, or %ED%A0%80 — a lone surrogate's bytes): the
 * adapter refuses it before the portal's middleware runs, in English; this says it in pt-BR, as JSON
 * under /api like every API error. Same text as the middleware's for a NUL (middleware/index.ts).
 */
function refuseUndecodableUrl(req, res) {
  try {
    decodeURI(req.url ?? '/');
    return false;
  } catch {
    const message = 'Endereço ou formulário com caractere não permitido (caractere nulo ou Unicode inválido).';
    const api = (req.url ?? '').startsWith('/api/');
    res.writeHead(400, {
      'content-type': api ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(api ? JSON.stringify({ status: 400, message }) : message);
    return true;
  }
}

/** PGlite with no database in DATA_DIR yet (src/server/boot/database.ts prepareFirstStart decides again). */
function isFirstStart() {
  const dataDir = process.env.DATA_DIR ?? './data';
  return !process.env.DATABASE_URL && !dataDir.startsWith('memory://') && !existsSync(join(resolve(dataDir), 'PG_VERSION'));
}

/**
 * A first start's demo — the database migrated and seeded with a year of sales, its progress printed —
 * made by a process of its own (scripts/first-start.mjs) that exits when done, taking with it the
 * memory that work grew and never gives back (the heap V8 reserved for its garbage, the allocator's
 * freed arenas): the server then holds what a restart holds (decision 077). Answers whether it was made.
 */
async function makeDemo() {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL('./first-start.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
  // Stopped meanwhile: the child stops too, then this process.
  const stop = (signal) => {
    child.kill(signal);
    child.once('exit', () => process.exit(1));
  };
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const code = await new Promise((done) => child.once('exit', done));
  process.off('SIGTERM', stop).off('SIGINT', stop);
  if (code !== 0) console.error(`Demonstração não preparada (código ${code}): o banco de dados será criado ao abrir.`);
  return code === 0;
}

/** Renders `path` once through `handler` on a private port of its own, then closes it. */
export async function renderOnce(handler, path) {
  const warmUp = http.createServer(handler);
  await new Promise((done) => warmUp.listen(0, '127.0.0.1', done));
  await fetch(`http://127.0.0.1:${warmUp.address().port}${path}`)
    .then((response) => response.arrayBuffer())
    .catch(() => {});
  warmUp.closeAllConnections();
  await new Promise((done) => warmUp.close(done));
}

/** How long a shutdown may take before the process exits anyway (a request that never ends). */
const FORCED_EXIT_MS = 9_000;
/** How long requests in flight get to finish before their connections are cut (then the database closes). */
const GRACE_MS = 5_000;
/** While stopping, how often connections that went idle since the last look are closed. */
const IDLE_SWEEP_MS = 25;

export async function startPortal({ port, host, announce = true, logDestination }) {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  // Before the bundle: a bad LOG_LEVEL, LOG_REQUESTS or METRICS_TOKEN stops the start, not a request.
  const ops = operations({ settings: opsSettings(), destination: logDestination });
  // React renders with its development build unless told otherwise: twice the work per page.
  process.env.NODE_ENV ??= 'production';
  const opsKey = randomBytes(32).toString('hex');
  process.env.PORTAL_OPS_KEY = opsKey;
  const demoMade = isFirstStart() && (await makeDemo());
  const { handler } = await import(pathToFileURL(entryPath).href);
  // Pages and API answers are compressed whole (scripts/compress-whole.mjs); other compressible
  // bodies (scripts, styles) stream through the `compression` package, which skips what is encoded.
  const compress = compression();
  const shared = sharedPages();
  const memo = viewerMemo();
  let stopping;
  // Answers not yet sent: when the signal comes, each is told to close its connection.
  const unanswered = new Set();
  const server = http.createServer((req, res) =>
    ops.track(req, res, () => {
      // Once stopping, every answer closes its connection: a keep-alive client reconnects elsewhere
      // instead of sending its next request to a server that is going away.
      if (stopping) res.setHeader('connection', 'close');
      else {
        unanswered.add(res);
        res.once('close', () => unanswered.delete(res));
      }
      // Probes and the scrape skip the sessions, the memory and Astro itself.
      if (ops.answer(req, res)) return;
      if (refuseUndecodableUrl(req, res)) return ops.label(LABELS.badUrl);
      const sharedKey = shared.keyOf(req);
      if (shared.answer(sharedKey, req, res)) return ops.label(LABELS.sharedPage);
      const ticket = memo.ticketOf(req);
      if (memo.answer(ticket, req, res)) return ops.label(LABELS.viewerMemo);
      compress(req, res, () => {
        compressWhole(req, res);
        shared.watch(sharedKey, req, res);
        memo.watch(ticket, req, res);
        handler(req, res);
      });
    }),
  );
  server.keepAliveTimeout = 5_000;
  // `kill -USR2 <pid>` prints the process's memory, by kind, as one JSON line (npm run bench reads it).
  process.on('SIGUSR2', () => console.log(JSON.stringify({ memoryUsage: process.memoryUsage() })));
  const open = () =>
    globalThis[Symbol.for('portal.open')]?.().catch((error) => console.error(`Banco de dados indisponível: ${error.message}`));
  // After a first start's demo, the database opens before listening: a newcomer's first click waits
  // for nothing. Otherwise a first page loads the portal's modules once listening, then the database
  // opens while pages that need none — the login, the home — are already answered.
  if (demoMade) {
    await renderOnce(handler, '/signin');
    await open();
  }
  await new Promise((done, fail) => server.once('error', fail).listen(port, host, done));
  const address = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  if (!demoMade) {
    await fetch(`${url}/signin`).catch(() => {});
    open();
  }

  const info = serverInfoPath();
  if (!process.env.DATABASE_URL && announce) {
    mkdirSync(join(info, '..'), { recursive: true });
    writeFileSync(info, JSON.stringify({ pid: process.pid, url, opsKey }), { mode: 0o600 });
  }

  /**
   * Stops accepting, lets every request in flight finish, then closes the database. Responses not
   * yet begun say `Connection: close`; a response already under way when the signal came
   * leaves its keep-alive connection idle when it ends, so idle connections are closed until none
   * is left — never one that is mid-request. `server.close` calls back once the last one is gone.
   */
  function stop() {
    ops.stopping();
    stopping ??= new Promise((done) => {
      const force = setTimeout(() => {
        console.error(`Encerramento excedeu ${FORCED_EXIT_MS / 1000} s: saindo sem fechar o banco de dados.`);
        process.exit(1);
      }, FORCED_EXIT_MS);
      force.unref();
      for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
      // The live worklist's event streams never end on their own: ended now, their browsers reconnect
      // to another instance (src/server/api/live-worklist.ts) and the connections go idle at once.
      globalThis[Symbol.for('portal.liveStop')]?.();
      unanswered.clear();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      // A request still unfinished after the grace (a body trickling in, a client that stalls) is cut,
      // so the database is still closed cleanly before the forced exit.
      const grace = setTimeout(() => server.closeAllConnections(), GRACE_MS);
      grace.unref();
      server.close(async () => {
        clearInterval(sweep);
        clearTimeout(grace);
        if (announce && existsSync(info)) rmSync(info, { force: true });
        await globalThis[Symbol.for('portal.shutdown')]?.();
        console.log('Conexões encerradas e banco de dados fechado.');
        done();
      });
      server.closeIdleConnections();
    });
    return stopping;
  }
  return { server, url, opsKey, stop, ops };
}
