import { describe, expect, it } from 'vitest';
import { installmentStatus, parsePolicyQuery, policyStatus, policyTerm } from './policies';
import { contractDueDates, installmentDueDates } from './contracting';

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

describe('contractDueDates: the one rule the policy charges by and the resumo promises by (decision 074)', () => {
  it.each([
    [{ formaPagamento: 'pix' }, '2026-12-06', ['2026-12-09']],
    // An old Pix quote that stored a due day is still due three days after issuance.
    [{ formaPagamento: 'pix', diaVencimento: 20 }, '2026-12-06', ['2026-12-09']],
    [{ formaPagamento: 'boleto', diaVencimento: 10 }, '2026-12-05', ['2026-12-10', '2027-01-10']],
    [{ formaPagamento: 'boleto', diaVencimento: 10 }, '2026-12-06', ['2027-01-10', '2027-02-10']],
  ])('%o issued on %s', (contracting, issuedDay, expected) =>
    expect(contractDueDates(contracting, issuedDay, expected.length)).toEqual(expected),
  );
});

describe('states a page shows', () => {
  it('a policy in force whose term ended is vencida; a cancelled one stays cancelled', () => {
    const term = { inicio: '2026-11-23', fim: '2027-11-23' };
    expect(policyStatus('VIGENTE', term, '2027-11-23')).toBe('VIGENTE');
    expect(policyStatus('VIGENTE', term, '2026-11-23')).toBe('VIGENTE');
    expect(policyStatus('VIGENTE', term, '2027-11-24')).toBe('VENCIDA');
    // A renewal issued ahead of the term it continues (issue 42: it said "Vigente").
    expect(policyStatus('VIGENTE', term, '2026-11-22')).toBe('A_INICIAR');
    expect(policyStatus('CANCELADA', term, '2028-01-01')).toBe('CANCELADA');
    expect(policyStatus('CANCELADA', term, '2026-11-01')).toBe('CANCELADA');
  });

  it('an open installment past its due day is vencida; a paid one is paid', () => {
    expect(installmentStatus('ABERTA', '2026-12-10', '2026-12-10')).toBe('ABERTA');
    expect(installmentStatus('ABERTA', '2026-12-10', '2026-12-11')).toBe('VENCIDA');
    expect(installmentStatus('PAGA', '2026-12-10', '2027-01-01')).toBe('PAGA');
  });
});

describe('parsePolicyQuery', () => {
  it('reads every filter, a document as its digits and a product in capitals', () => {
    expect(
      parsePolicyQuery({
        nrApolice: ' 011420260000001 ',
        segurado: '274.185.963-91',
        produto: 'res',
        situacao: 'VENCIDA',
        vigenteEm: '2027-01-31',
        page: '2',
      }),
    ).toEqual({
      ok: true,
      filters: { nrApolice: '011420260000001', segurado: '27418596391', produto: 'RES', situacao: 'VENCIDA', vigenteEm: '2027-01-31' },
      page: 2,
    });
    expect(parsePolicyQuery({ segurado: 'Marina' })).toEqual({ ok: true, filters: { segurado: 'Marina' }, page: 1 });
    expect(parsePolicyQuery({ segurado: '', produto: '  ' })).toEqual({ ok: true, filters: {}, page: 1 });
  });

  it('answers a field error for each value that does not parse', () => {
    const parsed = parsePolicyQuery({
      nrApolice: '12a',
      segurado: 'Ma',
      produto: 'XYZ',
      situacao: 'QUALQUER',
      vigenteEm: '2027-02-30',
      page: '0',
    });
    expect(parsed.ok).toBe(false);
    expect(Object.keys(parsed.ok ? {} : parsed.errors).sort()).toEqual([
      'nrApolice',
      'page',
      'produto',
      'segurado',
      'situacao',
      'vigenteEm',
    ]);
  });
});
