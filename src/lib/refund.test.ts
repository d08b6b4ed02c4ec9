import { describe, expect, it } from 'vitest';
import { computeRefund, withPartialReceipts, type RefundInput, SHORT_TERM_TABLE, shortTermPercent } from './refund';

describe('the short-term table', () => {
  it.each([
    [0, 0],
    [15, 13],
    [30, 20],
    [22, 16.27], // between 15 (13 %) and 30 (20 %): 13 + 7 × 7/15
    [100, 44],
    [180, 70],
    [364, 99.9],
    [365, 100],
    [400, 100],
  ])('%i days keep %d %%', (days, percent) => {
    expect(shortTermPercent(days)).toBeCloseTo(percent, 2);
  });

  it('never keeps less for more days', () => {
    let last = 0;
    for (let days = 0; days <= 366; days += 1) {
      const percent = shortTermPercent(days);
      expect(percent).toBeGreaterThanOrEqual(last);
      last = percent;
    }
    expect(SHORT_TERM_TABLE.at(-1)).toEqual([365, 100]);
  });
});

/** A residential policy of R$ 1.200,00 net, R$ 0 cost, IOF 7,38 %, paid in full, from 01/01/2026. */
const PAID_UP: RefundInput = {
  requester: 'SEGURADO',
  inicioVigencia: '2026-01-01',
  fimVigencia: '2027-01-01',
  contratadaEm: '2026-01-01',
  solicitadaEm: '2026-07-01',
  efetivaEm: '2026-07-01',
  premio: { net: 120_000, policyCost: 0, iof: 8_856, total: 128_856 },
  pago: 128_856,
  commissionPercent: 20,
};

describe('the refund of a cancellation', () => {
  it.each([
    // rule, requester, effective, contracted, paid, netKept, netRefund, iofRefund, total, clawback
    ['short term after 181 days', 'SEGURADO', '2026-07-01', '2026-01-01', 128_856, 84_240, 35_760, 2_639, 38_399, 7_152],
    ['pro rata after 181 days', 'SEGURADORA', '2026-07-01', '2026-01-01', 128_856, 59_508, 60_492, 4_464, 64_956, 12_098],
    ['within 7 days of contracting', 'SEGURADO', '2026-01-06', '2026-01-01', 128_856, 0, 120_000, 8_856, 128_856, 24_000],
    [
      'the insurer within 7 days: still pro rata',
      'SEGURADORA',
      '2026-01-06',
      '2026-01-01',
      128_856,
      1_644,
      118_356,
      8_735,
      127_091,
      23_671,
    ],
    ['half paid, short term after 181 days: kept more than paid', 'SEGURADO', '2026-07-01', '2026-01-01', 64_428, 84_240, 0, 0, 0, 0],
    ['a quarter paid, pro rata after 30 days', 'SEGURADORA', '2026-01-31', '2026-01-01', 32_214, 9_864, 20_136, 1_486, 21_622, 4_027],
  ] as const)('%s', (_, requester, efetivaEm, contratadaEm, pago, netKept, netRefund, iofRefund, total, clawback) => {
    const refund = computeRefund({ ...PAID_UP, requester, efetivaEm, solicitadaEm: efetivaEm, contratadaEm, pago });
    expect(refund).toMatchObject({ netKept, netRefund, iofRefund, total, clawback });
    expect(refund.total).toBe(refund.netRefund + refund.iofRefund + refund.policyCostRefund);
  });

  it('says how each figure was reached', () => {
    const refund = computeRefund(PAID_UP);
    expect(refund.rule).toBe('PRAZO_CURTO');
    expect(refund.daysUsed).toBe(181);
    expect(refund.termDays).toBe(365);
    expect(refund.lines.map((l) => l.label)).toEqual([
      'Prêmio líquido pago',
      'Prêmio retido pela seguradora',
      'Prêmio líquido a devolver',
      'IOF a devolver',
      'Custo de apólice a devolver',
    ]);
    expect(refund.lines[1]!.how).toBe('181 de 365 dias de cobertura: a tabela de prazo curto retém 70,2 % de R$ 1.200,00.');
  });

  it('returns the policy cost only on withdrawal', () => {
    const withCost = { ...PAID_UP, premio: { net: 120_000, policyCost: 5_000, iof: 9_225, total: 134_225 }, pago: 134_225 };
    expect(computeRefund({ ...withCost, solicitadaEm: '2026-01-08', efetivaEm: '2026-01-08' })).toMatchObject({
      rule: 'ARREPENDIMENTO',
      policyCostRefund: 5_000,
      total: 134_225,
    });
    expect(computeRefund({ ...withCost, solicitadaEm: '2026-01-09', efetivaEm: '2026-01-09' })).toMatchObject({
      rule: 'PRAZO_CURTO',
      policyCostRefund: 0,
    });
  });

  // Issue 27: a Vida policy contracted on 13/10, cancelled on 27/11 "from 13/10" was refunded in full.
  it('counts the 7 days of withdrawal to the day of the request, not to the effective day', () => {
    const late = { ...PAID_UP, contratadaEm: '2026-01-01', solicitadaEm: '2026-02-15' };
    expect(computeRefund({ ...late, efetivaEm: '2026-01-01' })).toMatchObject({ rule: 'PRAZO_CURTO' });
    expect(computeRefund({ ...late, efetivaEm: '2026-01-01' }).lines[1]!.how).not.toContain('nada é retido');
    // Asked within the 7 days: a withdrawal, whatever day of the term it takes effect from, up to the request's.
    expect(computeRefund({ ...late, solicitadaEm: '2026-01-05', efetivaEm: '2026-01-01' })).toMatchObject({ rule: 'ARREPENDIMENTO' });
    expect(computeRefund({ ...late, solicitadaEm: '2026-01-05', efetivaEm: '2026-01-05' }).lines[1]!.how).toBe(
      'Pedido 4 dia(s) após a contratação: nada é retido.',
    );
    // Asked within the 7 days for a day ahead: the contract is cancelled then, by the short-term table.
    expect(computeRefund({ ...late, solicitadaEm: '2026-01-05', efetivaEm: '2026-03-01' })).toMatchObject({ rule: 'PRAZO_CURTO' });
  });

  it('an effective day at the term’s end keeps everything; before its start, nothing is used', () => {
    expect(computeRefund({ ...PAID_UP, requester: 'SEGURADORA', efetivaEm: '2027-01-01' })).toMatchObject({ percentKept: 100, total: 0 });
    expect(computeRefund({ ...PAID_UP, requester: 'SEGURADORA', efetivaEm: '2026-01-01' })).toMatchObject({
      daysUsed: 0,
      netRefund: 120_000,
    });
  });
});

describe('withPartialReceipts (decision 074)', () => {
  it('adds what partial payments of cancelled installments applied, whole, on its own line; nothing when none', () => {
    const refund = computeRefund(PAID_UP);
    expect(withPartialReceipts(refund, 0)).toBe(refund);
    const more = withPartialReceipts(refund, 4_000);
    expect(more).toMatchObject({ total: refund.total + 4_000, partialReceipts: 4_000, clawback: refund.clawback });
    expect(more.lines.at(-1)).toEqual({
      label: 'Pagamentos parciais de parcelas canceladas',
      amount: 4_000,
      how: 'R$ 40,00 recebidos em parte por parcelas em aberto, que o cancelamento cancela: devolvidos por inteiro.',
    });
  });
});
