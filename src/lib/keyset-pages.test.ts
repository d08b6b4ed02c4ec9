import { describe, expect, it } from 'vitest';
import { countCaption, decodeCursor, encodeCursor, keysetPager, pageRequestOf, type KeysetPage, type PageCursor } from './keyset-pages';

const key = (id: number) => ({ time: `2026-11-20T13:00:00.${String(id).padStart(6, '0')}Z`, id });
const pageOf = (page: number, more: boolean, total?: number): KeysetPage<unknown> => ({
  content: [1, 2],
  page,
  pageSize: 10,
  first: key(page * 10),
  last: key(page * 10 + 9),
  more,
  total,
});

describe('a cursor in the address', () => {
  it('goes there and back to the microsecond', () => {
    const cursor: PageCursor = { from: key(123), direction: 'before', skip: 2 };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it('anything else is no cursor: the first page is read', () => {
    const good = encodeCursor({ from: key(5), direction: 'after', skip: 0 });
    const tampered = [
      good.slice(0, -2),
      `${good}!`,
      Buffer.from('a.0.2026-11-20T13:00:00Z.5').toString('base64url'), // milliseconds lost
      Buffer.from('a.0.2026-13-45T13:00:00.000000Z.5').toString('base64url'), // no such day
      Buffer.from('c.0.2026-11-20T13:00:00.000000Z.5').toString('base64url'),
      Buffer.from('a.0.2026-11-20T13:00:00.000000Z.0').toString('base64url'),
      Buffer.from('a.9999.2026-11-20T13:00:00.000000Z.5').toString('base64url'),
      'x'.repeat(200),
    ];
    for (const text of tampered) expect(decodeCursor(text), text).toBeUndefined();
    expect(pageRequestOf(3, tampered[0])).toEqual({ page: 3 });
    expect(pageRequestOf(1, good)).toEqual({ page: 1 });
  });
});

describe('the links around a page', () => {
  it('page 1 of a list counted in full: no cursor to page 1, the next and the last after its last row', () => {
    const pager = keysetPager(pageOf(1, true, 95));
    expect(pager.totalPages).toBe(10);
    expect(pager.previous).toBeUndefined();
    expect(decodeCursor(pager.next!.cursor)).toEqual({ from: key(19), direction: 'after', skip: 0 });
    expect(pager.pages.map((p) => (p === 'gap' ? p : p.page))).toEqual([1, 2, 'gap', 10]);
    const last = pager.pages[3] as { page: number; cursor: string };
    expect(decodeCursor(last.cursor)).toEqual({ from: key(19), direction: 'after', skip: 8 });
  });

  it('a middle page: the previous before its first row, page 1 plain', () => {
    const pager = keysetPager(pageOf(5, true, 95));
    expect(decodeCursor(pager.previous!.cursor)).toEqual({ from: key(50), direction: 'before', skip: 0 });
    expect(pager.pages.map((p) => (p === 'gap' ? p : p.page))).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect((pager.pages[0] as { cursor?: string }).cursor).toBeUndefined();
  });

  it('past the count: no last page, the number alone, and "mais de 1.000"', () => {
    const pager = keysetPager(pageOf(250, true));
    expect(pager.totalPages).toBeUndefined();
    expect(pager.pages.map((p) => (p === 'gap' ? p : p.page))).toEqual([1, 'gap', 249, 250, 251]);
    expect(countCaption(undefined, 'apólice', 'apólices')).toBe('mais de 1.000 apólices');
    expect(countCaption(1, 'apólice', 'apólices')).toBe('1 apólice');
    expect(countCaption(37, 'apólice', 'apólices')).toBe('37 apólices');
  });

  it('a name search (ranked, decision 078): every link is a page number, and the caption says the order and the limit', () => {
    const pager = keysetPager({ ...pageOf(5, true, 200), ranked: { limit: 200, exceeded: true } });
    expect(pager.totalPages).toBe(20);
    expect(pager.previous).toEqual({ page: 4 });
    expect(pager.next).toEqual({ page: 6 });
    expect(pager.pages.filter((p) => p !== 'gap').every((p) => p.cursor === undefined)).toBe(true);
    expect(countCaption(200, 'apólice', 'apólices', { limit: 200, exceeded: true })).toBe(
      'mais de 200 apólices, o nome mais parecido primeiro',
    );
    expect(countCaption(37, 'apólice', 'apólices', { limit: 200, exceeded: false })).toBe('37 apólices, o nome mais parecido primeiro');
  });

  it('the last page offers no next', () => {
    const pager = keysetPager(pageOf(10, false, 95));
    expect(pager.next).toBeUndefined();
    expect(pager.pages.map((p) => (p === 'gap' ? p : p.page))).toEqual([1, 'gap', 9, 10]);
  });
});
