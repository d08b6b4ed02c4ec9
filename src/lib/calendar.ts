/*
 * Calendar days as ISO strings ('2026-11-23'): the arithmetic every due date, term and period of the
 * after-sale shares. Days are counted in UTC, where no day is 23 or 25 hours long.
 */

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The day `days` after `iso` (before it when negative). */
export const addDays = (iso: string, days: number): string => new Date(dayOf(iso) + days * DAY_MS).toISOString().slice(0, 10);

/** The latest of some days (ISO days sort as text). */
export const latestDay = (first: string, ...others: string[]): string => [first, ...others].sort().at(-1)!;

/** Whole days from one day to another (negative when `to` comes first). */
export const daysBetween = (from: string, to: string): number => Math.round((dayOf(to) - dayOf(from)) / DAY_MS);

/** `days` business days (Monday to Friday) after a day. Holidays are not counted apart. */
export function addBusinessDays(iso: string, days: number): string {
  let day = iso;
  for (let left = days; left > 0; ) {
    day = addDays(day, 1);
    const weekday = new Date(dayOf(day)).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

/**
 * The first instant of a day in Brasília, and of the day after: the bounds of a filter on a
 * timestamp. Brasília has kept UTC−3 all year since daylight saving ended in 2019, so the offset is
 * fixed and the filter stays a plain range on an indexed column.
 */
export const startOfBrasiliaDay = (iso: string): Date => new Date(`${iso}T00:00:00-03:00`);
export const startOfNextBrasiliaDay = (iso: string): Date => startOfBrasiliaDay(addDays(iso, 1));
