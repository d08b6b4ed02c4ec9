// A first start's demo (decision 077), in a process of its own that scripts/serve.mjs waits for: the
// portal's modules load with one page rendered on a private port, then the bundle migrates and seeds
// the empty database — with the year of sales when DEMO_HISTORY, printing its progress — and closes
// it (src/server/boot/database.ts prepareFirstStart). Exit 0 when the database is ready.
import { pathToFileURL } from 'node:url';
import { entryPath, renderOnce } from './serve.mjs';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
process.env.NODE_ENV ??= 'production';
const { handler } = await import(pathToFileURL(entryPath).href);
await renderOnce(handler, '/signin');
const firstStart = globalThis[Symbol.for('portal.firstStart')];
// A stand-in bundle (tests/integration/operations.test.ts) makes no database: the server opens its own.
if (!firstStart) process.exit(1);
try {
  await firstStart();
  process.exit(0);
} catch (error) {
  console.error(`Demonstração: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
