import { describe, expect, it } from 'vitest';
import { brasiliaDay, formatIsoDate } from './format';
import { isInForce, validityText } from './offer-validity';

describe('isInForce', () => {
  const year = { vigenciaInicio: '2026-01-01', vigenciaFim: '2026-12-31' };
  it.each([
    ['2025-12-31', false],
    ['2026-01-01', true],
    ['2026-06-15', true],
    ['2026-12-31', true],
    ['2027-01-01', false],
  ])('an offer of 2026 on %s → %s', (today, expected) => {
    expect(isInForce(year, today)).toBe(expected);
  });

  it('an open-ended offer stays in force from its start on', () => {
    expect(isInForce({ vigenciaInicio: '2026-01-01', vigenciaFim: null }, '2099-01-01')).toBe(true);
    expect(isInForce({ vigenciaInicio: '2026-01-01', vigenciaFim: null }, '2025-12-31')).toBe(false);
  });
});

describe('brasiliaDay', () => {
  it('reads the day in Brasília time, not UTC', () => {
    // 02:00 UTC on 1 January is still 31 December in Brasília (UTC−3).
    expect(brasiliaDay(new Date('2027-01-01T02:00:00Z'))).toBe('2026-12-31');
    expect(brasiliaDay(new Date('2027-01-01T03:00:00Z'))).toBe('2027-01-01');
  });
});

describe('validity text', () => {
  it('shows the end date in pt-BR or says there is none', () => {
    expect(formatIsoDate('2027-12-31')).toBe('31/12/2027');
    expect(validityText('2027-12-31')).toBe('Vigente até 31/12/2027');
    expect(validityText(null)).toBe('Vigência sem prazo final');
  });
});
