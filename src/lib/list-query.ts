import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { messagesByField } from './field-errors';
import { isIsoDate } from './offer-schema';
import { unstorablePaths, UNSTORABLE_MESSAGE } from './storable-text';

/*
 * What every filtered, paged list shares (the history, the policies…): its GET form's fields read
 * with zod — a blank field is no filter, a bad one a pt-BR message under it —, the address of a page
 * with its filters, and the attributes of a filter control. Pure: pages render with it on the server.
 */

/** An HTML form sends every field, blank or not: a blank one is no filter at all. */
const blankToUndefined = (value: unknown) => (typeof value === 'string' ? value.trim() || undefined : value);
export const optionalField = <T extends core.$ZodType>(schema: T) => z.pipe(z.transform(blankToUndefined), z.optional(schema));

/** One of a table's values, typed in any case. */
export const oneOf = <T extends string>(values: readonly T[], message: string, normalize: (v: string) => string) =>
  z.pipe(z.pipe(z.string({ error: message }).check(z.maxLength(40, message)), z.transform(normalize)), z.enum(values, { error: message }));

export const isoDateField = (message: string) => z.string({ error: message }).check(z.refine(isIsoDate, message));

/** A 1-based page number. */
export const pageField = (message: string) =>
  z.pipe(z.string({ error: message }).check(z.regex(/^[1-9]\d{0,5}$/, message)), z.transform(Number));

export type ParsedListQuery<F> = { ok: true; filters: F; page: number } | { ok: false; errors: Record<string, string[]> };

/** A list's query as filters and a page (1 when absent), or the messages of each bad field. */
export function parseListQuery<S extends core.$ZodType<{ page?: number }>>(
  schema: S,
  input: URLSearchParams | Record<string, unknown>,
): ParsedListQuery<Omit<core.output<S>, 'page'>> {
  const raw = input instanceof URLSearchParams ? Object.fromEntries(input) : input;
  // Text the database cannot hold never reaches a query, whichever list it is typed into (the page
  // middleware refuses it too; a list read from anywhere else must not depend on that).
  const unstorable = unstorablePaths(raw);
  if (unstorable.length > 0)
    return { ok: false, errors: Object.fromEntries(unstorable.map((path) => [path.join('.') || 'query', [UNSTORABLE_MESSAGE]])) };
  const result = z.safeParse(schema, raw);
  if (!result.success) {
    return { ok: false, errors: messagesByField(result.error.issues, (issue) => issue.path.map(String).join('.') || 'query') };
  }
  const { page = 1, ...filters } = result.data as core.output<S>;
  return { ok: true, filters, page };
}

/** A page of a list: its rows, how many in all, how many pages, which one (1-based). */
export interface Paged<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  page: number;
}

/** A page of `pageSize` rows out of `total` (a count as the database answers it: a number or its text). */
export const pagedOf = <T>(content: T[], total: number | string, page: number, pageSize: number): Paged<T> => ({
  content,
  totalElements: Number(total),
  totalPages: Math.ceil(Number(total) / pageSize),
  page,
});

/**
 * A list's address for these filters and page (page 1 and blank filters are left out), and the
 * cursor that reaches the page on a keyset list (lib/keyset-pages.ts).
 */
export function listHref(
  base: string,
  fields: readonly string[],
  values: Partial<Record<string, string>>,
  page = 1,
  cursor?: string,
): string {
  const params = new URLSearchParams();
  for (const field of fields) {
    const value = values[field]?.trim();
    if (value) params.set(field, value);
  }
  if (page > 1) params.set('page', String(page));
  if (page > 1 && cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The attributes of a filter control, tied to its label (`filtro-{field}`) and to its error when shown. */
export const filterFieldAttrs = (field: string, error: string | undefined) => ({
  name: field,
  id: `filtro-${field}`,
  'aria-invalid': error ? ('true' as const) : undefined,
  'aria-describedby': error ? `filtro-${field}-erro` : undefined,
});

/*
 * A list page's number as a person reaches it (issue 27): an old link, an edited address, a bookmark.
 * A page that is no number (`?pagina=abc`, `0`, `-1`) shows the first page; one past the last
 * (`?pagina=999`) shows the last — never an empty list that says "nothing found" while there is. Every
 * paged list page of both generations reads its page through these two (the APIs keep answering a bad
 * page with a 400 and a page past the end with no rows, as a client asked).
 */

/** The largest page number kept as it is: more is past the end of any list (and no offset overflows). */
export const LAST_READABLE_PAGE = 999_999;

/**
 * The address's parameters with the page made readable: a number past LAST_READABLE_PAGE becomes it,
 * anything else that is not a page number is dropped (page 1).
 */
export function withReadablePage(params: URLSearchParams, key = 'page'): URLSearchParams {
  const raw = params.get(key);
  if (raw === null) return params;
  const copy = new URLSearchParams(params);
  const text = raw.trim();
  if (/^[1-9]\d{0,5}$/.test(text)) copy.set(key, text);
  else if (/^[1-9]\d{6,}$/.test(text)) copy.set(key, String(LAST_READABLE_PAGE));
  else copy.delete(key);
  return copy;
}

/**
 * Reads page `page` (1-based) and, when it lies past the last page of a list that has rows, reads the
 * last one instead — more queries only then. The answer says which page it is.
 */
export async function pageWithin<T extends { content: unknown[]; totalPages: number }>(
  page: number,
  read: (page: number) => Promise<T>,
): Promise<T & { page: number }> {
  const asked = await read(page);
  if (page === 1 || page <= asked.totalPages) return { ...asked, page };
  if (asked.totalPages > 0) return { ...(await read(asked.totalPages)), page: asked.totalPages };
  // No rows and no count: a list counted along its rows (count(*) over ()) knows nothing past its end.
  const first = await read(1);
  if (first.totalPages <= 1) return { ...first, page: 1 };
  return { ...(await read(first.totalPages)), page: first.totalPages };
}

/** An ILIKE pattern matching text that contains `value` literally (its %, _ and \\ escaped). */
export const likeContaining = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
