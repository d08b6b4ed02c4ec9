import { describe, expect, it } from 'vitest';
import { routeArea } from './routes';
import { safeNextPath } from './paths';

describe('routeArea', () => {
  it.each([
    ['/', 'public'],
    ['/signin', 'public'],
    ['/login/', 'public'],
    ['/v2/login', 'public'],
    ['/v2/login/session/abc', 'public'],
    ['/v2/senha', 'public'],
    ['/home', 'v1'],
    ['/historico', 'v1'],
    ['/v2/home', 'v2'],
    ['/v2', 'v2'],
    ['/v2x', 'v1'],
  ])('%s → %s', (path, area) => expect(routeArea(path)).toBe(area));
});

describe('safeNextPath', () => {
  it.each([
    ['/home', '/home'],
    ['/v2/home?x=1', '/v2/home?x=1'],
    ['https://evil.example/', '/fallback'],
    ['//evil.example', '/fallback'],
    ['/\\evil.example', '/fallback'],
    [null, '/fallback'],
    // What the browser's URL parser makes of them (tabs, line breaks, backslashes, dot segments).
    ['/\t/evil.example/phish', '/fallback'],
    ['/\n/evil.example', '/fallback'],
    ['/\r\n/evil.example', '/fallback'],
    ['\\/evil.example', '/fallback'],
    ['/.//evil.example', '/fallback'],
    ['/a/../..//evil.example', '/fallback'],
    ['javascript:alert(1)', '/fallback'],
    ['/v2/simulador-residencial/cadastro/2026000123/editar#x', '/v2/simulador-residencial/cadastro/2026000123/editar#x'],
    ['/v2/./home', '/v2/home'],
  ])('%s → %s', (next, expected) => expect(safeNextPath(next, '/fallback')).toBe(expected));
});
