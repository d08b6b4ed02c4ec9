import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  boletoGone,
  boletoOffer,
  csvAmount,
  csvHref,
  csvRecord,
  isBlankSearch,
  lastDayOfPeriod,
  monthOf,
  parsePaymentSearch,
  parsePeriodQuery,
  PERIOD_MESSAGES,
  periodBounds,
  reportPageHref,
  reportTotals,
  type BoletoOffer,
} from './payments';
import { FILTER_MESSAGES } from './policies';

describe('the lookups’ search', () => {
  it.each([
    [{}, { ok: true, filters: {}, page: 1 }],
    [
      { nrApolice: ' ', segurado: '' },
      { ok: true, filters: {}, page: 1 },
    ],
    [
      { nrApolice: '011420260000001', page: '2' },
      { ok: true, filters: { nrApolice: '011420260000001' }, page: 2 },
    ],
    [{ segurado: '274.185.963-91' }, { ok: true, filters: { segurado: '27418596391' }, page: 1 }],
    [{ segurado: 'Marina' }, { ok: true, filters: { segurado: 'Marina' }, page: 1 }],
    [{ nrApolice: '12a' }, { ok: false, errors: { nrApolice: [FILTER_MESSAGES.nrApolice] } }],
    [{ segurado: 'ab' }, { ok: false, errors: { segurado: [FILTER_MESSAGES.segurado] } }],
    [{ page: '0' }, { ok: false, errors: { page: [FILTER_MESSAGES.page] } }],
  ])('%j → %j', (query, expected) => {
    expect(parsePaymentSearch(query)).toEqual(expected);
  });

  it('is blank until a policy or an insured is asked for', () => {
    expect(isBlankSearch({})).toBe(true);
    expect(isBlankSearch({ segurado: 'Marina' })).toBe(false);
  });
});

describe('what /v2/boleto offers', () => {
  const TODAY = '2026-12-15';
  const charge = (vencimento: string) => ({ vencimento });
  it.each<[string, Parameters<typeof boletoOffer>[0], BoletoOffer | undefined]>([
    ['open boleto', { status: 'ABERTA', formaPagamento: 'boleto', charge: null }, 'pagina-da-apolice'],
    ['open Pix', { status: 'ABERTA', formaPagamento: 'pix', charge: charge('2026-12-20') }, 'pagina-da-apolice'],
    ['overdue, first charge', { status: 'VENCIDA', formaPagamento: 'boleto', charge: charge('2026-12-10') }, 'segunda-via'],
    ['overdue, no charge yet', { status: 'VENCIDA', formaPagamento: 'boleto', charge: null }, 'segunda-via'],
    ['overdue, 2ª via due today', { status: 'VENCIDA', formaPagamento: 'boleto', charge: charge(TODAY) }, 'segunda-via-emitida'],
    ['card', { status: 'VENCIDA', formaPagamento: 'cartao', charge: null }, 'sem-boleto'],
    ['paid', { status: 'PAGA', formaPagamento: 'boleto', charge: null }, undefined],
    ['cancelled', { status: 'CANCELADA', formaPagamento: 'boleto', charge: null }, undefined],
  ])('%s', (_, installment, offer) => {
    expect(boletoOffer(installment, TODAY)).toBe(offer);
  });
});

describe('a boleto no longer there to pay says why (issue 27 item 12)', () => {
  const installment = (status: 'ABERTA' | 'VENCIDA' | 'PAGA' | 'CANCELADA', extra = {}) => ({
    numero: 2,
    status,
    pagaEm: null,
    valorPago: null,
    ...extra,
  });
  it.each([
    [
      'paid: when, with what, and the policy',
      'v2',
      installment('PAGA', { pagaEm: '2026-12-05T17:00:00.000Z', valorPago: 39_547 }),
      'boleto',
      {
        heading: 'Parcela paga em 05/12/2026',
        detail: 'A 2ª parcela da apólice 011420260000108 já foi paga (R$ 395,47): não há boleto a pagar.',
        link: { href: '/v2/apolices/011420260000108', label: 'Ver a apólice nº 011420260000108' },
      },
    ],
    [
      'cancelled, legacy',
      'v1',
      installment('CANCELADA'),
      'pix',
      { heading: 'Parcela cancelada', link: { href: '/apolices/011420260000108', label: 'Ver a apólice nº 011420260000108' } },
    ],
    [
      'overdue without a payable charge: the 2ª via',
      'v2',
      installment('VENCIDA'),
      'boleto',
      { heading: 'Boleto vencido', detail: expect.stringContaining('2ª via') },
    ],
  ] as const)('%s', (_, generation, i, method, expected) =>
    expect(boletoGone(generation, '011420260000108', i, method)).toMatchObject(expected),
  );

  it.each([
    ['an open installment (its PDF is there)', installment('ABERTA'), 'boleto'],
    ['a card policy: never a boleto', installment('PAGA'), 'cartao'],
  ] as const)('%s: the 404 page', (_, i, method) => expect(boletoGone('v2', '011420260000108', i, method)).toBeUndefined());
});

