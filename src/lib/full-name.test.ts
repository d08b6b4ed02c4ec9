import { describe, expect, it } from 'vitest';
import { FULL_NAME_MESSAGES, fullNameProblem, isFullName, normalizeName } from './full-name';

/** The full-name rule of decision 060, one for every place a person's full name is asked. */
describe('a full name', () => {
  it.each([
    'Maria da Silva',
    'JOÃO D’ÁVILA',
    "Ana D'Ávila-Souza",
    'Ana B. Souza',
    'J. R. Tolkien',
    'QA V2 Vendedor',
    'Pedro II Bragança',
    'Lívia  Souza ',
    'Nguyễn Văn An',
  ])('%s is one', (name) => expect(fullNameProblem(name)).toBeUndefined());

  it.each([
    ['Maria', FULL_NAME_MESSAGES.words],
    ['Maria 2', FULL_NAME_MESSAGES.words],
    ['V2 X3', FULL_NAME_MESSAGES.words],
    ['2Pac Amaru Shakur', FULL_NAME_MESSAGES.words],
    ['', FULL_NAME_MESSAGES.words],
    ['Téo; Lima', FULL_NAME_MESSAGES.characters(';')],
    ['Ana <b>Souza</b>', FULL_NAME_MESSAGES.characters('< > /')],
    ['Ana\u0000 Souza', FULL_NAME_MESSAGES.characters('U+0000')],
    [`Ana ${'Souza'.repeat(30)}`, FULL_NAME_MESSAGES.tooLong],
  ])('%j is not: %s', (name, message) => expect(fullNameProblem(name)).toBe(message));

  it('is kept with its runs of spaces as one', () => {
    expect(normalizeName('  Ana \t Souza ')).toBe('Ana Souza');
    expect(isFullName('  Ana \t Souza ')).toBe(true);
  });
});
