// Runs the built portal inside our own http.Server, for what the standalone adapter lacks: response
// compression, a warm-up of the database before the first visitor, an operations key for local
// scripts (sso-link) and a graceful SIGTERM (stop accepting, finish in-flight requests, close the
// database, exit within 10 s).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import compression from 'compression';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const entryPath = join(root, process.env.PORTAL_DIST ?? 'dist', 'server/entry.mjs');

/** Where a running server tells local scripts how to reach it (PGlite allows one process per data dir). */
export const serverInfoPath = () => join(resolve(process.env.DATA_DIR ?? './data'), '.portal-server.json');

export async function startPortal({ port, host, announce = true }) {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  // React renders with its development build unless told otherwise: twice the work per page.
  process.env.NODE_ENV ??= 'production';
  const opsKey = randomBytes(32).toString('hex');
  process.env.PORTAL_OPS_KEY = opsKey;
  const { handler } = await import(pathToFileURL(entryPath).href);
  // gzip/brotli for HTML, JSON, JS and CSS (the `compression` package works on plain req/res).
  const compress = compression();
  const server = http.createServer((req, res) => compress(req, res, () => handler(req, res)));
  server.keepAliveTimeout = 5_000;
  await new Promise((done, fail) => server.once('error', fail).listen(port, host, done));
  const address = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  // The first request opens (and on first run migrates and seeds) the database.
  await fetch(`${url}/signin`).catch(() => {});

  const info = serverInfoPath();
  if (!process.env.DATABASE_URL && announce) {
    mkdirSync(join(info, '..'), { recursive: true });
    writeFileSync(info, JSON.stringify({ pid: process.pid, url, opsKey }), { mode: 0o600 });
  }

  let stopping;
  function stop() {
    stopping ??= new Promise((done) => {
      const force = setTimeout(() => process.exit(1), 9_000);
      force.unref();
      server.close(async () => {
        if (announce && existsSync(info)) rmSync(info, { force: true });
        await globalThis[Symbol.for('portal.shutdown')]?.();
        done();
      });
      server.closeIdleConnections();
    });
    return stopping;
  }
  return { server, url, opsKey, stop };
}
