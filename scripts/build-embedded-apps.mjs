import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the three embedded issuance apps (docs/decisions/054-embedded-issuance-apps.md): each an
 * ES module at `{out}/mf/{app}/static/js/bundle.js` (SPEC §7's /static/js/bundle.js), that exports
 * single-spa's lifecycles and borrows React from the portal page instead of bundling its own.
 * Run by the Astro integration below at the end of `astro build`.
 */
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const APPS_DIR = join(ROOT, 'src/features/issuance-apps/apps');
export const APP_NAMES = ['emissao-cotacao', 'emissao-itens-pessoais', 'emissao-vida'];
/** Must equal SHARED_MODULES_GLOBAL of src/features/issuance-apps/host/shared-react.ts. */
const SHARED_GLOBAL = '__PORTAL_SHARED_MODULES__';
const SHARED = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime'];
const VIRTUAL = '\0portal-shared:';

/** The named exports each shim re-exports, read from the installed modules so none is forgotten. */
function exportNames(id) {
  const require = createRequire(join(ROOT, 'package.json'));
  const loaded = require(id === 'react/jsx-dev-runtime' ? 'react/jsx-runtime' : id);
  return Object.keys(loaded).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
}

/** `react` & co. resolve to shims reading the host's global: one React on the page. */
function sharedReact() {
  return {
    name: 'portal-shared-react',
    enforce: 'pre',
    resolveId(source) {
      return SHARED.includes(source) ? VIRTUAL + source : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      const source = id.slice(VIRTUAL.length);
      const key = source === 'react/jsx-dev-runtime' ? 'react/jsx-runtime' : source;
      const names = exportNames(source);
      return [
        `const shared = globalThis[${JSON.stringify(SHARED_GLOBAL)}];`,
        `if (!shared) throw new Error('O portal não compartilhou o React com a aplicação.');`,
        `const m = shared[${JSON.stringify(key)}];`,
        `const value = m && m.default ? m.default : m;`,
        'export default value;',
        ...names.map((name) => `export const ${name} = value.${name} ?? m.${name};`),
      ].join('\n');
    },
  };
}

/** The step components import lib/quote-flow: in the apps its stepPath gives the app's own addresses. */
function embeddedQuoteFlow() {
  const target = join(ROOT, 'src/lib/quote-flow.ts');
  const replacement = join(APPS_DIR, 'embedded-quote-flow.ts');
  return {
    name: 'portal-embedded-quote-flow',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer === replacement || !source.includes('quote-flow')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === target ? replacement : null;
    },
  };
}

export async function buildEmbeddedApps(outDir) {
  const { build } = await import('vite');
  for (const name of APP_NAMES) {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      mode: 'production',
      plugins: [sharedReact(), embeddedQuoteFlow()],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: join(outDir, 'mf', name, 'static/js'),
        emptyOutDir: true,
        copyPublicDir: false,
        minify: true,
        sourcemap: false,
        lib: { entry: join(APPS_DIR, `${name}.tsx`), formats: ['es'], fileName: () => 'bundle.js' },
        // Vite leaves whitespace in an ES library (for a later bundler's tree-shaking); these bundles
        // go straight to the browser, so they are minified whole.
        rolldownOptions: { output: { minify: true } },
      },
    });
  }
}

/** The Astro integration: the bundles land in the client output, served like any static file. */
export function embeddedApps() {
  return {
    name: 'portal-embedded-apps',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        await buildEmbeddedApps(client);
        logger.info(`aplicações de emissão em ${join(client, 'mf')}`);
      },
    },
  };
}
