import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import {
  commissionOf,
  csvMoney,
  installmentNetPremium,
  isClosedMonth,
  monthBalances,
  monthBounds,
  monthLabel,
  monthOf,
  nextMonth,
  parseMoneyText,
  parseStatementQuery,
  previousMonth,
  rateText,
  STATEMENT_CSV_OPTIONS,
  statementCsvRecord,
} from './commissions';

describe('the commission of an installment, in cents', () => {
  it.each([
    // installment, net at sale, total at sale → the installment's net premium
    [13_005, 48_070, 52_018, 12_018], // 13005 × 48070 / 52018 = 12017,85… → 12018
    [52_018, 48_070, 52_018, 48_070], // paid at once: the whole net premium
    [1, 1, 2, 1], // half a cent rounds up
    [3, 1, 2, 2], // 1,5 → 2
    [10_000, 0, 10_000, 0],
    [10_000, 9_000, 0, 0], // a sale with no total gives no premium (never a division by zero)
  ])('installment %i of a sale of net %i and total %i holds %i of net premium', (installment, net, total, expected) => {
    expect(installmentNetPremium(installment, net, total)).toBe(expected);
  });

  it.each([
    [12_018, 2000, 2404], // 20 % of 120,18 = 24,036 → 24,04
    [12_345, 1250, 1543], // 12,5 % of 123,45 = 15,43125 → 15,43
    [250, 2000, 50],
    [25, 2000, 5],
    [5, 1000, 1], // 0,5 cent → 1 cent (half up)
    [4, 1000, 0], // 0,4 cent → 0
    [0, 2000, 0],
  ])('%i of net premium at %i hundredths of a percent is a commission of %i', (net, rate, expected) => {
    expect(commissionOf(net, rate)).toBe(expected);
  });

  it('shows the rate as the disclosure does', () => {
    expect(rateText(2000)).toBe('20 %');
    expect(rateText(1250)).toBe('12,5 %');
  });
});

describe('months in America/Sao_Paulo', () => {
  it.each([
    ['2026-04-01T02:59:59Z', '2026-03'], // 23:59:59 of 31/03 in Brasília
    ['2026-04-01T03:00:00Z', '2026-04'], // midnight of 01/04 in Brasília
    ['2026-12-31T23:00:00-03:00', '2026-12'],
    ['2027-01-01T02:30:00Z', '2026-12'], // New Year's Eve in Brasília, already 2027 in UTC
  ])('%s belongs to %s', (instant, month) => {
    expect(monthOf(new Date(instant))).toBe(month);
  });

  it('spans a month from Brasília midnight to Brasília midnight', () => {
    expect(monthBounds('2026-03')).toEqual({ start: new Date('2026-03-01T03:00:00Z'), end: new Date('2026-04-01T03:00:00Z') });
    expect(monthBounds('2026-12').end).toEqual(new Date('2027-01-01T03:00:00Z'));
  });

  it('steps over years', () => {
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(nextMonth('2026-09')).toBe('2026-10');
  });

  it('closes a month on the 1st of the next, Brasília time', () => {
    expect(isClosedMonth('2026-03', '2026-03-31')).toBe(false);
    expect(isClosedMonth('2026-03', '2026-04-01')).toBe(true);
    expect(isClosedMonth('2026-12', '2027-01-01')).toBe(true);
    expect(isClosedMonth('2026-04', '2026-04-15')).toBe(false);
  });

  it('names months in Portuguese', () => {
    expect(monthLabel('2026-03')).toBe('março de 2026');
  });
});

