/*
 * The insured's name as the searches read it (issue 29): lower case, Portuguese accents off. The
 * database keeps it in a stored column, nome_busca (migration 029), built by SQL's
 * lower(translate(nome_segurado, ACCENTED, UNACCENTED)) with a trigram index (pg_trgm) that serves
 * `like '%word%'`; searchableName is the same rule for what a user types, so both sides agree.
 */

/** Portuguese letters with accents and their plain twins, position by position (SQL's translate()). */
export const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑ';
export const UNACCENTED = 'aaaaaeeeeiiiiooooouuuucnAAAAAEEEEIIIIOOOOOUUUUCN';

const PLAIN = new Map([...ACCENTED].map((letter, i) => [letter, UNACCENTED[i]!]));

/** A name as nome_busca stores it: each accented letter of ACCENTED made plain, then lower case. */
export const searchableName = (name: string): string =>
  [...name.normalize('NFC')]
    .map((c) => PLAIN.get(c) ?? c)
    .join('')
    .toLowerCase();

/**
 * A trigram index finds a word only from 3 letters or digits in a row (pg_trgm splits words at
 * anything else): "ana de souza" is served by "ana" and "souza", "de" is only checked on the rows
 * they found; "li ma" would read every row.
 */
export const MIN_SEARCHED_LETTERS = 3;
const SEARCHABLE_RUN = new RegExp(`[\\p{L}\\p{N}]{${MIN_SEARCHED_LETTERS}}`, 'u');

/** The words of a typed name, as nome_busca holds them (searchableName). */
export const nameWords = (typed: string): string[] => searchableName(typed).split(/\s+/).filter(Boolean);

/** Whether a typed name has a word the index can look up (MIN_SEARCHED_LETTERS in a row). */
export const hasSearchableWord = (typed: string): boolean => nameWords(typed).some((word) => SEARCHABLE_RUN.test(word));

/** `%word%` for LIKE, with the wildcards and the escape character typed taken literally. */
export const containingPattern = (word: string): string => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether a list's insured filter names a person (a name) rather than a CPF/CNPJ (digits alone). */
export const isNameSearch = (typed: string | undefined): typed is string => typed !== undefined && !/^\d+$/.test(typed);

/**
 * How many of a name's matches a list reads (issue 42). A common name ("almeida": 1 % of the insureds)
 * matches thousands of policies in a large book, and reading them all to show ten grew with the book;
 * so a name search reads at most this many, ranks them by how close the insured's name is to what was
 * typed, and — when more matched — asks for a narrower search (REFINE_SEARCH). Twenty pages of ten.
 */
export const NAME_SEARCH_LIMIT = 200;

/** What a page and an API answer say when a name matched more than NAME_SEARCH_LIMIT records. */
export const REFINE_SEARCH =
  `Refine a busca: mais de ${NAME_SEARCH_LIMIT} resultados para esse nome. ` +
  `Mostramos ${NAME_SEARCH_LIMIT}, os de nome mais parecido com o digitado primeiro; ` +
  'digite o nome completo ou o CPF/CNPJ do segurado.';