describe('the report’s period', () => {
  const TODAY = '2026-11-23';
  it.each([
    [{}, { de: '2026-11-01', ate: '2026-11-30' }],
    [
      { de: '', ate: ' ' },
      { de: '2026-11-01', ate: '2026-11-30' },
    ],
    [
      { de: '2026-01-01', ate: '2026-12-31' },
      { de: '2026-01-01', ate: '2026-12-31' },
    ],
    [{ de: '2026-11-10' }, { de: '2026-11-10', ate: '2026-11-30' }],
    [
      { de: '2026-05-05', ate: '2026-05-05' },
      { de: '2026-05-05', ate: '2026-05-05' },
    ],
  ])('%j is the period %j', (query, period) => {
    expect(parsePeriodQuery(query, TODAY)).toEqual({ ok: true, filters: period, page: 1 });
  });

  it.each([
    [{ de: '2026-02-30' }, { de: [PERIOD_MESSAGES.date] }],
    [{ ate: 'ontem' }, { ate: [PERIOD_MESSAGES.date] }],
    [{ de: '2026-11-10', ate: '2026-11-09' }, { ate: [PERIOD_MESSAGES.order] }],
    [{ de: '2026-01-01', ate: '2027-01-01' }, { ate: [PERIOD_MESSAGES.tooLong] }],
    [{ de: '2025-01-01' }, { ate: [PERIOD_MESSAGES.tooLong] }],
    [{ page: 'x' }, { page: [PERIOD_MESSAGES.page] }],
  ])('%j is refused: %j', (query, errors) => {
    expect(parsePeriodQuery(query, TODAY)).toEqual({ ok: false, errors });
  });

  it.each([
    ['2026-11-23', { de: '2026-11-01', ate: '2026-11-30' }],
    ['2028-02-10', { de: '2028-02-01', ate: '2028-02-29' }],
    ['2026-12-31', { de: '2026-12-01', ate: '2026-12-31' }],
  ])('the month of %s', (today, month) => expect(monthOf(today)).toEqual(month));

  it.each([
    ['2026-01-01', '2026-12-31'],
    ['2026-03-15', '2027-03-14'],
    ['2028-02-29', '2029-02-27'],
  ])('a period from %s ends at the latest on %s', (de, last) => expect(lastDayOfPeriod(de)).toBe(last));

  it('covers its days in Brasília (UTC−3)', () => {
    expect(periodBounds({ de: '2026-12-01', ate: '2026-12-31' })).toEqual({
      from: new Date('2026-12-01T03:00:00Z'),
      to: new Date('2027-01-01T03:00:00Z'),
    });
  });
});

describe('totals and the CSV’s cells', () => {
  it('totals per product, by name, and in all', () => {
    expect(
      reportTotals([
        { productName: 'Vida', count: 2, amount: 300_00 },
        { productName: 'Empresarial', count: 1, amount: 1_234_56 },
      ]),
    ).toEqual({
      products: [
        { productName: 'Empresarial', count: 1, amount: 1_234_56 },
        { productName: 'Vida', count: 2, amount: 300_00 },
      ],
      total: { count: 3, amount: 1_534_56 },
    });
    expect(reportTotals([])).toEqual({ products: [], total: { count: 0, amount: 0 } });
  });

  it.each([
    [1_234_56, '1234,56'],
    [5, '0,05'],
    [100_00, '100,00'],
    [0, '0,00'],
    [1_000_000_00, '1000000,00'],
  ])('%i cents are "%s"', (cents, text) => expect(csvAmount(cents)).toBe(text));

  it('a payment is one record of pt-BR cells', () => {
    expect(
      csvRecord({
        pagoEm: '2026-12-01T02:30:00.000Z', // 30/11 23:30 in Brasília
        nrApolice: '011420260000001',
        productName: 'Residencial',
        nomeSegurado: 'Marina Costa Alves',
        documentoSegurado: '***.185.963-**',
        numero: 2,
        parcelas: 4,
        valor: 98_76,
        meio: 'PIX',
      }),
    ).toEqual(['30/11/2026', '011420260000001', 'Residencial', 'Marina Costa Alves', '***.185.963-**', '2 de 4', '98,76', 'Pix']);
  });

  it('the export’s address carries the period', () => {
    expect(csvHref({ de: '2026-11-01', ate: '2026-11-30' })).toBe('/relatorio-pagamento/exportar.csv?de=2026-11-01&ate=2026-11-30');
  });

  it('a page’s link keeps the period, and past page 1 its number and cursor', () => {
    const period = { de: '2026-01-01', ate: '2026-06-30' };
    expect(reportPageHref(period, { page: 1 })).toBe('/relatorio-pagamento?de=2026-01-01&ate=2026-06-30');
    expect(reportPageHref(period, { page: 7, cursor: 'YS4wLjIwMjYtMDEtMDFUMDA6MDA6MDAuMDAwMDAwWi4x' })).toBe(
      '/relatorio-pagamento?de=2026-01-01&ate=2026-06-30&page=7&cursor=YS4wLjIwMjYtMDEtMDFUMDA6MDA6MDAuMDAwMDAwWi4x',
    );
  });
});

describe('any address', () => {
  // The pages answer a field error (a 400), never a 500: no query makes the readers throw.
  const query = fc.dictionary(fc.constantFrom('nrApolice', 'segurado', 'de', 'ate', 'page', 'outro'), fc.string({ maxLength: 30 }));
  it('is read or refused, never thrown', () => {
    fc.assert(
      fc.property(query, (q) => {
        const search = parsePaymentSearch(q);
        const period = parsePeriodQuery(q, '2026-11-23');
        expect(typeof search.ok).toBe('boolean');
        if (period.ok) expect(period.filters.de <= period.filters.ate).toBe(true);
      }),
    );
  });
});
