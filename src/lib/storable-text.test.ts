import { describe, expect, it } from 'vitest';
import { isStorableText, isStorableUrlPart, unstorablePaths } from './storable-text';

describe('isStorableText', () => {
  it.each([
    ['a@b.com', true],
    ['', true],
    ['tab\tand\u0001\u001f\u007f controls', true],
    ['😀 astral, paired surrogates', true],
    ['ação, Ω, 中文', true],
    ['\ufffd replacement character', true],
    ['a\u0000@b.com', false],
    ['\u0000', false],
    ['\ud800', false],
    ['lone high \ud83d at the end', false],
    ['lone low \ude00 alone', false],
    ['reversed \ude00\ud83d pair', false],
  ])('%j → %s', (text, storable) => expect(isStorableText(text)).toBe(storable));
});

describe('unstorablePaths', () => {
  it('finds nothing in clean values', () => {
    expect(unstorablePaths({ a: 'x', b: [1, 'y', { c: '😀' }], d: null, e: true })).toEqual([]);
    expect(unstorablePaths('plain')).toEqual([]);
  });

  it('names the path of each bad string, nested in objects and arrays', () => {
    const found = unstorablePaths({ userName: 'a\u0000@b.com', segurado: { endereco: { numero: '\ud800' } }, lista: ['ok', 'x\u0000'] });
    expect(found).toEqual(expect.arrayContaining([['userName'], ['segurado', 'endereco', 'numero'], ['lista', 1]]));
    expect(found).toHaveLength(3);
  });

  it('names the object holding a bad key, without echoing the key', () => {
    expect(unstorablePaths({ segurado: { 'no\u0000me': 'x' } })).toEqual([['segurado']]);
    expect(unstorablePaths({ '\ud800': 1 })).toEqual([[]]);
  });

  it('a bad top-level string is the empty path', () => {
    expect(unstorablePaths('\u0000')).toEqual([[]]);
  });

  it('survives nesting deeper than the call stack, and stops at the limit', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorablePaths(deep)[0]).toHaveLength(200_000);
    expect(
      unstorablePaths(
        Array.from({ length: 100 }, () => '\u0000'),
        5,
      ),
    ).toHaveLength(5);
  });
});

describe('isStorableUrlPart', () => {
  it.each([
    ['/v2/historico', true],
    ['?nome=Jo%C3%A3o+Silva&page=2', true],
    ['/%F0%9F%98%80', true],
    ['?x=%01%1F', true],
    ['/signin%00', false],
    ['?email=a%00%40b.com', false],
    ['?x=%ED%A0%80', false], // the UTF-8-like bytes of a lone surrogate
    ['?x=%E0%A4%A', false], // a truncated escape
    ['?x=100%', false],
    ['/%C0%AF', false], // overlong encoding
  ])('%s → %s', (part, storable) => expect(isStorableUrlPart(part)).toBe(storable));
});