describe('monthBalances: clawbacks set against commissions, a negative month carried on', () => {
  it('carries a negative balance until commissions cover it', () => {
    const result = monthBalances([
      { month: '2026-03', commissions: 5_000, clawbacks: 8_000 },
      { month: '2026-01', commissions: 10_000, clawbacks: 0 },
      { month: '2026-04', commissions: 2_000, clawbacks: 0 },
      { month: '2026-05', commissions: 4_000, clawbacks: 500 },
    ]);
    expect(result.map((m) => [m.month, m.balance, m.carriedIn, m.payable, m.carriedOut])).toEqual([
      ['2026-01', 10_000, 0, 10_000, 0],
      ['2026-03', -3_000, 0, 0, -3_000],
      ['2026-04', 2_000, -3_000, 0, -1_000],
      ['2026-05', 3_500, -1_000, 2_500, 0],
    ]);
  });

  it('never pays more than was earned in all', () => {
    const months = [
      { month: '2026-01', commissions: 1_234, clawbacks: 0 },
      { month: '2026-02', commissions: 0, clawbacks: 2_000 },
      { month: '2026-03', commissions: 5_000, clawbacks: 100 },
    ];
    const balances = monthBalances(months);
    const paid = balances.reduce((sum, m) => sum + m.payable, 0);
    // Nothing left to carry: what was paid is every commission less every clawback, no more.
    expect(balances.at(-1)!.carriedOut).toBe(0);
    expect(paid).toBe(1_234 + 5_000 - 2_000 - 100);
    expect(balances.map((m) => m.payable)).toEqual([1_234, 0, 2_900]);
  });
});

describe('reading the statement and money', () => {
  it.each([
    ['1.234,56', 123_456],
    ['R$ 1.234,56', 123_456],
    ['1234,5', 123_450],
    ['1234', 123_400],
    ['0,01', 1],
    [' 24,04 ', 2_404],
  ])('%s is %i cents', (text, cents) => {
    expect(parseMoneyText(text)).toBe(cents);
  });

  it.each(['', 'abc', '1,234.56', '12,345', '-10,00', '1.23,00', '=1+1'])('%s is not money', (text) => {
    expect(parseMoneyText(text)).toBeUndefined();
  });

  it('writes money as a pt-BR spreadsheet reads it', () => {
    expect(csvMoney(123_456)).toBe('1234,56');
    expect(csvMoney(-1_230)).toBe('-12,30');
    expect(csvMoney(5)).toBe('0,05');
  });

  it('refuses a malformed or future month and a bad company, in pt-BR', () => {
    expect(parseStatementQuery({ competencia: '2026-13' }, '2026-05-10')).toEqual({
      ok: false,
      errors: { competencia: ['Competência inválida: use o formato AAAA-MM (por exemplo 2026-03).'] },
    });
    expect(parseStatementQuery({ competencia: '2026-06' }, '2026-05-10')).toEqual({
      ok: false,
      errors: { competencia: ['A competência não pode ser posterior ao mês atual.'] },
    });
    expect(parseStatementQuery({ empresa: '123' }, '2026-05-10').ok).toBe(false);
    expect(parseStatementQuery({ empresa: '11.222.333/0001-81', competencia: '2026-05', page: '2' }, '2026-05-10')).toEqual({
      ok: true,
      filters: { empresa: '11222333000181', competencia: '2026-05' },
      page: 2,
    });
  });
});

describe('the statement as CSV', () => {
  it('is UTF-8 with BOM, ; between cells, positive amounts in their own columns and formulas kept as text', () => {
    const csv = stringify(
      [
        statementCsvRecord({
          tipo: 'Comissão',
          data: '10/03/2026',
          nrApolice: '011420260000001',
          segurado: '=HYPERLINK("http://x")',
          produto: 'Residencial',
          parcela: '1/4',
          valorParcela: 13_005,
          premioLiquido: 12_018,
          taxa: 1250,
          comissao: 1_502,
          estorno: null,
        }),
        statementCsvRecord({
          tipo: 'Estorno',
          data: '05/05/2026',
          nrApolice: '011420260000002',
          segurado: 'Ana',
          produto: 'Residencial',
          parcela: '',
          valorParcela: null,
          premioLiquido: null,
          taxa: null,
          comissao: null,
          estorno: 7_260,
        }),
      ],
      { ...STATEMENT_CSV_OPTIONS, columns: [...STATEMENT_CSV_OPTIONS.columns] },
    );
    expect(csv.split('\r\n')).toEqual([
      '\ufeffTipo;Data;Apólice;Segurado;Produto;Parcela;Valor da parcela;Prêmio líquido;Comissão (%);Comissão;Estorno',
      // A policy number keeps its leading zero in a spreadsheet: quoted, with a tab after it (decision 058).
      `Comissão;10/03/2026;"011420260000001\t";"'=HYPERLINK(""http://x"")";Residencial;1/4;130,05;120,18;12,5;15,02;`,
      'Estorno;05/05/2026;"011420260000002\t";Ana;Residencial;;;;;;72,60',
      '',
    ]);
  });
});
