import { describe, expect, it } from 'vitest';
import { nfeXml, nfseAbrasfXml, nfseNacionalXml } from '../../tests/fixtures/nota-fiscal';
import {
  decisionsFor,
  NOTA_MESSAGES,
  notaAmountProblem,
  notaDecisionSchema,
  notaFileName,
  notaFileProblem,
  notaUploadQuerySchema,
  notaXmlProblem,
  readNotaXml,
} from './nota-fiscal';

const bytes = (text: string) => new TextEncoder().encode(text);
const CNPJ = '11222333000181';

describe('the XML of a nota', () => {
  it.each([
    [
      'an ABRASF NFS-e',
      nfseAbrasfXml({ valor: 123_456, cnpj: CNPJ }),
      { kind: 'NFS-e', amount: 123_456, issuerCnpj: CNPJ, number: '2026000123' },
    ],
    ['a national NFS-e', nfseNacionalXml({ valor: 2_404, cnpj: CNPJ }), { kind: 'NFS-e', amount: 2_404, issuerCnpj: CNPJ, number: '77' }],
    ['an NF-e', nfeXml({ valor: 10_000, cnpj: CNPJ }), { kind: 'NF-e', amount: 10_000, issuerCnpj: CNPJ, number: '4512' }],
    [
      'one with a BOM',
      `\ufeff${nfeXml({ valor: 10_050, cnpj: CNPJ })}`,
      { kind: 'NF-e', amount: 10_050, issuerCnpj: CNPJ, number: '4512' },
    ],
  ])('reads %s: its kind, amount, issuer and number', (_, xml, expected) => {
    expect(readNotaXml(bytes(xml))).toEqual({ ok: true, ...expected });
  });

  it.each([
    ['a tag left open', '<NFe><infNFe><vNF>10.00</vNF></NFe>'],
    ['tags crossed', '<NFe><a><b></a></b></NFe>'],
    ['two roots', '<NFe></NFe><NFe></NFe>'],
    ['text outside the root', 'lixo<NFe></NFe>'],
    ['an unquoted attribute', '<NFe versao=4.00></NFe>'],
    ['an unknown entity', '<NFe><x>&nbsp;</x></NFe>'],
    ['a lone ampersand', '<NFe><x>A & B</x></NFe>'],
    ['no element at all', '<?xml version="1.0"?>'],
    ['plain text', 'nota fiscal 123'],
    ['an empty file', ''],
    ['a comment never closed', '<NFe><!-- sem fim </NFe>'],
  ])('refuses %s as malformed', (_, xml) => {
    expect(readNotaXml(bytes(xml))).toEqual({ ok: false, message: expect.stringContaining('malformado') });
  });

  it('refuses a DTD or declared entities (no expansion, nothing fetched)', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE NFe [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><NFe>&b;</NFe>';
    expect(readNotaXml(bytes(bomb))).toEqual({ ok: false, message: 'XML com DTD ou entidades declaradas não é aceito.' });
  });

  it('refuses well-formed XML that is not a nota, and bytes that are not UTF-8', () => {
    expect(readNotaXml(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toEqual({
      ok: false,
      message: 'O XML não é de uma NF-e nem de uma NFS-e.',
    });
    expect(readNotaXml(new Uint8Array([0x3c, 0x4e, 0xff, 0xfe, 0x3e]))).toEqual({
      ok: false,
      message: 'O arquivo XML não é um texto UTF-8 válido.',
    });
  });

  it('holds the XML to the amount typed and to the company', () => {
    const xml = readNotaXml(bytes(nfseAbrasfXml({ valor: 123_456, cnpj: CNPJ })));
    if (!xml.ok) throw new Error('expected a nota');
    expect(notaXmlProblem(xml, { valor: 123_456, cnpj: CNPJ })).toBeUndefined();
    expect(notaXmlProblem(xml, { valor: 123_400, cnpj: CNPJ })).toBe(
      'O valor do XML (R$ 1.234,56) difere do valor informado (R$ 1.234,00).',
    );
    expect(notaXmlProblem(xml, { valor: 123_456, cnpj: '33444555000181' })).toBe('O CNPJ do emitente do XML não é o da empresa da nota.');
    expect(notaXmlProblem({ ok: true, kind: 'NFS-e' }, { valor: 1, cnpj: CNPJ })).toContain('não traz o valor');
  });
});

describe('the nota against the statement', () => {
  it.each([
    [24_04, 24_04, '2026-03', undefined],
    [24_05, 24_04, '2026-03', 'O valor da nota (R$ 24,05) difere do total do extrato de março de 2026 (R$ 24,04).'],
    [100, 0, '2026-03', 'Não há comissões a faturar em março de 2026: o saldo do mês é zero ou negativo.'],
  ])('an amount of %i against %i owed in %s', (amount, payable, month, problem) => {
    expect(notaAmountProblem(amount, payable, month)).toBe(problem);
  });
});

describe('the file and the form', () => {
  it.each([
    ['nota.pdf', 10, undefined],
    ['NOTA.XML', 10, undefined],
    ['nota.pdf', 0, NOTA_MESSAGES.empty],
    ['nota.pdf', 5 * 1024 * 1024 + 1, NOTA_MESSAGES.tooLarge],
    ['nota.png', 10, NOTA_MESSAGES.type],
    ['../nota.pdf', 10, 'O nome do arquivo não pode conter um caminho (/, \\ ou unidade como C:).'],
  ])('%s of %i bytes', (name, size, problem) => {
    expect(notaFileProblem(name, size)).toBe(problem);
  });

  it('names the file by what it is', () => {
    expect(notaFileName('nota março.xml', 'application/xml')).toBe('nota março.xml');
    expect(notaFileName('nota.xml', 'application/pdf')).toBe('nota.pdf');
  });

  it('reads the upload query in cents, refusing what is not a positive whole amount', () => {
    expect(
      notaUploadQuerySchema.safeParse({ empresa: '11.222.333/0001-81', competencia: '2026-03', numero: '123', valor: '2404' }).data,
    ).toEqual({
      empresa: CNPJ,
      competencia: '2026-03',
      numero: '123',
      valor: 2_404,
    });
    for (const valor of ['0', '-1', '24,04', '1e3', ''])
      expect(notaUploadQuerySchema.safeParse({ empresa: CNPJ, competencia: '2026-03', numero: '1', valor }).success).toBe(false);
  });

  it('asks a reason of a refusal', () => {
    expect(notaDecisionSchema.safeParse({ decisao: 'RECUSAR' }).success).toBe(false);
    expect(notaDecisionSchema.safeParse({ decisao: 'RECUSAR', motivo: 'Valor diverge do extrato' }).success).toBe(true);
    expect(notaDecisionSchema.safeParse({ decisao: 'APROVAR' }).success).toBe(true);
  });
});

describe('what the insurer may do to a nota, by its state', () => {
  it.each([
    ['ENVIADA', ['APROVAR', 'RECUSAR']],
    ['APROVADA', ['RECUSAR', 'PAGAR']],
    ['RECUSADA', []],
    ['PAGA', []],
  ] as const)('a nota %s takes %j', (status, decisions) => {
    expect(decisionsFor(status)).toEqual(decisions);
  });
});
