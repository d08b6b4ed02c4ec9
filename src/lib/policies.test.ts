import { describe, expect, it } from 'vitest';
import { installmentDueDates, installmentStatus, policyStatus, policyTerm } from './policies';

describe('policyTerm', () => {
  it.each([
    ['2026-11-23', '2027-11-23'],
    ['2026-12-31', '2027-12-31'],
    ['2028-02-29', '2029-02-28'],
  ])('a term starting on %s ends on %s', (start, end) => expect(policyTerm(start)).toEqual({ inicio: start, fim: end }));
});

describe('installmentDueDates', () => {
  it('falls monthly on the due day, the first at least five days after issuance', () => {
    expect(installmentDueDates(10, '2026-11-23', 3)).toEqual(['2026-12-10', '2027-01-10', '2027-02-10']);
    expect(installmentDueDates(25, '2026-11-23', 2)).toEqual(['2026-12-25', '2027-01-25']);
    expect(installmentDueDates(5, '2026-12-28', 2)).toEqual(['2027-01-05', '2027-02-05']);
  });

  it('without a due day (Pix), falls three days after issuance and then monthly on a day every month has', () => {
    expect(installmentDueDates(undefined, '2026-11-23', 1)).toEqual(['2026-11-26']);
    expect(installmentDueDates(undefined, '2027-01-27', 3)).toEqual(['2027-01-30', '2027-02-28', '2027-03-28']);
  });
});

describe('states a page shows', () => {
  it('a policy in force whose term ended is vencida; a cancelled one stays cancelled', () => {
    expect(policyStatus('VIGENTE', '2027-11-23', '2027-11-23')).toBe('VIGENTE');
    expect(policyStatus('VIGENTE', '2027-11-23', '2027-11-24')).toBe('VENCIDA');
    expect(policyStatus('CANCELADA', '2027-11-23', '2028-01-01')).toBe('CANCELADA');
  });

  it('an open installment past its due day is vencida; a paid one is paid', () => {
    expect(installmentStatus('ABERTA', '2026-12-10', '2026-12-10')).toBe('ABERTA');
    expect(installmentStatus('ABERTA', '2026-12-10', '2026-12-11')).toBe('VENCIDA');
    expect(installmentStatus('PAGA', '2026-12-10', '2027-01-01')).toBe('PAGA');
  });
});
