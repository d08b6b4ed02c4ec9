import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { optionalField, pageField, pageWithin, parseListQuery, withReadablePage } from './list-query';
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

describe('a page as a person reaches it (issue 27)', () => {
  it.each([
    ['page=3', 'page=3'],
    ['page=abc', ''],
    ['page=0', ''],
    ['page=-1', ''],
    ['page=1e3', ''],
    ['page=+2', 'page=2'], // '+' is a space in a query
    ['page=%202%20', 'page=2'],
    ['page=99999999999', 'page=999999'],
    ['busca=x&page=abc', 'busca=x'],
    ['busca=x', 'busca=x'],
  ])('%s → %s', (query, readable) => expect(withReadablePage(new URLSearchParams(query)).toString()).toBe(readable));

  it('reads another key', () => expect(withReadablePage(new URLSearchParams('pagina=x&page=x'), 'pagina').toString()).toBe('page=x'));

  const list =
    (rows: number, size = 4) =>
    async (page: number) => ({
      content: Array.from({ length: Math.max(0, Math.min(size, rows - (page - 1) * size)) }, (_, i) => (page - 1) * size + i),
      totalPages: Math.ceil(rows / size),
    });

  it.each([
    [10, 2, 2, [4, 5, 6, 7]],
    [10, 999, 3, [8, 9]],
    [10, 3, 3, [8, 9]],
    [0, 5, 1, []],
    [0, 1, 1, []],
  ])('%i rows, page %i → page %i', async (rows, page, shown, content) => {
    expect(await pageWithin(page, list(rows))).toEqual({ content, totalPages: Math.ceil(rows / 4), page: shown });
  });

  it('finds the last page of a list counted along its rows, which counts nothing past its end', async () => {
    const windowed = (rows: number) => async (page: number) => {
      const paged = await list(rows)(page);
      return paged.content.length === 0 ? { content: [], totalPages: 0 } : paged;
    };
    expect(await pageWithin(999, windowed(10))).toEqual({ content: [8, 9], totalPages: 3, page: 3 });
    expect(await pageWithin(999, windowed(3))).toEqual({ content: [0, 1, 2], totalPages: 1, page: 1 });
    expect(await pageWithin(999, windowed(0))).toEqual({ content: [], totalPages: 0, page: 1 });
  });

  it('asks again only when past the end', async () => {
    const read = vi.fn(list(10));
    await pageWithin(2, read);
    expect(read).toHaveBeenCalledTimes(1);
    await pageWithin(7, read);
    expect(read.mock.calls.map(([p]) => p)).toEqual([2, 7, 3]);
  });
});
