import { describe, expect, it } from 'vitest';
import { amountDue, receiptReview, splitReceipt } from './receipts';

/** Issue 27 item 13: what an amount received does to its installment (decision 059). */

describe('amountDue: what an installment of R$ 1.000,00 due 10/12 costs on a day, by the charge paid', () => {
  const installment = { valor: 100_000, vencimento: '2026-12-10' };
  const original = { valor: 100_000, total: 100_000, vencimento: '2026-12-10' };
  // A 2ª via due 22/12 (12 days late): 2 % fine and 1 % × 12/30 interest.
  const secondCopy = { valor: 100_000, total: 102_400, vencimento: '2026-12-22' };
  it.each([
    ['the original slip, on its due day', original, '2026-12-10', 100_000],
    ['the original slip, early', original, '2026-12-01', 100_000],
    ['the original slip, 30 days late: fine and interest to that day', original, '2027-01-09', 103_000],
    ['the 2ª via before its due day: its total, whatever day', secondCopy, '2026-12-15', 102_400],
    ['the 2ª via on its due day', secondCopy, '2026-12-22', 102_400],
    ['the 2ª via after its due day: fine and interest to that day', secondCopy, '2027-01-09', 103_000],
    [
      'a slip of a value since reduced (partial cancellation): the present value',
      { ...original, valor: 120_000, total: 120_000 },
      '2026-12-10',
      100_000,
    ],
  ])('%s', (_, charge, day, due) => expect(amountDue(installment, charge, day)).toBe(due));
});

describe('splitReceipt: every amount is recorded, and says what it did', () => {
  it.each([
    [
      'the amount due: pays it',
      38_395,
      { open: true, due: 38_395, received: 0 },
      { situacao: 'QUITACAO', aplicado: 38_395, credito: 0, paid: true },
    ],
    [
      'R$ 0,01 of R$ 383,95: partial, still open',
      1,
      { open: true, due: 38_395, received: 0 },
      { situacao: 'PARCIAL', aplicado: 1, credito: 0, paid: false },
    ],
    [
      'what completes an earlier partial: pays it',
      38_394,
      { open: true, due: 38_395, received: 1 },
      { situacao: 'QUITACAO', aplicado: 38_394, credito: 0, paid: true },
    ],
    [
      'the whole again after a partial: pays it, the excess to refund',
      38_395,
      { open: true, due: 38_395, received: 1 },
      { situacao: 'QUITACAO', aplicado: 38_394, credito: 1, paid: true },
    ],
    [
      'more than due: pays it, the excess to refund',
      40_000,
      { open: true, due: 38_395, received: 0 },
      { situacao: 'QUITACAO', aplicado: 38_395, credito: 1_605, paid: true },
    ],
    [
      'an installment paid already: all of it to refund',
      38_395,
      { open: false, due: 38_395, received: 38_395 },
      { situacao: 'CREDITO', aplicado: 0, credito: 38_395, paid: false },
    ],
    [
      'a code that is no charge of ours: all of it to refund',
      500,
      undefined,
      { situacao: 'NAO_IDENTIFICADO', aplicado: 0, credito: 500, paid: false },
    ],
  ] as const)('%s', (_, valor, installment, split) => {
    expect(splitReceipt(valor, installment)).toEqual(split);
    const { aplicado, credito } = splitReceipt(valor, installment);
    expect(aplicado + credito).toBe(valor);
  });
});

describe('receiptReview: the insurer’s list says what to do', () => {
  it.each([
    [{ situacao: 'NAO_IDENTIFICADO', credito: 500, installmentStatus: null }, 'Código não reconhecido: identificar o pagador e devolver'],
    [{ situacao: 'CREDITO', credito: 500, installmentStatus: 'PAGA' }, 'Parcela já paga: devolver ao pagador'],
    [{ situacao: 'CREDITO', credito: 500, installmentStatus: 'CANCELADA' }, 'Parcela cancelada: devolver ao pagador'],
    [{ situacao: 'PARCIAL', credito: 0, installmentStatus: 'ABERTA' }, 'Pagamento parcial: a parcela segue em aberto'],
    [{ situacao: 'PARCIAL', credito: 0, installmentStatus: 'CANCELADA' }, 'Pagamento parcial de parcela cancelada: devolver ao pagador'],
    [{ situacao: 'QUITACAO', credito: 1_605, installmentStatus: 'PAGA' }, 'Pago a mais: devolver o excedente'],
    // Once a refund gives the money back (decision 074), where that refund is.
    [
      { situacao: 'QUITACAO', credito: 1_605, installmentStatus: 'PAGA', refund: { status: 'DEVIDA' } },
      'Devolução na fila de restituições, a pagar',
    ],
    [{ situacao: 'CREDITO', credito: 500, installmentStatus: 'PAGA', refund: { status: 'PAGA' } }, 'Devolvido ao segurado'],
    [
      { situacao: 'PARCIAL', credito: 0, installmentStatus: 'CANCELADA', refund: { status: 'DEVOLVIDA' } },
      'Devolução recusada pelo banco: corrigir o destino na fila de restituições',
    ],
  ] as const)('%o → %s', (receipt, text) => expect(receiptReview(receipt)).toBe(text));
});
