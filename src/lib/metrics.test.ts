import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostileText } from '../../tests/fixtures/hostile-text';
import {
  attainmentOf,
  axisMoney,
  funnelOf,
  isMonthNearToday,
  lastMonths,
  METRICS_MESSAGES,
  monthlySeries,
  monthTick,
  niceTicks,
  parseAttainmentView,
  parseMetricsFilters,
  parseTarget,
  parseTargetValue,
  productBreakdown,
  projectionOf,
  rankingOf,
} from './metrics';

const TODAY = '2026-11-24';

describe('months', () => {
  it('the last 12 months end with today’s and cross the year', () => {
    expect(lastMonths(TODAY)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    expect(lastMonths('2026-01-01', 3)).toEqual(['2025-11', '2025-12', '2026-01']);
  });

  it('a month near today is within a year either way, and well formed', () => {
    expect(isMonthNearToday('2025-11', TODAY)).toBe(true);
    expect(isMonthNearToday('2027-11', TODAY)).toBe(true);
    expect(isMonthNearToday('2025-10', TODAY)).toBe(false);
    expect(isMonthNearToday('2027-12', TODAY)).toBe(false);
    for (const bad of ['2026-13', '2026-1', '26-11', '2026-11-01', '']) expect(isMonthNearToday(bad, TODAY)).toBe(false);
  });

  it('fills the months without sales with zeros, in order', () => {
    const series = monthlySeries(['2026-09', '2026-10', '2026-11'], [{ month: '2026-10', premium: 500_00, policies: 2, cancelled: 1 }]);
    expect(series.map((m) => [m.month, m.premium, m.policies, m.cancelled])).toEqual([
      ['2026-09', 0, 0, 0],
      ['2026-10', 500_00, 2, 1],
      ['2026-11', 0, 0, 0],
    ]);
  });

  it('names a month for an axis', () => {
    expect(monthTick('2026-03')).toBe('mar/26');
    expect(monthTick('2025-12')).toBe('dez/25');
  });
});

describe('products and the funnel', () => {
  it('orders the products by premium with their shares', () => {
    const rows = productBreakdown([
      { code: 'VEU', premium: 100_00, policies: 1 },
      { code: 'RES', premium: 300_00, policies: 3 },
    ]);
    expect(rows.map((r) => [r.name, r.share])).toEqual([
      ['Residencial', 0.75],
      ['Vida', 0.25],
    ]);
    expect(productBreakdown([])).toEqual([]);
  });

  it('gives each stage as a share of the quotes and of the stage before', () => {
    const funnel = funnelOf({ quotes: 200, proposals: 150, policies: 120, paid: 90 });
    expect(funnel.map((s) => [s.label, s.count, s.ofQuotes, s.ofPrevious])).toEqual([
      ['Cotações', 200, 1, 1],
      ['Propostas', 150, 0.75, 0.75],
      ['Apólices', 120, 0.6, 0.8],
      ['1ª parcela paga', 90, 0.45, 0.75],
    ]);
    expect(funnelOf({ quotes: 0, proposals: 0, policies: 0, paid: 0 }).every((s) => s.ofQuotes === 0)).toBe(true);
  });
});

describe('targets', () => {
  it.each([
    ['R$ 150.000,00', 150_000_00],
    ['150000', 150_000_00],
    ['150.000', 150_000_00],
    ['1.234,5', 1_234_50],
    [' R$ 99,99 ', 99_99],
    ['1.000.000.000,00', 1_000_000_000_00],
  ])('reads %j as money', (text, cents) => {
    expect(parseTargetValue(text)).toEqual({ cents });
  });

  it.each([
    ['-10', METRICS_MESSAGES.valorNegativo],
    ['R$ -10,00', METRICS_MESSAGES.valorNegativo],
    ['0,00', METRICS_MESSAGES.valorZero],
    ['1.000.000.000,01', METRICS_MESSAGES.valorGrande],
    ['abc', METRICS_MESSAGES.valor],
    ['12,345', METRICS_MESSAGES.valor],
    ['1.23', METRICS_MESSAGES.valor],
    ['', METRICS_MESSAGES.valor],
    ['=1+1', METRICS_MESSAGES.valor],
  ])('refuses %j', (text, message) => {
    expect(parseTargetValue(text)).toEqual({ error: message });
  });

  it('reads a target from its form, or says what is wrong with each field', () => {
    expect(parseTarget({ alvo: 'empresa:11222333000181', mes: '2026-12', valor: 'R$ 20.000,00' }, TODAY)).toEqual({
      ok: true,
      value: { nivel: 'empresa', alvo: '11222333000181', mes: '2026-12', valor: 20_000_00 },
    });
    expect(parseTarget({ alvo: 'vendedor:7', mes: '2026-11', valor: '500' }, TODAY)).toMatchObject({
      ok: true,
      value: { nivel: 'vendedor', alvo: '7' },
    });
    const bad = parseTarget({ alvo: 'gerente:1', mes: '2030-01', valor: '-1' }, TODAY);
    expect(bad).toEqual({
      ok: false,
      errors: { alvo: [METRICS_MESSAGES.alvo], mes: [METRICS_MESSAGES.mes], valor: [METRICS_MESSAGES.valorNegativo] },
    });
    expect(parseTarget({}, TODAY)).toMatchObject({
      ok: false,
      errors: { alvo: expect.any(Array), mes: expect.any(Array), valor: expect.any(Array) },
    });
  });

  it('attains what was sold over the target, and nothing without one', () => {
    expect(attainmentOf(150_00, 100_00)).toBe(1.5);
    expect(attainmentOf(150_00, undefined)).toBeUndefined();
    expect(attainmentOf(150_00, 0)).toBeUndefined();
  });

  it('projects the current month at today’s pace over its calendar days', () => {
    // 24 of November's 30 days gone (today included): 2.400 so far → 3.000.
    expect(projectionOf('2026-11', 2_400_00, TODAY)).toBe(3_000_00);
    expect(projectionOf('2026-02', 100_00, '2026-02-01')).toBe(2_800_00);
    expect(projectionOf('2026-10', 5_000_00, TODAY)).toBe(5_000_00); // a month over is what it sold
    expect(projectionOf('2026-12', 0, TODAY)).toBe(0);
  });

  it('ranks by premium, then policies, then name, with each one’s attainment', () => {
    const ranking = rankingOf([
      { id: 1, name: 'Loja B', detail: 'PV-2', premium: 100, policies: 1 },
      { id: 2, name: 'Loja C', detail: 'PV-3', premium: 300, policies: 2, target: 200 },
      { id: 3, name: 'Loja A', detail: 'PV-1', premium: 100, policies: 1 },
      { id: 4, name: 'Loja D', detail: 'PV-4', premium: 100, policies: 3 },
    ]);
    expect(ranking.map((r) => [r.name, r.attainment])).toEqual([
      ['Loja C', 1.5],
      ['Loja D', undefined],
      ['Loja A', undefined],
      ['Loja B', undefined],
    ]);
  });

  it('the attainment page’s month is this one or a past one, and ranks points of sale or sellers', () => {
    const view = (query: string) => parseAttainmentView(new URLSearchParams(query), TODAY);
    expect(view('')).toEqual({ ok: true, value: { mes: '2026-11', ranking: 'pontos' } });
    expect(view('mes=2026-03&ranking=vendedores')).toEqual({ ok: true, value: { mes: '2026-03', ranking: 'vendedores' } });
    expect(view('mes=2026-12')).toMatchObject({ ok: false, errors: { mes: [METRICS_MESSAGES.mes] } });
    expect(view('ranking=gerentes')).toMatchObject({ ok: false, errors: { ranking: [METRICS_MESSAGES.ranking] } });
  });
});

describe('filters', () => {
  it('reads a masked CNPJ, a point of sale in any case, a seller and a product; blank is no filter', () => {
    const parsed = parseMetricsFilters(new URLSearchParams('empresa=11.222.333/0001-81&pontoVenda=pv-0001&vendedor=7&produto=res'));
    expect(parsed).toEqual({ ok: true, value: { empresa: '11222333000181', pontoVenda: 'PV-0001', vendedor: 7, produto: 'RES' } });
    expect(parseMetricsFilters(new URLSearchParams('empresa=&produto='))).toEqual({ ok: true, value: {} });
  });

  it('gives a pt-BR message for each bad filter', () => {
    const parsed = parseMetricsFilters(new URLSearchParams('empresa=abc&pontoVenda=<x>&vendedor=0&produto=XX'));
    expect(parsed).toEqual({
      ok: false,
      errors: {
        empresa: [METRICS_MESSAGES.empresa],
        pontoVenda: [METRICS_MESSAGES.pontoVenda],
        vendedor: [METRICS_MESSAGES.vendedor],
        produto: [METRICS_MESSAGES.produto],
      },
    });
  });
});

describe('chart scales', () => {
  it('marks round steps from zero to at least the largest value', () => {
    expect(niceTicks(87_000)).toEqual([0, 50_000, 100_000]);
    expect(niceTicks(40)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0)).toEqual([0, 1]);
    for (const max of [1, 3, 99, 1234, 15_557_09]) {
      const ticks = niceTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });

  it('writes money on an axis in short form', () => {
    expect(axisMoney(15_000_00)).toBe('R$ 15 mil');
    expect(axisMoney(1_200_000_00)).toBe('R$ 1,2 mi');
    expect(axisMoney(0)).toBe('R$ 0');
  });
});

describe('under random input', () => {
  const text = fc.oneof(hostileText(), fc.string({ maxLength: 30 }), fc.constantFrom('', '2026-11', 'empresa:1', 'R$ 1,00', '-1'));
  const messages = new Set<string>(Object.values(METRICS_MESSAGES));

  it('the filters, the attainment view and the target form answer a value or pt-BR messages, never a throw', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('empresa', 'pontoVenda', 'vendedor', 'produto', 'mes', 'ranking', 'alvo', 'valor'), text),
        (fields) => {
          const params = new URLSearchParams(Object.entries(fields));
          for (const parsed of [parseMetricsFilters(params), parseAttainmentView(params, TODAY), parseTarget(fields, TODAY)]) {
            if (parsed.ok) continue;
            for (const list of Object.values(parsed.errors)) for (const message of list) expect(messages.has(message)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a target read as money is whole cents between one and the maximum', () => {
    fc.assert(
      fc.property(text, (value) => {
        const parsed = parseTargetValue(value);
        if ('cents' in parsed) expect(Number.isInteger(parsed.cents) && parsed.cents >= 1 && parsed.cents <= 1_000_000_000_00).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
