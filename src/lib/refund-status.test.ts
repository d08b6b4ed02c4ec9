import { describe, expect, it } from 'vitest';
import { actionsFor, nextStatus, REFUND_STATUSES, tabOf, type RefundAction, type RefundStatus } from './refund-status';

describe('the states of a refund (issue 31)', () => {
  // Every (status, action) pair: only the three transitions of the table move a refund.
  const table: [RefundStatus, RefundAction, RefundStatus | undefined][] = [
    ['DEVIDA', 'pagar', 'PAGA'],
    ['DEVIDA', 'devolver', undefined],
    ['DEVIDA', 'reabrir', undefined],
    ['PAGA', 'pagar', undefined],
    ['PAGA', 'devolver', 'DEVOLVIDA'],
    ['PAGA', 'reabrir', undefined],
    ['DEVOLVIDA', 'pagar', undefined],
    ['DEVOLVIDA', 'devolver', undefined],
    ['DEVOLVIDA', 'reabrir', 'DEVIDA'],
  ];
  it.each(table)('%s --%s--> %s', (from, action, to) => {
    expect(nextStatus(from, action)).toBe(to);
  });

  it('offers each status exactly the action that moves it', () => {
    expect(REFUND_STATUSES.map((s) => [s, actionsFor(s)])).toEqual([
      ['DEVIDA', ['pagar']],
      ['PAGA', ['devolver']],
      ['DEVOLVIDA', ['reabrir']],
    ]);
  });

  it('reads the tab from the address, the first for anything else', () => {
    expect(tabOf('pagas')).toBe('PAGA');
    expect(tabOf('devolvidas')).toBe('DEVOLVIDA');
    expect(tabOf('a-pagar')).toBe('DEVIDA');
    expect(tabOf('PAGA')).toBe('DEVIDA');
    expect(tabOf(null)).toBe('DEVIDA');
  });
});
