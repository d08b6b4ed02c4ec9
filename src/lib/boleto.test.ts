import { describe, expect, it } from 'vitest';
import { getBoletoInfo, isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { barcode, digitableLine, dueFactor, formatDigitableLine, interleaved2of5, mod10, mod11 } from './boleto';

describe('the due-date factor', () => {
  it.each([
    ['2000-07-03', 1000],
    ['2018-07-15', 7586], // the BCB example slip below
    ['2025-02-21', 9999],
    ['2025-02-22', 1000], // FEBRABAN's reset
    ['2026-12-10', 1656],
  ])('%s → %i', (day, factor) => expect(dueFactor(day)).toBe(factor));
});

describe('check digits', () => {
  it('módulo 10 and 11 as the known slip has them', () => {
    // Fields and barcode of 00190.00009 01149.718601 68524.522114 6 75860000102656.
    expect(mod10('001900000')).toBe(9);
    expect(mod10('0114971860')).toBe(1);
    expect(mod10('6852452211')).toBe(4);
    expect(mod11('0019758600001026560000001149718606852452211')).toBe(6);
  });
});

describe('barcode and linha digitável', () => {
  const SAMPLE = { bank: '001', amountCents: 102656, dueDate: '2018-07-15', freeField: '0000001149718606852452211' };

  it('rebuilds the BCB example slip digit for digit', () => {
    const code = barcode(SAMPLE);
    expect(code).toBe('00196758600001026560000001149718606852452211');
    expect(digitableLine(code)).toBe('00190000090114971860168524522114675860000102656');
    expect(formatDigitableLine(digitableLine(code))).toBe('00190.00009 01149.718601 68524.522114 6 75860000102656');
  });

  it.each([
    ['before the reset', '2024-12-20', new Date('2024-12-01T12:00:00Z')],
    ['on the reset', '2025-02-22', new Date('2025-02-01T12:00:00Z')],
    ['after the reset', '2026-12-10', new Date('2026-11-23T12:00:00Z')],
  ])('a slip due %s (%s) validates and reads back its amount and due date', (_, dueDate, referenceDate) => {
    const line = digitableLine(barcode({ ...SAMPLE, amountCents: 253_56, dueDate, freeField: '1234567000000000000420001' }));
    expect(line).toHaveLength(47);
    expect(isValidBoleto(line)).toBe(true);
    const info = getBoletoInfo(line, { referenceDate })!;
    expect(info.amount).toBe(253_56);
    expect(info.bankCode).toBe('001');
    expect(info.expirationDate?.toISOString().slice(0, 10)).toBe(dueDate);
  });

  it('a digit mistyped in any of the three checked fields fails the library’s check', () => {
    const line = digitableLine(barcode({ ...SAMPLE, dueDate: '2026-12-10' }));
    for (const at of [6, 12, 25]) {
      const broken = `${line.slice(0, at)}${(Number(line[at]) + 1) % 10}${line.slice(at + 1)}`;
      expect(isValidBoleto(broken), `digit ${at}`).toBe(false);
    }
  });

  it('refuses what a slip cannot carry', () => {
    expect(() => barcode({ ...SAMPLE, freeField: '123' })).toThrow(RangeError);
    expect(() => barcode({ ...SAMPLE, amountCents: -1 })).toThrow(RangeError);
    expect(() => barcode({ ...SAMPLE, dueDate: '1999-01-01' })).toThrow(RangeError);
  });
});

describe('Interleaved 2 of 5', () => {
  it('draws start, five bars and five spaces per pair of digits, and stop', () => {
    const widths = interleaved2of5('00196758600001026560000001149718606852452211');
    expect(widths).toHaveLength(4 + 22 * 10 + 3);
    // "12": 1 → wide-narrow-narrow-narrow-wide bars, 2 → narrow-wide-narrow-narrow-wide spaces.
    expect(interleaved2of5('12', 3).slice(4, 14)).toEqual([3, 1, 1, 3, 1, 1, 1, 1, 3, 3]);
    expect(() => interleaved2of5('123')).toThrow(RangeError);
  });
});
