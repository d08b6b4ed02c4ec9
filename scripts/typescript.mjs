// Lets a script of scripts/ use src's own modules instead of a copy of them: import this first, then
// `await import('../src/lib/charges.ts')` loads src's TypeScript as the portal's build runs it —
// compiled by esbuild (the compiler Astro brings, pinned in package.json) on Node's loader thread,
// extensionless imports resolved (scripts/typescript-hooks.mjs). Why not Node's own type stripping:
// it runs only the erasable part of TypeScript (src/server/pdf/writer.ts has a parameter property),
// resolves no extensionless import, and exists unflagged only from Node 22.18 (package.json allows
// 22.12). module.register is there from Node 20.6. What a script imports this way must not need
// Astro's `astro:*` modules (src/lib and src/server's plain modules do not).
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
// Errors thrown in src point at its TypeScript lines (the compiled code carries its source map).
process.setSourceMapsEnabled(true);
