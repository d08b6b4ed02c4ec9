import { REFINE_SEARCH } from './insured-search';
import { keysetPager, totalPagesOf, type KeysetPage } from './keyset-pages';

/**
 * A keyset page (lib/keyset-pages.ts) as a JSON endpoint answers it (issue 29): the rows, the page's
 * number and size, whether more follow, the cursors of the next and previous pages (sent back as
 * `?page=N&cursor=…`), and — while the count is within COUNT_LIMIT — the totals a counted page gave
 * (`totalElements`, `totalPages`); past the bound they are left out ("more than 1,000"). A name
 * search (issue 42) is paged by number alone and says whether it should be refined: `refinarBusca`,
 * and `aviso`, the page's pt-BR sentence, when more matched than it read (`totalElements` is left out then).
 */
export interface KeysetAnswer<T> {
  content: T[];
  page: number;
  pageSize: number;
  more: boolean;
  totalElements?: number;
  totalPages?: number;
  next?: { page: number; cursor?: string };
  previous?: { page: number; cursor?: string };
  refinarBusca?: boolean;
  aviso?: string;
}

export function keysetAnswer<T>(result: KeysetPage<T>): KeysetAnswer<T> {
  const pager = keysetPager(result);
  return {
    content: result.content,
    page: result.page,
    pageSize: result.pageSize,
    more: result.more,
    ...(result.total === undefined || result.ranked?.exceeded ? {} : { totalElements: result.total }),
    ...(result.total === undefined ? {} : { totalPages: totalPagesOf(result) }),
    ...(pager.next ? { next: pager.next } : {}),
    ...(pager.previous ? { previous: pager.previous } : {}),
    ...(result.ranked ? { refinarBusca: result.ranked.exceeded } : {}),
    ...(result.ranked?.exceeded ? { aviso: REFINE_SEARCH } : {}),
  };
}
