/*
 * What the portal takes as a person's full name (issue 27, decision 060), wherever one is asked: a
 * user's (forms, API, import), a partner's administrator's, an insured's, a beneficiary's. Pure.
 *
 *   - at most `FULL_NAME_MAX` characters once runs of spaces are one space;
 *   - letters of any language (accents included), digits, spaces, apostrophes (' ’), hyphens and
 *     dots; it starts with a letter;
 *   - at least two words made of letters alone (an apostrophe, hyphen or dot inside counts as part
 *     of the word): a name and a surname. Other words may carry digits or be initials.
 *
 * So "Maria da Silva", "JOÃO D'ÁVILA", "Ana B. Souza", "QA V2 Vendedor" are full names; "Maria",
 * "Maria 2", "V2 X3" are not (one word of letters), and "Téo; Lima" is refused for its ';' — said as
 * such, not as a missing surname.
 */

export const FULL_NAME_MAX = 120;

export const FULL_NAME_MESSAGES = {
  words: 'Informe o nome completo (nome e sobrenome).',
  tooLong: `O nome passa de ${FULL_NAME_MAX} caracteres.`,
  characters: (found: string) => `O nome tem caractere não aceito (${found}): use letras, números, espaços, apóstrofo, hífen e ponto.`,
} as const;

/** Runs of white space as one space, trimmed: the name as it is kept. */
export const normalizeName = (value: string): string => value.replace(/\s+/g, ' ').trim();

const ALLOWED = /[\p{L}\p{M}\p{N} '’.-]/u;
const LETTER_WORD = /^\p{L}[\p{L}\p{M}'’.-]*$/u;

/** The characters of `value` a name may not hold, each once, in the order met. */
export const foreignCharacters = (value: string): string[] => [...new Set([...value].filter((c) => !ALLOWED.test(c)))];

/** Why `value` (normalized) is not a full name, or undefined when it is. */
export function fullNameProblem(value: string): string | undefined {
  const name = normalizeName(value);
  if (name.length > FULL_NAME_MAX) return FULL_NAME_MESSAGES.tooLong;
  const foreign = foreignCharacters(name);
  if (foreign.length > 0)
    return FULL_NAME_MESSAGES.characters(
      foreign
        .slice(0, 5)
        .map((c) => (/[\p{C}\p{Z}]/u.test(c) ? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : c))
        .join(' '),
    );
  if (!/^\p{L}/u.test(name) || name.split(' ').filter((word) => LETTER_WORD.test(word)).length < 2) return FULL_NAME_MESSAGES.words;
  return undefined;
}

export const isFullName = (value: string): boolean => fullNameProblem(value) === undefined;

/**
 * For a schema that checks the length itself with its own message: the problem of `value` in the
 * words of `wordsMessage` (the field's "informe o nome completo…"), or undefined when it is a full
 * name — or too long, which the caller says.
 */
export function nameProblemOf(value: string, wordsMessage: string): string | undefined {
  const problem = fullNameProblem(value);
  if (problem === FULL_NAME_MESSAGES.tooLong) return undefined;
  return problem === FULL_NAME_MESSAGES.words ? wordsMessage : problem;
}
