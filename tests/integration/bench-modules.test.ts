import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm run bench` is run by hand, seldom, and runs its phases on import — so a name it imports that a
 * module no longer exports (two branches merged, each renaming its side) was found only by the next
 * person to run it. Each module's named imports are checked here against what the module exports.
 */
const SCRIPTS = resolve(import.meta.dirname, '../../scripts');
const IMPORTS = /import\s*\{([^}]+)\}\s*from\s*'(\.[^']+)'/g;

describe('the bench script', () => {
  it('imports only names its modules export', async () => {
    const source = readFileSync(join(SCRIPTS, 'bench.mjs'), 'utf8');
    const missing: string[] = [];
    let modules = 0;
    for (const [, names, from] of source.matchAll(IMPORTS)) {
      modules += 1;
      const exported = await import(pathToFileURL(join(SCRIPTS, from!)).href);
      for (const name of names!.split(',').map((part) => part.trim().split(/\s+as\s+/)[0]!)) {
        if (name && !(name in exported)) missing.push(`${name} from ${from}`);
      }
    }
    expect(modules).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('picks scale routes by a part of their address, and names a part no route holds', async () => {
    const { SCALE_ROUTES, selectRoutes } = await import(pathToFileURL(join(SCRIPTS, 'bench/scale.mjs')).href);
    expect(selectRoutes()).toBe(SCALE_ROUTES);
    const common = selectRoutes(['segurado=']);
    expect(common.length).toBeGreaterThan(0);
    expect(common.length).toBeLessThan(SCALE_ROUTES.length);
    for (const route of common) expect(route.path ?? route.deepOf).toContain('segurado=');
    expect(() => selectRoutes(['/nenhuma-rota'])).toThrow('no scale route');
  });
});
