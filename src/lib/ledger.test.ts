import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { buildLedger, ledgerCsvRecord, LEDGER_CSV_COLUMNS, type LedgerInput, type LedgerReceipt } from './ledger';
import { CSV_OPTIONS } from './csv';

const base = (over: Partial<LedgerInput> = {}): LedgerInput => ({
  installments: [
    { id: 1, numero: 1, vencimento: '2026-01-10', valor: 10000, status: 'PAGA' },
    { id: 2, numero: 2, vencimento: '2026-02-10', valor: 10000, status: 'ABERTA' },
  ],
  charges: [],
  receipts: [],
  refunds: [],
  refundEvents: [],
  cancelledAt: null,
  today: '2026-03-01',
  ...over,
});

const receipt = (over: Partial<LedgerReceipt>): LedgerReceipt => ({
  id: 1,
  installmentId: 1,
  valor: 10000,
  devido: 10000,
  aplicado: 10000,
  credito: 0,
  situacao: 'QUITACAO',
  meio: 'BOLETO',
  recebidoEm: '2026-01-09T15:00:00Z',
  refundId: null,
  ...over,
});

/** Each line's kind and amount, and the two running totals after it: what the insured owes, what is owed to them. */
const amounts = (input: LedgerInput) => buildLedger(input).lines.map((l) => [l.kind, l.amount, l.owedByInsured, l.owedToInsured]);

