import { describe, expect, it } from 'vitest';
import {
  bundleAddress,
  EMBEDDED_APPS,
  embeddedPageAnswer,
  embeddedQuoteHref,
  findEmbeddedApp,
  isActiveOn,
  mayRegister,
  parseEmbeddedRoute,
  retryAddress,
  registrationStart,
} from './embedded-apps';

const app = (name: string) => findEmbeddedApp(name)!;
const cotacao = app('emissao-cotacao');
const itens = app('emissao-itens-pessoais');
const vida = app('emissao-vida');

describe('bundleAddress (SPEC §7)', () => {
  it('serves every app from this server when no host is configured', () => {
    expect(bundleAddress(cotacao, {})).toBe('/mf/emissao-cotacao/static/js/bundle.js');
    expect(bundleAddress(itens, { host: '', prefix: 'hml.' })).toBe('/mf/emissao-itens-pessoais/static/js/bundle.js');
    expect(bundleAddress(vida, { host: '   ' })).toBe('/mf/emissao-vida/static/js/bundle.js');
  });

  it.each([
    ['emissao-cotacao', 'hml.', '//emissao-cotacao.hml.seguradora.com.br/static/js/bundle.js'],
    ['emissao-itens-pessoais', '', '//emissao-itens-pessoais.seguradora.com.br/static/js/bundle.js'],
    // The life app is served from an emissao-cotacao-vida host.
    ['emissao-vida', 'dev.', '//emissao-cotacao-vida.dev.seguradora.com.br/static/js/bundle.js'],
  ])('%s with prefix "%s" → %s', (name, prefix, expected) => {
    expect(bundleAddress(app(name), { host: 'seguradora.com.br', prefix })).toBe(expected);
  });
});

describe('retryAddress', () => {
  it('keeps the first address and gives every retry a new one', () => {
    const address = '/mf/emissao-vida/static/js/bundle.js';
    expect(retryAddress(address, 0)).toBe(address);
    expect(retryAddress(address, 1)).toBe(`${address}?retry=1`);
    expect(retryAddress(`${address}?v=3`, 2)).toBe(`${address}?v=3&retry=2`);
  });
});

describe('mayRegister (SPEC §4)', () => {
  it('registers the business and consultation app at once, but only once', () => {
    expect(mayRegister(cotacao, [], undefined)).toBe(true);
    expect(mayRegister(cotacao, ['emissao-cotacao'], { nrOferta: 3 })).toBe(false);
  });

  it.each([itens, vida])('registers $name only after the simulator start answered nrOferta, and once', (target) => {
    expect(mayRegister(target, [], undefined)).toBe(false);
    expect(mayRegister(target, [], {})).toBe(false);
    expect(mayRegister(target, [], { nrOferta: null })).toBe(false);
    expect(mayRegister(target, [], { nrOferta: 0 })).toBe(false);
    expect(mayRegister(target, [], { nrOferta: 12 })).toBe(true);
    expect(mayRegister(target, [target.name], { nrOferta: 12 })).toBe(false);
  });

  it.each([
    [cotacao, '/emissao/consulta-cotacao', { kind: 'none' }],
    [cotacao, '/emissao/consulta-cotacao/cotacao/7/planos', { kind: 'none' }],
    [cotacao, '/emissao/consulta-cotacao/iniciar/empresarial', { kind: 'simulator' }],
    [itens, '/emissao/itens-pessoais/iniciar/itens-pessoais', { kind: 'simulator' }],
    [vida, '/emissao/cotacao/vida', { kind: 'simulator' }],
    [vida, '/emissao/cotacao/vida/nova-cotacao', { kind: 'simulator' }],
    // A saved quote's own offer is the signal: no new session at each step, and an ended offer still opens it.
    [itens, '/emissao/itens-pessoais/cotacao/1/planos', { kind: 'saved-quote', nrCotacao: '1' }],
    [vida, '/emissao/cotacao/vida/cotacao/2026000010/proposta/visualizar', { kind: 'saved-quote', nrCotacao: '2026000010' }],
    [vida, '/emissao/cotacao/vida/nao-existe', { kind: 'simulator' }],
  ] as const)('before registering %#: %s → %j', (target, path, expected) => {
    expect(registrationStart(target, path)).toEqual(expected);
  });
});

