// The module hooks behind scripts/typescript.mjs (they run on Node's loader thread): src's TypeScript
// compiled by esbuild as it is loaded, and src's extensionless relative imports (`from './calendar'`)
// resolved as Vite resolves them for the portal. Nothing else is touched: a script's own `.mjs`
// imports and every package resolve as Node resolves them.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const TYPESCRIPT = /\.(ts|tsx|mts)$/;
/** What an extensionless import of src can name, in the order Vite tries it. */
const CANDIDATES = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
const isFile = (url) => existsSync(url) && statSync(url).isFile();

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent?.startsWith('file:') && TYPESCRIPT.test(parent) && /^\.{1,2}\//.test(specifier)) {
    const direct = new URL(specifier, parent);
    if (!isFile(direct))
      for (const suffix of CANDIDATES) {
        const url = new URL(specifier + suffix, parent);
        if (isFile(url)) return { url: url.href, format: 'module', shortCircuit: true };
      }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: url.endsWith('.tsx') ? 'tsx' : 'ts',
    format: 'esm',
    // node22 (package.json's engines): below it esbuild drops import attributes (`with { type: 'json' }`), which Node needs.
    target: 'node22',
    sourcefile: path,
    sourcemap: 'inline',
    jsx: 'automatic',
    // As tsconfig.json (astro/tsconfigs/strict): an import without `type` is kept, as the portal's build keeps it.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
