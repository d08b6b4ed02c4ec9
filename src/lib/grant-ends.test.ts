import { describe, expect, it } from 'vitest';
import {
  endsWithoutGrant,
  GRANT_END_MESSAGES,
  grantEndChanges,
  grantEndDay,
  grantEndLabel,
  groupEndField,
  readGrantEnd,
  readGrantEnds,
} from './grant-ends';

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

describe('the ends of several grants on one form', () => {
  const at = new Date('2026-11-28T15:00:00Z');
  const form = new URLSearchParams({ 'ate-A': '2026-12-31', 'ate-B': '', 'ate-C': '2026-01-01', 'fim-D': '2026-12-01' });

  it('reads each code’s day, keeps what was typed to show again, and names each refusal', () => {
    const read = readGrantEnds(form, ['A', 'B', 'C'], at, undefined, (code) => `Permissão ${code}`);
    expect(read.ends).toEqual(
      new Map([
        ['A', new Date('2027-01-01T03:00:00Z')],
        ['B', null],
      ]),
    );
    expect(read.days).toEqual({ A: '2026-12-31', B: '', C: '2026-01-01' });
    expect(read.errors).toEqual([`Permissão C: ${GRANT_END_MESSAGES.pastDate}`]);
    // Another form's field name; a code with no field has no end.
    expect(readGrantEnds(form, ['D', 'E'], at, groupEndField).ends).toEqual(
      new Map([
        ['D', new Date('2026-12-02T03:00:00Z')],
        ['E', null],
      ]),
    );
  });

  it('says in the log only the ends that changed', () => {
    const before = { A: new Date('2027-01-01T03:00:00Z'), B: new Date('2026-12-02T03:00:00Z') };
    const after = new Map<string, Date | null>([
      ['A', new Date('2027-01-01T03:00:00Z')],
      ['B', null],
      ['C', new Date('2026-12-11T03:00:00Z')],
    ]);
    expect(grantEndChanges(before, after)).toBe('; B sem data de fim, C válida até 10/12/2026');
    expect(grantEndChanges(before, new Map([['A', before.A]]))).toBe('');
    expect(grantEndLabel(before.A)).toBe('31/12/2026');
  });
});

describe('a day beside a grant left unchecked (issue 42)', () => {
  it('is refused, naming whose, and shown again; a blank one beside an unchecked grant says nothing', () => {
    const form = new URLSearchParams({ 'fim-VENDEDOR': '2026-12-31', 'fim-CONSULTOR': '2027-01-10', 'fim-GESTOR': ' ' });
    expect(
      endsWithoutGrant(form, ['VENDEDOR', 'CONSULTOR', 'GESTOR'], ['VENDEDOR'], GRANT_END_MESSAGES.uncheckedGroup, groupEndField),
    ).toEqual({ days: { CONSULTOR: '2027-01-10' }, errors: [`CONSULTOR: ${GRANT_END_MESSAGES.uncheckedGroup}`] });
    expect(endsWithoutGrant(new URLSearchParams({ 'ate-HIERARQUIA': '2027-01-10' }), ['HIERARQUIA'], ['HIERARQUIA'], 'x')).toEqual({
      days: {},
      errors: [],
    });
  });
});
