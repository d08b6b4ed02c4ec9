import { describe, expect, it } from 'vitest';
import { addBusinessDays, addDays, daysBetween, startOfBrasiliaDay, startOfNextBrasiliaDay } from './calendar';

describe('calendar days', () => {
  it.each([
    ['2026-11-23', 1, '2026-11-24'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
  ])('%s plus %i day(s) is %s', (from, days, to) => expect(addDays(from, days)).toBe(to));

  it.each([
    ['2026-03-02', '2026-06-10', 100],
    ['2026-06-10', '2026-03-02', -100],
    ['2026-11-08', '2027-11-08', 365],
    ['2027-11-08', '2028-11-08', 366],
  ])('from %s to %s is %i days', (from, to, days) => expect(daysBetween(from, to)).toBe(days));

  it.each([
    ['2026-06-10', 10, '2026-06-24'], // Wednesday: two weekends skipped
    ['2026-11-27', 1, '2026-11-30'], // Friday to Monday
    ['2026-11-28', 1, '2026-11-30'], // Saturday to Monday
    ['2026-11-23', 0, '2026-11-23'],
  ])('%s plus %i business day(s) is %s', (from, days, to) => expect(addBusinessDays(from, days)).toBe(to));

  it('bounds a Brasília day at 03:00 UTC, the next day included up to its own start', () => {
    expect(startOfBrasiliaDay('2026-11-23').toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(startOfNextBrasiliaDay('2026-12-31').toISOString()).toBe('2027-01-01T03:00:00.000Z');
  });
});
