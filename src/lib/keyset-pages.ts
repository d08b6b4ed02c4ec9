/*
 * Keyset pages (issue 29, DESIGN §11): the lists that grow with the book of business — policies,
 * history, access log… — read a page from the row a link names instead of skipping N rows, and count
 * their scope only up to a bound. A link carries a cursor: the (instant, id) of the row it starts next
 * to, which way it goes, and how many pages of rows it still skips from there (a few, to reach a page
 * of the window or the last one). So page 9,000 costs what page 2 does. Pure: the pages render with it
 * on the server, without JavaScript.
 */

/** The sort key of a row: its instant as the database keeps it (microseconds, ISO text) and its id. */
export interface RowKey {
  time: string;
  id: number;
}

/** Where a page starts: next to a row, towards older rows (`after`) or newer ones (`before`), skipping pages. */
export interface PageCursor {
  from: RowKey;
  direction: 'after' | 'before';
  /** Whole pages skipped past `from` before the page starts. */
  skip: number;
}

/** What a page of a keyset list is asked for: its number (as shown) and, past page 1, where it starts. */
export interface PageRequest {
  page: number;
  cursor?: PageCursor;
}

/** How far a list counts its scope: past it, "mais de 1.000". */
export const COUNT_LIMIT = 1000;

/**
 * The last page an address reaches by its number alone (an old link, a typed address): as far as the
 * count goes, so a plain page never skips more than COUNT_LIMIT rows.
 */
export const lastPlainPage = (pageSize: number) => Math.floor(COUNT_LIMIT / pageSize) + 1;

/** A page of a keyset list: its rows, its number, the first and last rows' keys, and how many in all when known. */
export interface KeysetPage<T> {
  content: T[];
  page: number;
  pageSize: number;
  /** The keys of the first and last rows shown (the cursors of the links around this page). */
  first?: RowKey;
  last?: RowKey;
  /** Whether rows follow this page. */
  more: boolean;
  /** How many rows the scope holds, when at most COUNT_LIMIT; undefined: more than that. */
  total?: number;
  /**
   * A name search's page (issue 42, server/db/keyset-page.ts readRankedPage): at most `limit` of the
   * matches read, ranked by how close the name is to what was typed, paged by number (links carry no
   * cursor) and `total` the matches kept; `exceeded` when more matched — the page asks to refine.
   */
  ranked?: { limit: number; exceeded: boolean };
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DIRECTIONS = { a: 'after', b: 'before' } as const;

/** A cursor as an address carries it: `a.2.2026-11-20T13:00:00.123456Z.123` in base64url. */
export function encodeCursor(cursor: PageCursor): string {
  const text = `${cursor.direction === 'after' ? 'a' : 'b'}.${cursor.skip}.${cursor.from.time}.${cursor.from.id}`;
  return Buffer.from(text).toString('base64url');
}

/** The cursor an address carries; undefined for anything else (an edited address reads its page by number alone). */
export function decodeCursor(text: string | null | undefined): PageCursor | undefined {
  if (!text || text.length > 80 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = /^([ab])\.(\d{1,3})\.([^.]+\.\d{6}Z)\.([1-9]\d{0,15})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match || !TIME.test(match[3]!) || Number.isNaN(Date.parse(match[3]!))) return undefined;
  const id = Number(match[4]);
  if (!Number.isSafeInteger(id)) return undefined;
  return { direction: DIRECTIONS[match[1] as 'a' | 'b'], skip: Number(match[2]), from: { time: match[3]!, id } };
}

/** The page asked for by an address's `page` (already read) and `cursor`: a cursor on page 1 is none. */
export const pageRequestOf = (page: number, cursorText: string | null | undefined): PageRequest => {
  const cursor = page > 1 ? decodeCursor(cursorText) : undefined;
  return cursor ? { page, cursor } : { page };
};

/** A link of a pager: the page it opens and the cursor that reaches it (none for page 1 and plain pages). */
export interface PageLink {
  page: number;
  cursor?: string;
}

export interface KeysetPager {
  page: number;
  /** Known when the scope holds at most COUNT_LIMIT rows. */
  totalPages?: number;
  previous?: PageLink;
  next?: PageLink;
  /** The window: the first page, the neighbours, the last when known; 'gap' where pages are left out. */
  pages: (PageLink | 'gap')[];
}

/**
 * The links around a keyset page: the previous page starts before its first row, the next after its
 * last; the first page needs no cursor, and the last (when the count is known) is reached from the
 * last row by skipping the pages between — at most COUNT_LIMIT rows read.
 */
export function keysetPager(result: KeysetPage<unknown>): KeysetPager {
  const { page, first, last } = result;
  const totalPages = totalPagesOf(result);
  const linkTo = (target: number): PageLink | undefined => {
    if (target === page) return { page };
    // A ranked search is read whole (up to its limit) at each page: a page is its number.
    if (target === 1 || result.ranked) return { page: target };
    if (target < page && first)
      return { page: target, cursor: encodeCursor({ from: first, direction: 'before', skip: page - target - 1 }) };
    if (target > page && last) return { page: target, cursor: encodeCursor({ from: last, direction: 'after', skip: target - page - 1 }) };
    return undefined;
  };
  const candidates = [1, page - 1, page, ...(result.more ? [page + 1] : []), ...(totalPages ? [totalPages] : [])];
  const numbers = [...new Set(candidates)]
    .filter((n) => n >= 1 && (totalPages === undefined || n <= Math.max(totalPages, page)))
    .sort((a, b) => a - b);
  const pages = numbers.flatMap((n, i): (PageLink | 'gap')[] => {
    const link = linkTo(n);
    if (!link) return [];
    return i > 0 && n - numbers[i - 1]! > 1 ? ['gap', link] : [link];
  });
  return {
    page,
    totalPages,
    previous: page > 1 ? linkTo(page - 1) : undefined,
    next: result.more ? linkTo(page + 1) : undefined,
    pages,
  };
}

/** The number of pages of a keyset list, when its count is known. */
export const totalPagesOf = ({ total, pageSize }: Pick<KeysetPage<unknown>, 'total' | 'pageSize'>) =>
  total === undefined ? undefined : Math.max(1, Math.ceil(total / pageSize));

/** "1 apólice", "37 apólices", "mais de 1.000 apólices" (or "mais de 200", a name search's limit): a keyset list's caption. */
export function countCaption(total: number | undefined, one: string, many: string, ranked?: KeysetPage<unknown>['ranked']): string {
  const order = ranked ? ', o nome mais parecido primeiro' : '';
  if (ranked?.exceeded) return `mais de ${ranked.limit.toLocaleString('pt-BR')} ${many}${order}`;
  if (total === undefined) return `mais de ${COUNT_LIMIT.toLocaleString('pt-BR')} ${many}`;
  return `${total === 1 ? `1 ${one}` : `${total} ${many}`}${order}`;
}

/** A keyset page as the JSON APIs answer it (the access log's shape, a user's histories, the invitations). */
export function keysetAnswer<T>(read: KeysetPage<T>) {
  const pager = keysetPager(read);
  return {
    content: read.content,
    page: read.page,
    totalElements: read.total ?? null,
    totalPages: pager.totalPages ?? null,
    more: read.more,
    nextCursor: pager.next?.cursor ?? null,
    previousCursor: pager.previous?.cursor ?? null,
  };
}