describe('activity and routes', () => {
  it('activates an app on its base path and below only', () => {
    expect(isActiveOn(vida, '/emissao/cotacao/vida')).toBe(true);
    expect(isActiveOn(vida, '/emissao/cotacao/vida/nova-cotacao')).toBe(true);
    expect(isActiveOn(vida, '/emissao/cotacao/vidas')).toBe(false);
    expect(isActiveOn(cotacao, '/emissao/itens-pessoais')).toBe(false);
    expect(new Set(EMBEDDED_APPS.map((a) => a.name)).size).toBe(3);
  });

  it.each([
    [cotacao, '/emissao/consulta-cotacao', { kind: 'list' }],
    [cotacao, '/emissao/consulta-cotacao/iniciar/empresarial', { kind: 'new' }],
    [
      cotacao,
      '/emissao/consulta-cotacao/iniciar/itens-pessoais',
      { kind: 'redirect', path: '/emissao/itens-pessoais/iniciar/itens-pessoais' },
    ],
    [itens, '/emissao/itens-pessoais/iniciar/itens-pessoais', { kind: 'new' }],
    [vida, '/emissao/cotacao/vida/', { kind: 'new' }],
    [vida, '/emissao/cotacao/vida/nova-cotacao', { kind: 'new' }],
    [
      vida,
      '/emissao/cotacao/vida/cotacao/2026000123/planos/editar',
      { kind: 'step', nrCotacao: '2026000123', step: 'planos', action: 'editar' },
    ],
    [itens, '/emissao/itens-pessoais/cotacao/42/resumo', { kind: 'step', nrCotacao: '42', step: 'resumo' }],
    [itens, '/emissao/itens-pessoais/cotacao/42/resumo/apagar', { kind: 'not-found' }],
    [itens, '/emissao/itens-pessoais/cotacao/0/planos', { kind: 'not-found' }],
    [vida, '/emissao/cotacao/vida/nao-existe', { kind: 'not-found' }],
    [cotacao, '/emissao/consulta-cotacao/cotacao/1/pagar', { kind: 'not-found' }],
  ])('%# %s', (target, path, expected) => {
    expect(parseEmbeddedRoute(target, path)).toEqual(expected);
  });

  it('opens a legacy quote of EMP, IP or VE in its app', () => {
    expect(embeddedQuoteHref('EMP', '7', 'planos', 'editar')).toBe('/emissao/consulta-cotacao/cotacao/7/planos/editar');
    expect(embeddedQuoteHref('VE', '7', 'proposta', 'visualizar')).toBe('/emissao/cotacao/vida/cotacao/7/proposta/visualizar');
    expect(embeddedQuoteHref('RES', '7', 'planos')).toBeUndefined();
  });
});

describe('embeddedPageAnswer (issue 27: the not-found page was a 200)', () => {
  const app = (name: string) => findEmbeddedApp(name)!;
  it.each([
    ['emissao-cotacao', '/emissao/consulta-cotacao', { status: 200 }],
    ['emissao-cotacao', '/emissao/consulta-cotacao/nao-existe', { status: 404 }],
    ['emissao-cotacao', '/emissao/consulta-cotacao/iniciar/itens-pessoais', { redirect: '/emissao/itens-pessoais/iniciar/itens-pessoais' }],
    ['emissao-itens-pessoais', '/emissao/itens-pessoais/iniciar/itens-pessoais', { status: 200 }],
    ['emissao-itens-pessoais', '/emissao/itens-pessoais/cotacao/12/planos/apagar', { status: 404 }],
    ['emissao-vida', '/emissao/cotacao/vida/cotacao/12/resumo/visualizar', { status: 200 }],
    ['emissao-vida', '/emissao/cotacao/vida/x', { status: 404 }],
  ])('%s %s → %j', (name, path, answer) => expect(embeddedPageAnswer(app(name), path)).toEqual(answer));
});
