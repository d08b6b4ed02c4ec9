import { describe, expect, it } from 'vitest';
import { describeRequest, parseReportRequest, REPORT_MESSAGES, reportColumns, reportRowOf } from './sales-reports';

const TODAY = '2026-11-24';
const parse = (query: string) => parseReportRequest(new URLSearchParams(query), TODAY);

describe('a report request', () => {
  it('reads the period, kind, products (repeated), filters and format', () => {
    expect(
      parse(
        'de=2026-01-01&ate=2026-03-31&tipo=apolices&produtos=res&produtos=VEU&produtos=RES&empresa=11.222.333/0001-81&pontoVenda=pv-0001&vendedor=7&formato=xlsx',
      ),
    ).toEqual({
      ok: true,
      value: {
        de: '2026-01-01',
        ate: '2026-03-31',
        tipo: 'apolices',
        produtos: ['RES', 'VEU'],
        empresa: '11222333000181',
        pontoVenda: 'PV-0001',
        vendedor: 7,
        formato: 'xlsx',
      },
    });
  });

  it.each([
    ['de=2026-03-01&ate=2026-02-01', { de: [REPORT_MESSAGES.reversed] }],
    ['de=2025-11-01&ate=2026-11-24', { ate: [REPORT_MESSAGES.span] }],
    ['de=2026-11-01&ate=2026-11-25', { ate: [REPORT_MESSAGES.future] }],
    ['de=2026-02-30&ate=x', { de: [REPORT_MESSAGES.de], ate: [REPORT_MESSAGES.ate] }],
  ])('refuses the period of %s', (period, errors) => {
    expect(parse(`${period}&tipo=apolices&formato=csv`)).toEqual({ ok: false, errors });
  });

  it('a year exactly, both ends included, is allowed', () => {
    expect(parse('de=2025-11-25&ate=2026-11-24&tipo=cotacoes&formato=csv')).toMatchObject({ ok: true });
  });

  it('names each other bad field', () => {
    expect(parse('de=2026-01-01&ate=2026-01-31&tipo=sinistros&produtos=XX&formato=pdf&empresa=abc&pontoVenda=<b>&vendedor=-1')).toEqual({
      ok: false,
      errors: {
        tipo: [REPORT_MESSAGES.tipo],
        produtos: [REPORT_MESSAGES.produto('XX')],
        formato: [REPORT_MESSAGES.formato],
        empresa: [REPORT_MESSAGES.empresa],
        pontoVenda: [REPORT_MESSAGES.pontoVenda],
        vendedor: [REPORT_MESSAGES.vendedor],
      },
    });
  });

  it('is described in words for the list', () => {
    const parsed = parse('de=2026-01-01&ate=2026-03-31&tipo=canceladas&produtos=RES&formato=csv&vendedor=7');
    if (!parsed.ok) throw new Error('bad');
    expect(describeRequest(parsed.value, { vendedor: 'Igor Pereira' })).toBe(
      'Apólices canceladas de 01/01/2026 a 31/03/2026 · Residencial · Igor Pereira',
    );
  });
});

describe('a report row', () => {
  const row = reportRowOf(
    {
      numero: '011420260000040',
      data: new Date('2026-04-01T02:30:00Z'),
      simulator_code: 'RES',
      situacao: 'CANCELADA',
      nome_segurado: 'Marina Costa Alves',
      documento_segurado: '27418596391',
      empresa: 'Horizonte Seguros',
      ponto_venda: null,
      vendedor: 'Eduarda Lima',
      premio_liquido: 123_456,
      premio_total: 132_599,
      forma_pagamento: 'pix',
      cancelada_em: '2026-05-05',
    },
    'canceladas',
  );

  it('is in words, the date in Brasília and the document masked', () => {
    const csv = reportColumns('canceladas').map(([, cell]) => cell(row));
    expect(csv).toEqual([
      '011420260000040',
      '31/03/2026 23:30',
      'Residencial',
      'Cancelada',
      'Marina Costa Alves',
      '***.185.963-**',
      'Horizonte Seguros',
      '',
      'Eduarda Lima',
      '1234,56',
      '1325,99',
      'Pix (à vista)',
      '05/05/2026',
    ]);
  });

  it('is typed in a spreadsheet: a date cell at Brasília’s clock, money as a number in R$', () => {
    const cells = reportColumns('canceladas').map(([, , cell]) => cell(row));
    expect(cells[1]).toEqual({ value: new Date('2026-03-31T23:30:00Z'), type: Date, format: 'dd/mm/yyyy hh:mm' });
    expect(cells[9]).toEqual({ value: 1234.56, type: Number, format: '"R$" #,##0.00' });
    expect(cells[7]).toEqual({ value: '', type: String });
    expect(cells[12]).toMatchObject({ type: Date, format: 'dd/mm/yyyy' });
  });
});
