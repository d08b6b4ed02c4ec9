import { describe, expect, it } from 'vitest';
import {
  cancellationPreview,
  cancellationTiming,
  effectiveDayErrors,
  effectiveDayWindow,
  openInstallmentsText,
  type CancellationInput,
} from './cancellation';

/** Issue 27, decision 055: from which day a cancellation may take effect, and what that day makes of it. */
const TERM = { inicio: '2026-10-13', fim: '2027-10-13' };
const TODAY = '2026-11-27';
const partner = { term: TERM, today: TODAY, insurerStaff: false };
const staff = { ...partner, insurerStaff: true };

describe('the effective day', () => {
  it.each([
    // who, day, detail, errors
    ['partner', '2026-11-27', undefined, {}],
    ['partner', '2027-01-31', undefined, {}],
    [
      'partner',
      '2026-10-13',
      undefined,
      { efetivaEm: [expect.stringContaining('Só a seguradora cancela com data retroativa: escolha hoje (27/11/2026)')] },
    ],
    ['partner', '2026-11-26', 'Pedido ontem', { efetivaEm: [expect.stringContaining('Só a seguradora')] }],
    ['staff', '2026-11-26', undefined, { detalhe: [expect.stringContaining('Justifique a data retroativa')] }],
    ['staff', '2026-10-28', 'Carta de 28/10', {}],
    [
      'staff',
      '2026-10-27',
      'Carta de 27/10',
      { efetivaEm: ['Um cancelamento retroativo vale desde 28/10/2026, no máximo: 30 dias antes de hoje.'] },
    ],
    [
      'staff',
      '2026-10-12',
      'Antes da vigência',
      { efetivaEm: ['O cancelamento não pode valer antes do início da vigência (13/10/2026).'] },
    ],
    ['partner', '2027-10-14', undefined, { efetivaEm: ['O cancelamento não pode valer depois do fim da vigência (13/10/2027).'] }],
  ] as const)('%s, from %s (%s): %j', (who, efetivaEm, detalhe, errors) => {
    expect(effectiveDayErrors({ efetivaEm, detalhe }, who === 'staff' ? staff : partner)).toEqual(errors);
  });

  it('offers the date field the days the rules leave', () => {
    expect(effectiveDayWindow(partner)).toEqual({ min: TODAY, max: TERM.fim });
    expect(effectiveDayWindow(staff)).toEqual({ min: '2026-10-28', max: TERM.fim });
    // A term not begun: its first day, for everyone.
    expect(effectiveDayWindow({ ...staff, term: { inicio: '2026-12-10', fim: '2027-12-10' } }).min).toBe('2026-12-10');
  });

  it.each([
    ['2026-11-27', 'IMEDIATO'],
    ['2026-11-28', 'AGENDADO'],
    ['2026-11-20', 'RETROATIVO'],
  ] as const)('from %s is %s', (day, timing) => {
    expect(cancellationTiming(day, TODAY, TERM)).toBe(timing);
  });

  it('a term not begun is cancelled at once from its first day, scheduled only after it', () => {
    const notBegun = { inicio: '2026-12-10' };
    expect(cancellationTiming('2026-12-10', TODAY, notBegun)).toBe('IMEDIATO');
    expect(cancellationTiming('2026-12-11', TODAY, notBegun)).toBe('AGENDADO');
  });
});

describe('a day ahead asked within the 7 days of withdrawal', () => {
  const input: CancellationInput = {
    requester: 'SEGURADO',
    solicitadaEm: '2026-11-27',
    efetivaEm: '2026-12-05',
    term: { inicio: '2026-11-25', fim: '2027-11-25' },
    contratadaEm: '2026-11-25',
    premium: { net: 100_000, policyCost: 0, iof: 7_380, total: 107_380 },
    paid: 107_380,
    commissionPercent: 20,
    inForce: [{ id: 'basica', name: 'Básica', premium: 100_000 }],
  };

  it('is scheduled by the short-term table, and the resumo says that today would give everything back', () => {
    const preview = cancellationPreview(input);
    expect(preview).toMatchObject({ timing: 'AGENDADO', withdrawalIfToday: true, refund: { rule: 'PRAZO_CURTO' } });
    expect(cancellationPreview({ ...input, efetivaEm: '2026-11-27' })).toMatchObject({
      timing: 'IMEDIATO',
      withdrawalIfToday: false,
      refund: { rule: 'ARREPENDIMENTO', total: 107_380 },
    });
    // Past the 7 days, nothing to say.
    expect(cancellationPreview({ ...input, solicitadaEm: '2026-12-03' }).withdrawalIfToday).toBe(false);
    expect(cancellationPreview({ ...input, requester: 'SEGURADORA' }).withdrawalIfToday).toBe(false);
  });
});

describe('partial payments of the open installments (issue 42 item 6, decision 074)', () => {
  const input: CancellationInput = {
    requester: 'SEGURADO',
    solicitadaEm: '2026-07-01',
    efetivaEm: '2026-07-01',
    term: { inicio: '2026-01-01', fim: '2027-01-01' },
    contratadaEm: '2026-01-01',
    premium: { net: 100_000, policyCost: 0, iof: 7_380, total: 107_380 },
    paid: 53_690,
    partialReceived: 4_000,
    commissionPercent: 20,
    inForce: [
      { id: 'basica', name: 'Básica', premium: 80_000 },
      { id: 'vidros', name: 'Vidros', premium: 20_000 },
    ],
  };

  it('a whole cancellation gives them back whole, on a line of their own, without clawing back more commission', () => {
    const without = cancellationPreview({ ...input, partialReceived: 0 });
    const preview = cancellationPreview(input);
    expect(preview.refund.total).toBe(without.refund.total + 4_000);
    expect(preview.refund.partialReceipts).toBe(4_000);
    expect(preview.refund.clawback).toBe(without.refund.clawback);
    expect(preview.refund.lines.at(-1)).toMatchObject({ label: 'Pagamentos parciais de parcelas canceladas', amount: 4_000 });
    expect(without.refund.partialReceipts).toBeUndefined();
  });

  it('a partial cancellation only reduces the open installments: what was paid of them still counts', () => {
    const preview = cancellationPreview({ ...input, dropped: ['vidros'] });
    expect(preview.refund.partialReceipts).toBeUndefined();
    expect(preview.refund.lines.map((l) => l.label)).not.toContain('Pagamentos parciais de parcelas canceladas');
  });
});

describe('what the resumo says of the open installments (issue 42 item 15)', () => {
  it.each([
    [{ timing: 'IMEDIATO', partial: false, openReduction: 0 }, 'Canceladas: não serão cobradas'],
    [{ timing: 'RETROATIVO', partial: true, openReduction: 12_345 }, 'Reduzidas em R$ 123,45 no total'],
    // Scheduled: due until the day, as the success page and the e-mail say.
    [
      { timing: 'AGENDADO', partial: false, openReduction: 0 },
      'Continuam devidas até 20/12/2026; nesse dia, as que ainda estiverem em aberto são canceladas',
    ],
    [
      { timing: 'AGENDADO', partial: true, openReduction: 12_345 },
      'Continuam devidas como estão até 20/12/2026; nesse dia, as que estiverem em aberto são reduzidas em R$ 123,45 no total (estimativa pelo que está pago hoje)',
    ],
  ] as const)('%o → %s', (preview, text) => expect(openInstallmentsText(preview, '2026-12-20')).toBe(text));
});
