import { describe, expect, it } from 'vitest';
import { installmentLines, paymentLines } from './quote-summary';
import type { QuoteView } from './quotes';

/** Issue 42 item 7 (decision 074): what the resumo and the proposal's PDF promise is what the policy charges. */

const option = (count: number) => ({ count, first: 10_000, other: 10_000, total: count * 10_000, interestFree: true, monthlyInterest: 0 });
const contracting = (over: Record<string, unknown>) =>
  ({ formaPagamento: 'boleto', parcelas: 1, opcao: option(1), ...over }) as unknown as NonNullable<QuoteView['contratacao']>;
const due = (lines: { label: string; value: string }[]) => lines.find((l) => l.label === 'Vencimento')!.value;

describe('paymentLines and installmentLines', () => {
  it('Pix: three days after the policy is issued — the day of a policy issued today, until it is', () => {
    const pix = contracting({ formaPagamento: 'pix' });
    expect(due(paymentLines(pix, '2026-12-06', false))).toBe('À vista, 3 dias após a emissão da apólice (09/12/2026, se emitida hoje)');
    expect(paymentLines(pix, '2026-12-06', false).find((l) => l.label === 'Datas')!.value).toContain('emissão hoje, 06/12/2026');
    expect(due(paymentLines(pix, '2026-12-06', true))).toBe('À vista, em 09/12/2026 (3 dias após a emissão da apólice)');
    expect(paymentLines(pix, '2026-12-06', true).map((l) => l.label)).not.toContain('Datas');
    expect(installmentLines(pix, '2026-12-06')).toEqual([{ number: 1, dueDate: '09/12/2026', value: 10_000 }]);
  });

  it('a due day: monthly on it, the first at least five days after issuance', () => {
    const boleto = contracting({ diaVencimento: 10, parcelas: 2, opcao: option(2) });
    expect(due(paymentLines(boleto, '2026-12-05', true))).toBe('Dia 10');
    expect(installmentLines(boleto, '2026-12-05').map((l) => l.dueDate)).toEqual(['10/12/2026', '10/01/2027']);
    expect(installmentLines(boleto, '2026-12-06').map((l) => l.dueDate)).toEqual(['10/01/2027', '10/02/2027']);
  });
});
