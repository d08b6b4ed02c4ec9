import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { pdfInfo, pdfPageTexts, pdfRectangles } from '../../../tests/fixtures/pdf';
import { barcodeOfLine, formatDigitableLine, interleaved2of5 } from '../../lib/boleto';
import { chargeCodes, nossoNumero } from '../../lib/charges';
import { BARCODE, barcodeBars, boletoPdfFileName, renderBoletoPdf, type BoletoDocument } from './boleto-pdf';

const flat = (text: string) => text.replace(/\s+/g, ' ');

// A 2ª via: R$ 345,00 with a 2 % fine (6,90) and 1 % a month for 7 days (0,80) → R$ 352,70.
const codes = chargeCodes(42, 35270, '2026-12-10', 'Parcela 2 apolice 011420260000001');
const secondCopy: BoletoDocument = {
  nrApolice: '011420260000001',
  installment: { number: 2, count: 4 },
  charge: {
    vencimento: '10/12/2026',
    valor: 34500,
    multa: 690,
    juros: 80,
    total: 35270,
    nossoNumero: nossoNumero(42),
    linhaDigitavel: codes.linhaDigitavel,
    barcode: codes.barcode,
    pixCopiaECola: codes.pixCopiaECola,
  },
  payer: { name: 'Mariana Alves Pereira', document: '529.982.247-25', address: 'Avenida Paulista, 1000 — Bela Vista, São Paulo/SP' },
  documentDate: '23/11/2026',
  issuedAt: '03/12/2026 09:15',
};
const firstCopy: BoletoDocument = {
  ...secondCopy,
  charge: {
    ...secondCopy.charge,
    multa: 0,
    juros: 0,
    total: 34500,
    ...(() => {
      const first = chargeCodes(41, 34500, '2026-12-10', 'Parcela 2');
      return { linhaDigitavel: first.linhaDigitavel, barcode: first.barcode, pixCopiaECola: first.pixCopiaECola };
    })(),
  },
};

describe('renderBoletoPdf', () => {
  it('lays out the ficha de compensação with the line at the top, the beneficiary, the payer and the 2ª via’s fine and interest', async () => {
    const bytes = await renderBoletoPdf(secondCopy);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const pages = await pdfPageTexts(bytes);
    expect(pages).toHaveLength(1);
    const text = flat(pages[0]!);
    const line = formatDigitableLine(codes.linhaDigitavel);
    expect(isValidBoleto(codes.linhaDigitavel)).toBe(true);
    expect(text).toContain(`Banco do Brasil 001-9 ${line}`);
    expect(text).toContain('Local de pagamento');
    expect(text).toContain('Vencimento 10/12/2026');
    expect(text).toContain('Seguradora Demo S.A. — CNPJ 12.345.678/0001-95');
    expect(text).toContain('Agência / Código do beneficiário 1234-5 / 3128557');
    expect(text).toContain('Data do documento');
    expect(text).toContain('23/11/2026');
    expect(text).toContain('00000000000000042');
    expect(text).toContain('011420260000001/2');
    expect(text).toContain('(=) Valor do documento R$ 345,00');
    expect(text).toContain('(+) Mora / Multa R$ 7,70');
    expect(text).toContain('(=) Valor cobrado R$ 352,70');
    expect(text).toContain('multa de 2 % e juros de 1 % ao mês, proporcionais aos dias de atraso');
    expect(text).toContain('2ª via: inclui multa de R$ 6,90 e juros de R$ 0,80.');
    expect(text).toContain('Mariana Alves Pereira — CPF/CNPJ 529.982.247-25');
    expect(text).toContain('Pix copia e cola');
    expect(flat(pages[0]!.replace(/\n/g, ''))).toContain(codes.pixCopiaECola);
    expect(text).toContain('Ficha de Compensação');
    expect(boletoPdfFileName('011420260000001', 2)).toBe('boleto-011420260000001-parcela-2.pdf');
    expect(await pdfInfo(bytes)).toMatchObject({ Title: 'Boleto da parcela 2/4 da apólice 011420260000001' });
  });

  it('leaves fine and amount charged blank on a first copy', async () => {
    const text = flat((await pdfPageTexts(await renderBoletoPdf(firstCopy)))[0]!);
    expect(text).not.toContain('2ª via: inclui');
    expect(text).toContain('(+) Mora / Multa (+) Outros acréscimos (=) Valor cobrado');
    expect(text).not.toContain('R$ 352,70');
  });

  it('draws the barcode as Interleaved 2 of 5 bars of lib/boleto’s widths, 0,72 pt narrow, 3× wide, 36 pt tall', async () => {
    const bars = pdfRectangles(await renderBoletoPdf(secondCopy)).filter((r) => Math.abs(r.height - BARCODE.height) < 0.01);
    const widths: number[] = [];
    bars.forEach((bar, index) => {
      const next = bars[index + 1];
      widths.push(bar.width / BARCODE.narrow);
      if (next) widths.push((next.x - bar.x - bar.width) / BARCODE.narrow);
    });
    expect(widths.map(Math.round)).toEqual(interleaved2of5(codes.barcode, 3));
    expect(barcodeOfLine(codes.linhaDigitavel)).toBe(codes.barcode);
    expect(barcodeBars(codes.barcode)).toHaveLength(bars.length);
  });

  it('draws the Pix QR code module for module as `qrcode` makes it', async () => {
    const { modules } = QRCode.create(codes.pixCopiaECola, { errorCorrectionLevel: 'M' });
    const rects = pdfRectangles(await renderBoletoPdf(secondCopy));
    // The QR code's runs are as tall as one module and square-cornered: the rectangles of that height.
    const cell = Math.min(...rects.filter((r) => r.height < 5 && r.height > 0.5).map((r) => r.height));
    const runs = rects.filter((r) => Math.abs(r.height - cell) < 0.001);
    const left = Math.min(...runs.map((r) => r.x));
    const top = Math.min(...runs.map((r) => r.y));
    const drawn = Array.from({ length: modules.size }, () => Array<number>(modules.size).fill(0));
    for (const run of runs) {
      const row = Math.round((run.y - top) / cell);
      const start = Math.round((run.x - left) / cell);
      for (let col = start; col < start + Math.round(run.width / cell); col++) drawn[row]![col] = 1;
    }
    const expected = Array.from({ length: modules.size }, (_, row) =>
      Array.from({ length: modules.size }, (_, col) => (modules.get(row, col) ? 1 : 0)),
    );
    expect(drawn).toEqual(expected);
  });

  it('refuses a line that is not 47 digits when reading the barcode back', () => {
    expect(() => barcodeOfLine('123')).toThrow(RangeError);
  });
});
