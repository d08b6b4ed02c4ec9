import { describe, expect, it } from 'vitest';
import { ACCENTED, containingPattern, hasSearchableWord, nameWords, searchableName, UNACCENTED } from './insured-search';
import { FILTER_MESSAGES, parsePolicyQuery } from './policies';

describe('the name as the searches read it', () => {
  it('makes each accented letter plain and the name lower case, as the database column does', () => {
    expect(ACCENTED).toHaveLength(UNACCENTED.length);
    expect(searchableName('JOSÉ da Conceição Ñúñez')).toBe('jose da conceicao nunez');
    expect(searchableName(ACCENTED)).toBe(UNACCENTED.toLowerCase());
    // A letter written as a base and a combining accent is the same letter.
    expect(searchableName('Jose\u0301')).toBe('jose');
  });

  it('splits what is typed in words, whatever the spaces', () => {
    expect(nameWords('  PINTO \t rafael ')).toEqual(['pinto', 'rafael']);
    expect(nameWords('   ')).toEqual([]);
  });

  it('takes LIKE’s wildcards and escape literally', () => {
    expect(containingPattern('100%')).toBe('%100\\%%');
    expect(containingPattern('a_b\\c')).toBe('%a\\_b\\\\c%');
  });

  it('asks for a word of 3 letters or digits in a row, which a trigram index can look up', () => {
    expect(hasSearchableWord('ana de souza')).toBe(true);
    expect(hasSearchableWord('Zé Ávila')).toBe(true);
    expect(hasSearchableWord("d'ávila")).toBe(true);
    expect(hasSearchableWord('li ma')).toBe(false);
    expect(hasSearchableWord("a'b'c")).toBe(false);
    expect(hasSearchableWord('%%%')).toBe(false);
  });
});

describe('the insured field of the lists’ filters (lib/policies.ts seguradoField)', () => {
  it.each([
    ['ana de souza', 'ana de souza'],
    ['Zé Ávila', 'Zé Ávila'],
    ['274.185.963-91', '27418596391'],
  ])('%j is searched', (typed, searched) => {
    expect(parsePolicyQuery({ segurado: typed })).toEqual({ ok: true, filters: { segurado: searched }, page: 1 });
  });

  it.each(['ab', 'li ma', 'a b c d', '%%%', '__ %%'])('%j is refused with a pt-BR field error', (typed) => {
    expect(parsePolicyQuery({ segurado: typed })).toEqual({ ok: false, errors: { segurado: [FILTER_MESSAGES.segurado] } });
  });
});
