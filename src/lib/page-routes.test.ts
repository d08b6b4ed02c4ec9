import { expect, it } from 'vitest';
import { routeOfPageFile, specNotation } from './page-routes';

it.each([
  ['/src/pages/index.astro', '/'],
  ['/src/pages/signin.astro', '/signin'],
  ['/src/pages/v2/index.astro', '/v2'],
  ['/src/pages/v2/login/session/[idSessaoSSO].astro', '/v2/login/session/[idSessaoSSO]'],
  ['/src/pages/sair.ts', '/sair'],
  ['/src/pages/api/[...path].ts', undefined],
  ['/src/components/x.astro', undefined],
])('%s → %s', (file, route) => expect(routeOfPageFile(file)).toBe(route));

it('writes parameters the SPEC way', () => expect(specNotation('/editar-usuario/[id]')).toBe('/editar-usuario/{id}'));
