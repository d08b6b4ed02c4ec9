// `npm start`: build when the build is missing or older than the sources, then serve the portal.
// The server opens the database, applies migrations and seeds demo data on first use
// (src/server/db), so a restart keeps every change.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryPath, startPortal } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The embedded issuance apps' build script too: its bundles are part of the build (decision 054).
const SOURCES = ['src', 'middleware', 'public', 'astro.config.mjs', 'scripts/build-embedded-apps.mjs', 'package.json', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const stale = !existsSync(entryPath) || SOURCES.some((s) => newestMtime(join(root, s)) > statSync(entryPath).mtimeMs);
if (stale && !process.argv.includes('--no-build')) {
  console.log('Construindo o portal (primeira execução ou código alterado)…');
  const build = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? '127.0.0.1';
const portal = await startPortal({ port, host });
console.log(`Portal de Parceiros em http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    console.log(`${signal}: encerrando…`);
    await portal.stop();
    process.exit(0);
  });
}