describe('the ledger of a policy (issue 31)', () => {
  it('charges each installment on its due day and keeps what the insured owes', () => {
    const ledger = buildLedger(base({ receipts: [receipt({})] }));
    // Paid the day before it was due: charged that day, so nothing is ever owed back in between.
    expect(ledger.lines.map((l) => [l.day, l.kind, l.amount, l.owedByInsured, l.owedToInsured])).toEqual([
      ['2026-01-09', 'PARCELA', 10000, 10000, 0],
      ['2026-01-09', 'RECEBIMENTO', 10000, 0, 0],
      ['2026-02-10', 'PARCELA', 10000, 10000, 0],
    ]);
    expect(ledger.lines[0]!.description).toBe('1ª parcela de 2, vencimento 10/01/2026');
    expect(ledger.totals).toMatchObject({
      charged: 20000,
      received: 10000,
      receivedInExcess: 0,
      owedBack: 0,
      paidBack: 0,
      owedByInsured: { due: 10000, later: 0 },
      owedToInsured: 0,
    });
  });

  it('never nets: an excess on one installment is owed back while the next is overdue (issue 42, item 5)', () => {
    const input = base({
      today: '2026-02-20',
      installments: [
        { id: 1, numero: 1, vencimento: '2026-01-10', valor: 13725, status: 'PAGA' },
        { id: 2, numero: 2, vencimento: '2026-02-10', valor: 13725, status: 'ABERTA' },
        { id: 3, numero: 3, vencimento: '2026-03-10', valor: 13725, status: 'ABERTA' },
      ],
      receipts: [receipt({ valor: 20000, devido: 13725, aplicado: 13725, credito: 6275 })],
    });
    expect(amounts(input)).toEqual([
      ['PARCELA', 13725, 13725, 0],
      ['RECEBIMENTO', 20000, 0, 6275],
      ['PARCELA', 13725, 13725, 6275],
      ['PARCELA', 13725, 27450, 6275],
    ]);
    expect(buildLedger(input).totals).toMatchObject({ owedByInsured: { due: 13725, later: 13725 }, owedToInsured: 6275 });
  });

  it('orders by Brasília’s day: a payment at 01:00 UTC belongs to the day before', () => {
    const ledger = buildLedger(base({ receipts: [receipt({ recebidoEm: '2026-01-11T01:00:00Z' })] }));
    expect(ledger.lines[0]).toMatchObject({ day: '2026-01-10', kind: 'PARCELA' });
    expect(ledger.lines[1]).toMatchObject({ day: '2026-01-10', kind: 'RECEBIMENTO' });
  });

  it('marks the charges not yet due', () => {
    const ledger = buildLedger(base({ today: '2026-01-31' }));
    expect(ledger.lines.map((l) => l.future)).toEqual([false, true]);
    expect(ledger.totals.owedByInsured).toEqual({ due: 10000, later: 10000 });
  });

  it('a partial payment leaves the installment owed; the rest paid later closes it', () => {
    const input = base({
      receipts: [
        receipt({ id: 1, installmentId: 2, valor: 4000, aplicado: 4000, situacao: 'PARCIAL', recebidoEm: '2026-02-05T12:00:00Z' }),
        receipt({ id: 2, installmentId: 2, valor: 6000, aplicado: 6000, situacao: 'QUITACAO', recebidoEm: '2026-02-09T12:00:00Z' }),
      ],
      installments: [{ id: 2, numero: 1, vencimento: '2026-02-10', valor: 10000, status: 'PAGA' }],
    });
    expect(amounts(input)).toEqual([
      ['PARCELA', 10000, 10000, 0],
      ['RECEBIMENTO', 4000, 6000, 0],
      ['RECEBIMENTO', 6000, 0, 0],
    ]);
    expect(buildLedger(input).lines[1]!.description).toContain('parcial: a parcela segue em aberto');
  });

  it('a duplicate payment is received and owed back, its refund only says how it goes back', () => {
    const input = base({
      installments: [{ id: 1, numero: 1, vencimento: '2026-01-10', valor: 10000, status: 'PAGA' }],
      receipts: [
        receipt({ id: 1 }),
        receipt({ id: 2, aplicado: 0, credito: 10000, situacao: 'CREDITO', recebidoEm: '2026-01-12T12:00:00Z' }),
      ],
    });
    const ledger = buildLedger(input);
    expect(ledger.lines.at(-1)).toMatchObject({ kind: 'RECEBIMENTO', amount: 10000, owedByInsured: 0, owedToInsured: 10000 });
    expect(ledger.lines.at(-1)!.description).toContain('em duplicidade, R$ 100,00 a devolver');
    expect(ledger.totals).toMatchObject({ received: 20000, receivedInExcess: 10000, owedToInsured: 10000 });

    // Its refund (decision 074) neither owes it twice nor, paid, leaves anything owed.
    const refunded = buildLedger({
      ...input,
      receipts: input.receipts.map((r) => (r.id === 2 ? { ...r, refundId: 9 } : r)),
      refunds: [
        {
          id: 9,
          nrEndosso: null,
          receiptId: 2,
          parcial: false,
          valor: 10000,
          previstaPara: '2026-01-26',
          criadaEm: '2026-01-12T12:00:00Z',
        },
      ],
      refundEvents: [{ id: 1, refundId: 9, acao: 'PAGA', valor: 10000, detalhe: 'DEMO-9', em: '2026-01-20T12:00:00Z' }],
    });
    expect(refunded.lines.slice(-2).map((l) => [l.kind, l.amount, l.owedToInsured])).toEqual([
      ['RESTITUICAO_DEVIDA', 10000, 10000],
      ['RESTITUICAO_PAGA', 10000, 0],
    ]);
    expect(refunded.lines.at(-2)!.description).toBe('Restituição do que foi pago a mais na 1ª parcela — Restituição prevista 26/01/2026');
    expect(refunded.lines.at(-1)!.description).toBe('Restituição paga (pago a mais) — comprovante DEMO-9');
    expect(refunded.totals).toMatchObject({ owedBack: 10000, paidBack: 10000, owedToInsured: 0 });
  });

  it('a 2ª via adds its fine and interest once; a second one only what it adds to the first', () => {
    const input = base({
      installments: [{ id: 2, numero: 2, vencimento: '2026-02-10', valor: 10000, status: 'PAGA' }],
      charges: [
        { id: 10, installmentId: 2, vencimento: '2026-02-10', multa: 0, juros: 0, criadaEm: '2026-01-01T12:00:00Z' },
        { id: 11, installmentId: 2, vencimento: '2026-02-20', multa: 200, juros: 33, criadaEm: '2026-02-15T12:00:00Z' },
        { id: 12, installmentId: 2, vencimento: '2026-02-28', multa: 200, juros: 60, criadaEm: '2026-02-25T12:00:00Z' },
      ],
      receipts: [receipt({ installmentId: 2, valor: 10260, devido: 10260, aplicado: 10260, recebidoEm: '2026-02-26T12:00:00Z' })],
    });
    expect(amounts(input)).toEqual([
      ['PARCELA', 10000, 10000, 0],
      ['SEGUNDA_VIA', 233, 10233, 0],
      ['SEGUNDA_VIA', 27, 10260, 0],
      ['RECEBIMENTO', 10260, 0, 0],
    ]);
    expect(buildLedger(input).totals.charged).toBe(10260);
  });

  it('a late payment without a 2ª via shows the fine and interest it paid, just before it', () => {
    const input = base({
      installments: [{ id: 1, numero: 1, vencimento: '2026-01-10', valor: 10000, status: 'PAGA' }],
      receipts: [receipt({ valor: 10250, devido: 10250, aplicado: 10250, recebidoEm: '2026-01-20T12:00:00Z' })],
    });
    expect(amounts(input)).toEqual([
      ['PARCELA', 10000, 10000, 0],
      ['MULTA_JUROS', 250, 10250, 0],
      ['RECEBIMENTO', 10250, 0, 0],
    ]);
    expect(buildLedger(input).lines[2]!.description).toContain('com multa e juros de R$ 2,50');
  });

  it('a cancellation takes back the open installments and owes the refund; paid, returned, reopened and paid again', () => {
    const input = base({
      installments: [
        { id: 1, numero: 1, vencimento: '2026-01-10', valor: 10000, status: 'PAGA' },
        { id: 2, numero: 2, vencimento: '2026-02-10', valor: 10000, status: 'CANCELADA' },
      ],
      receipts: [receipt({})],
      cancelledAt: '2026-01-20T12:00:00Z',
      refunds: [
        {
          id: 7,
          nrEndosso: '202600000001',
          receiptId: null,
          parcial: false,
          valor: 3000,
          previstaPara: '2026-02-03',
          criadaEm: '2026-01-20T12:00:00Z',
        },
      ],
      refundEvents: [
        { id: 1, refundId: 7, acao: 'PAGA', valor: 3000, detalhe: 'DEMO-1', em: '2026-02-01T12:00:00Z' },
        { id: 2, refundId: 7, acao: 'DEVOLVIDA', valor: 3000, detalhe: 'CONTA_ENCERRADA: conta fechada', em: '2026-02-02T12:00:00Z' },
        { id: 3, refundId: 7, acao: 'REABERTA', valor: 3000, detalhe: 'Pix (CPF) ***', em: '2026-02-02T13:00:00Z' },
        { id: 4, refundId: 7, acao: 'PAGA', valor: 3000, detalhe: 'DEMO-2', em: '2026-02-02T14:00:00Z' },
      ],
    });
    const ledger = buildLedger(input);
    expect(amounts(input)).toEqual([
      ['PARCELA', 10000, 10000, 0],
      ['RECEBIMENTO', 10000, 0, 0],
      ['PARCELA', 10000, 10000, 0],
      ['PARCELA_CANCELADA', 10000, 0, 0],
      ['RESTITUICAO_DEVIDA', 3000, 0, 3000],
      ['RESTITUICAO_PAGA', 3000, 0, 0],
      ['RESTITUICAO_DEVOLVIDA', 3000, 0, 3000],
      ['RESTITUICAO_REABERTA', 0, 0, 3000],
      ['RESTITUICAO_PAGA', 3000, 0, 0],
    ]);
    expect(ledger.lines[4]!.description).toContain('Restituição prevista 03/02/2026');
    expect(ledger.lines[6]!.description).toContain('Conta encerrada ou bloqueada — conta fechada');
    expect(ledger.totals).toMatchObject({
      charged: 10000,
      received: 10000,
      owedBack: 3000,
      paidBack: 3000,
      owedByInsured: { due: 0, later: 0 },
      owedToInsured: 0,
    });
  });

  it('a partial payment of an installment a cancellation cancelled is owed back: in its refund, or on its own before decision 074', () => {
    const partial = receipt({
      id: 5,
      installmentId: 2,
      valor: 4000,
      aplicado: 4000,
      situacao: 'PARCIAL',
      recebidoEm: '2026-02-01T12:00:00Z',
    });
    const input = base({
      installments: [{ id: 2, numero: 1, vencimento: '2026-02-10', valor: 10000, status: 'CANCELADA' }],
      receipts: [partial],
      cancelledAt: '2026-02-05T12:00:00Z',
      today: '2026-02-05',
    });
    expect(amounts(input)).toEqual([
      ['PARCELA', 10000, 10000, 0],
      ['RECEBIMENTO', 4000, 6000, 0],
      ['PARCELA_CANCELADA', 10000, 0, 4000],
    ]);
    expect(buildLedger(input).lines[2]!.description).toContain('R$ 40,00 pagos em parte são devolvidos');
    const taken = base({
      ...input,
      receipts: [{ ...partial, refundId: 7 }],
      refunds: [
        {
          id: 7,
          nrEndosso: '1',
          receiptId: null,
          parcial: false,
          valor: 4000,
          previstaPara: '2026-02-19',
          criadaEm: '2026-02-05T12:00:00Z',
        },
      ],
    });
    expect(amounts(taken).slice(2)).toEqual([
      ['PARCELA_CANCELADA', 10000, 0, 0],
      ['RESTITUICAO_DEVIDA', 4000, 0, 4000],
    ]);
  });

  it('writes the CSV with both sides unsigned, so no cell starts with a minus', () => {
    const ledger = buildLedger(base({ receipts: [receipt({ valor: 123456, aplicado: 10000, credito: 113456 })] }));
    const csv = stringify([LEDGER_CSV_COLUMNS as unknown as string[], ...ledger.lines.map(ledgerCsvRecord)], CSV_OPTIONS);
    expect(csv.startsWith('\ufeffData;Tipo;Descrição;Valor (R$);Segurado deve (R$);A devolver ao segurado (R$);A vencer')).toBe(true);
    expect(csv).toContain('09/01/2026;Recebimento;');
    expect(csv).toContain(';1234,56;0,00;1134,56;não');
    expect(csv).not.toMatch(/;'?-\d/);
  });
});
