import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isAllowedStartUrl, SIMULATOR_MESSAGES, simulatorUpdateSchema } from './simulator-schema';

const valid = { nome: 'Residencial', urlInicio: '/simulador-residencial/cadastro', ativo: true, grupoProduto: '' };

describe('isAllowedStartUrl', () => {
  it.each([
    '/simulador-residencial/cadastro',
    '/simulador-agricola-antigo',
    '/v2/home/res?x=1',
    'https://afs.seguradora.demo/entrada',
    'HTTPS://afs.seguradora.demo',
  ])('accepts %s', (url) => expect(isAllowedStartUrl(url)).toBe(true));

  it.each([
    '',
    '//evil.example/x',
    '/\\evil.example',
    'http://afs.seguradora.demo',
    'javascript:alert(1)',
    'simulador/cadastro',
    'https://',
    'https:///x',
    '/com espaço',
    `/${'a'.repeat(500)}`,
    'ftp://x.example',
  ])('refuses %s', (url) => expect(isAllowedStartUrl(url)).toBe(false));
});

describe('simulatorUpdateSchema', () => {
  it('trims, and turns an empty product group into null', () => {
    expect(z.parse(simulatorUpdateSchema, { ...valid, nome: '  Residencial Plus ', grupoProduto: ' ' })).toEqual({
      ...valid,
      nome: 'Residencial Plus',
      grupoProduto: null,
    });
    expect(z.parse(simulatorUpdateSchema, { ...valid, grupoProduto: '0118' }).grupoProduto).toBe('0118');
    expect(z.parse(simulatorUpdateSchema, { nome: 'Vida', urlInicio: '/v', ativo: false }).grupoProduto).toBeNull();
  });

  it('refuses each field with its pt-BR message', () => {
    const messages = (input: unknown) => {
      const result = z.safeParse(simulatorUpdateSchema, input);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(messages({ nome: 'ab', urlInicio: 'http://x.example', ativo: 'sim', grupoProduto: '118' })).toEqual({
      nome: SIMULATOR_MESSAGES.name,
      urlInicio: SIMULATOR_MESSAGES.startUrl,
      ativo: SIMULATOR_MESSAGES.active,
      grupoProduto: SIMULATOR_MESSAGES.productGroup,
    });
    expect(messages({ ...valid, nome: 'x'.repeat(81) })).toEqual({ nome: SIMULATOR_MESSAGES.name });
    expect(messages({ ...valid, grupoProduto: '01180' })).toEqual({ grupoProduto: SIMULATOR_MESSAGES.productGroup });
    expect(messages({})).toMatchObject({
      nome: SIMULATOR_MESSAGES.name,
      urlInicio: SIMULATOR_MESSAGES.startUrl,
      ativo: SIMULATOR_MESSAGES.active,
    });
  });
});
