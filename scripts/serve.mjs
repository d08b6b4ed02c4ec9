// Serves the built portal with our own http.Server around the adapter's handler, for what the
// standalone adapter lacks: a warm-up of the database before the first visitor and a graceful
// SIGTERM (stop accepting, let in-flight requests finish, close the database, exit within 10 s).
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const root = fileURLToPath(new URL('..', import.meta.url));
const { handler } = await import(pathToFileURL(join(root, 'dist/server/entry.mjs')).href);

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? '127.0.0.1';
const server = http.createServer(handler);
server.keepAliveTimeout = 5_000;

server.listen(port, host, async () => {
  // The first request opens (and on first run migrates and seeds) the database; make it ours.
  await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/signin`).catch(() => {});
  console.log(`Portal de Parceiros em http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`);
});

let stopping = false;
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: encerrando…`);
  const force = setTimeout(() => process.exit(1), 9_000);
  force.unref();
  server.close(async () => {
    await globalThis[Symbol.for('portal.shutdown')]?.();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
