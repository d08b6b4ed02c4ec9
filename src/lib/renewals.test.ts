import { describe, expect, it } from 'vitest';
import {
  daysUntil,
  nextTerm,
  parseRenewalQuery,
  RENEWAL_MESSAGES,
  renewalMonths,
  renewalRate,
  renewalRefusal,
  renewalSeries,
  renewalSellerText,
  renewalState,
  renewalWindow,
} from './renewals';

describe('the next term', () => {
  it.each([
    ['2026-12-20', '2026-12-21', '2027-12-21'],
    // The last day of a year: the next term starts on New Year's Day.
    ['2026-12-31', '2027-01-01', '2028-01-01'],
    // A term ending on 28 February 2027 is followed by one from 1 March.
    ['2027-02-28', '2027-03-01', '2028-03-01'],
    // Starting on 29 February, a term ends on 28 February (lib/policies.ts policyTerm).
    ['2028-02-28', '2028-02-29', '2029-02-28'],
  ])('after a term ending %s: %s to %s', (fim, inicio, next) => {
    expect(nextTerm(fim)).toEqual({ inicio, fim: next });
  });
});

describe('the window and the days left', () => {
  it('counts whole Brasília days, 0 on the last day and negative after it', () => {
    expect(daysUntil('2026-12-20', '2026-11-20')).toBe(30);
    expect(daysUntil('2026-11-20', '2026-11-20')).toBe(0);
    expect(daysUntil('2026-11-19', '2026-11-20')).toBe(-1);
  });
  it('lists the end dates from today to 60 days ahead', () => {
    expect(renewalWindow('2026-11-28')).toEqual({ from: '2026-11-28', to: '2027-01-27' });
  });
});

describe('who may be renewed', () => {
  const inForce = { status: 'VIGENTE' as const, fimVigencia: '2026-12-20', renovadaPor: null };
  it('a policy in force ending within 60 days, up to its last day', () => {
    expect(renewalRefusal(inForce, '2026-11-20')).toBeUndefined();
    expect(renewalRefusal(inForce, '2026-12-20')).toBeUndefined();
    expect(renewalRefusal(inForce, '2026-10-21')).toBeUndefined();
  });
  it('not a cancelled one, a renewed one, an ended one, nor one whose window has not opened', () => {
    expect(renewalRefusal({ ...inForce, status: 'CANCELADA' }, '2026-11-20')).toBe(RENEWAL_MESSAGES.cancelled);
    expect(renewalRefusal({ ...inForce, renovadaPor: '123' }, '2026-11-20')).toBe(RENEWAL_MESSAGES.renewed('123'));
    expect(renewalRefusal(inForce, '2026-12-21')).toBe(RENEWAL_MESSAGES.ended);
    expect(renewalRefusal(inForce, '2026-10-20')).toBe(RENEWAL_MESSAGES.early(61));
  });
  it('not one whose cancellation is scheduled: the message names the day, as the endorsements do', () => {
    expect(renewalRefusal({ ...inForce, cancelamentoAgendado: '2026-12-05' }, '2026-11-20')).toBe(
      'Esta apólice tem um cancelamento agendado para 05/12/2026: desfaça o agendamento para renová-la.',
    );
    expect(renewalRefusal({ ...inForce, cancelamentoAgendado: null }, '2026-11-20')).toBeUndefined();
  });
  it('states: renewed wins over a quote, a quote over nothing', () => {
    expect(renewalState('9', '1')).toBe('RENOVADA');
    expect(renewalState(null, '1')).toBe('COTADA');
    expect(renewalState(null, null)).toBe('NAO_RENOVADA');
    // It ends on the scheduled day: not to be renewed meanwhile (issue 42: the list offered Renovar).
    expect(renewalState(null, null, '2026-12-20')).toBe('CANCELAMENTO_AGENDADO');
    expect(renewalState(null, '1', '2026-12-20')).toBe('COTADA');
  });
});

describe('the renewal rate', () => {
  it('is renewed over ending in percent, none when nothing ended', () => {
    expect(renewalRate(1, 3)).toBe(33.3);
    expect(renewalRate(2, 2)).toBe(100);
    expect(renewalRate(0, 0)).toBeUndefined();
  });
  it('runs over the year and the two months ahead, zero where nothing ends, with a total', () => {
    expect(renewalMonths(['2026-10', '2026-11'])).toEqual(['2026-10', '2026-11', '2026-12', '2027-01']);
    const { months, total } = renewalSeries(['2026-11', '2026-12'], [{ month: '2026-12', ending: 4, renewed: 1 }]);
    expect(months).toEqual([
      { month: '2026-11', ending: 0, renewed: 0, rate: undefined },
      { month: '2026-12', ending: 4, renewed: 1, rate: 25 },
    ]);
    expect(total).toMatchObject({ ending: 4, renewed: 1, rate: 25 });
  });
});

describe('the list’s filters', () => {
  it('reads a product in any case and ids; a bad value is a pt-BR field error', () => {
    expect(parseRenewalQuery({ produto: 'res', vendedor: '12', pontoVenda: '' })).toEqual({
      ok: true,
      filters: { produto: 'RES', vendedor: 12, pontoVenda: undefined },
      page: 1,
    });
    expect(parseRenewalQuery({ produto: 'XYZ', vendedor: 'abc' })).toEqual({
      ok: false,
      errors: { produto: ['Produto inválido.'], vendedor: ['Vendedor inválido.'] },
    });
  });
});

describe('who the renewal page says will sell it', () => {
  it.each([
    [{ nome: 'Igor', policySeller: true, viewer: true }, 'A cotação da renovação fica em seu nome, como esta apólice.'],
    [{ nome: 'Igor', policySeller: true, viewer: false }, /em nome de Igor, que vendeu esta apólice: você poderá consultá-la/],
    [
      { nome: 'Ana', policySeller: false, viewer: true, instead: 'Juliana' },
      /^Juliana, que vendeu esta apólice, não pode mais vendê-la: .* \(Ana\)\.$/,
    ],
  ] as const)('%j', (who, text) => {
    expect(renewalSellerText(who)).toMatch(text);
  });
});
