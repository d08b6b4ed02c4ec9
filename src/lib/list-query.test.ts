import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { optionalField, pageField, parseListQuery } from './list-query';
import { UNSTORABLE_MESSAGE } from './storable-text';

const schema = z.object({
  busca: optionalField(z.string().check(z.maxLength(10, 'Busca longa.'))),
  page: optionalField(pageField('Página inválida.')),
});

describe('parseListQuery', () => {
  it('reads blank fields as no filter and the page as 1 when absent', () => {
    expect(parseListQuery(schema, new URLSearchParams('busca=+&page='))).toEqual({ ok: true, filters: {}, page: 1 });
    expect(parseListQuery(schema, new URLSearchParams('busca=loja&page=3'))).toEqual({ ok: true, filters: { busca: 'loja' }, page: 3 });
  });

  it('answers each bad field with its message', () => {
    expect(parseListQuery(schema, new URLSearchParams('busca=12345678901&page=0'))).toEqual({
      ok: false,
      errors: { busca: ['Busca longa.'], page: ['Página inválida.'] },
    });
  });

  it.each(['a\u0000b', '\ud800', 'x\udc00'])('refuses %j, which the database cannot hold, before any query', (text) => {
    expect(parseListQuery(schema, { busca: text })).toEqual({ ok: false, errors: { busca: [UNSTORABLE_MESSAGE] } });
  });
});
