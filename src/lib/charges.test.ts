import { describe, expect, it } from 'vitest';
import { getBoletoInfo, getPixPayloadInfo, isValidBoleto, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { chargeCodes, lateAmount, pixTxid } from './charges';

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) as the BR Code manual defines it. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

describe('lateAmount: 2 % fine and 1 % a month pro rata by day', () => {
  it.each([
    ['on the due day', '2026-12-10', { days: 0, fine: 0, interest: 0, total: 100_000 }],
    ['a day late', '2026-12-11', { days: 1, fine: 2_000, interest: 33, total: 102_033 }],
    ['30 days late', '2027-01-09', { days: 30, fine: 2_000, interest: 1_000, total: 103_000 }],
    ['paid early', '2026-12-01', { days: 0, fine: 0, interest: 0, total: 100_000 }],
  ])('%s', (_, paidOn, expected) => expect(lateAmount(100_000, '2026-12-10', paidOn)).toEqual(expected));
});

describe('chargeCodes: boleto with Pix of one installment', () => {
  const codes = chargeCodes(42, 253_56, '2026-12-10', 'Parcela 1 apolice 011420260000001');

  it('a valid boleto carrying the amount, due date and the charge in its free field', () => {
    expect(isValidBoleto(codes.linhaDigitavel)).toBe(true);
    const info = getBoletoInfo(codes.linhaDigitavel, { referenceDate: new Date('2026-11-23T12:00:00Z') })!;
    expect(info).toMatchObject({ amount: 253_56, bankCode: '001' });
    expect(info.expirationDate?.toISOString().slice(0, 10)).toBe('2026-12-10');
    expect(codes.barcode.slice(19)).toBe('3128557000000000000000420');
  });

  it('a valid Pix BR Code with the amount and the charge’s txid, its CRC16 over the rest', () => {
    expect(isValidPixPayload(codes.pixCopiaECola)).toBe(true);
    expect(getPixPayloadInfo(codes.pixCopiaECola)).toMatchObject({ amount: 253.56, txid: pixTxid(42) });
    expect(codes.pixCopiaECola.slice(-4)).toBe(crc16(codes.pixCopiaECola.slice(0, -4)));
    expect(codes.pixCopiaECola.slice(-8, -4)).toBe('6304');
  });
});
