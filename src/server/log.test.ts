import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { logLine, MAX_FIELD, visibleText } from './log';

/** Nothing a terminal or a log viewer would draw other than as itself may reach a log line raw. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/u;

describe('visibleText', () => {
  it.each([
    ['right-to-left override', 'ok\u202Eatad', 'ok<U+202E>atad'],
    ['left-to-right and pop isolates', '\u2066a\u2069', '<U+2066>a<U+2069>'],
    ['zero-width space and joiner', 'a\u200Bb\u200Dc', 'a<U+200B>b<U+200D>c'],
    ['byte order mark and word joiner', '\uFEFFa\u2060', '<U+FEFF>a<U+2060>'],
    ['soft hyphen', 'a\u00ADb', 'a<U+00AD>b'],
    ['line feed, carriage return, tab, NUL', 'a\nb\rc\td\u0000', 'a<U+000A>b<U+000D>c<U+0009>d<U+0000>'],
    ['DEL and a C1 control', 'a\u007Fb\u0085', 'a<U+007F>b<U+0085>'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a<U+2028>b<U+2029>'],
    ['a tag character (astral)', 'a\u{E0041}', 'a<U+E0041>'],
    ['a lone surrogate', 'a\uD800b', 'a<U+D800>b'],
    ['accents, emoji and quotes stay', 'Ação "x" \\ 😀', 'Ação "x" \\ 😀'],
  ])('%s', (_, text, shown) => expect(visibleText(text)).toBe(shown));

  it(`keeps at most ${MAX_FIELD} characters and says how many it left out`, () => {
    expect(visibleText('x'.repeat(MAX_FIELD + 5))).toBe(`${'x'.repeat(MAX_FIELD)}… (5 caracteres omitidos)`);
  });
});

describe('logLine', () => {
  it('is one JSON object: the event first, then the fields, undefined ones left out', () => {
    expect(logLine('aplicacao-embarcada', { app: 'emissao-vida', status: undefined, usuario: 7, mensagem: 'a\u202Eb' })).toBe(
      '{"evento":"aplicacao-embarcada","app":"emissao-vida","usuario":7,"mensagem":"a<U+202E>b"}',
    );
  });

  it('a message shaped like another line stays a field of this one', () => {
    const forged = 'x"}\n{"evento":"login","usuario":1}\n[aplicacao-embarcada] app=emissao-cotacao usuario=1: y';
    const line = logLine('aplicacao-embarcada', { mensagem: forged });
    expect(line.split('\n')).toHaveLength(1);
    expect(Object.keys(JSON.parse(line))).toEqual(['evento', 'mensagem']);
    expect(JSON.parse(line).mensagem).toBe(forged.replaceAll('\n', '<U+000A>'));
  });

  it('whatever the text, one line, valid JSON, nothing unseen in it, the event never replaced', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (key, text) => {
        const line = logLine('evento-de-teste', { [key]: text, mensagem: text });
        expect(line).not.toMatch(/[\n\r]/);
        expect(line).not.toMatch(UNSEEN);
        const parsed = JSON.parse(line);
        expect(parsed.evento).toBe('evento-de-teste');
        expect(parsed.mensagem).toBe(visibleText(text));
      }),
      { numRuns: 500 },
    );
  });
});
