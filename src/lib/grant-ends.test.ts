import { describe, expect, it } from 'vitest';
import { GRANT_END_MESSAGES, grantEndDay, readGrantEnd } from './grant-ends';

describe('a grant’s "válido até" day', () => {
  const at = new Date('2026-11-28T15:00:00Z'); // 12:00 in Brasília
  it.each([
    ['', { ok: true, endsAt: null }],
    ['  ', { ok: true, endsAt: null }],
    [null, { ok: true, endsAt: null }],
    // Through the day named: it ends at the next midnight in Brasília (03:00 UTC).
    ['2026-11-28', { ok: true, endsAt: new Date('2026-11-29T03:00:00Z') }],
    ['2026-12-31', { ok: true, endsAt: new Date('2027-01-01T03:00:00Z') }],
    ['2026-11-27', { ok: false, message: GRANT_END_MESSAGES.pastDate }],
    ['28/11/2026', { ok: false, message: GRANT_END_MESSAGES.invalidDate }],
    ['2026-02-30', { ok: false, message: GRANT_END_MESSAGES.invalidDate }],
  ])('%j', (value, expected) => {
    expect(readGrantEnd(value, at)).toEqual(expected);
  });

  it('shows an end as the day it was given', () => {
    expect(grantEndDay(new Date('2026-11-29T03:00:00Z'))).toBe('2026-11-28');
  });
});
