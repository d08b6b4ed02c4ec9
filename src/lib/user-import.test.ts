import { describe, expect, it } from 'vitest';
import { isValidCpf } from './validators';
import {
  decodeCsv,
  delimiterOf,
  duplicatesInFile,
  IMPORT_MESSAGES,
  isFormula,
  readHeader,
  readRow,
  templatePerson,
  templateRows,
  type ImportRow,
} from './user-import';

describe('the file', () => {
  it('decodes UTF-8 (with or without BOM) and falls back to Windows-1252', () => {
    expect(decodeCsv(new TextEncoder().encode('\uFEFFJosé')).text).toBe('José');
    expect(decodeCsv(Uint8Array.from([0x4a, 0x6f, 0x73, 0xe9]))).toEqual({ text: 'José', encoding: 'windows-1252' });
  });

  it('takes the header’s delimiter: ; unless it has only commas', () => {
    expect(delimiterOf('nome;email\nA, B;x')).toBe(';');
    expect(delimiterOf('nome,email\nA;B,x')).toBe(',');
    expect(delimiterOf('nome')).toBe(';');
  });

  it('reads the header in any case and accent, naming what is missing or unknown', () => {
    const { index, problems } = readHeader('v1', ['Nome', 'E-mail', 'CPF', 'Empresa', 'Grupos']);
    expect(problems).toEqual(['Faltam as colunas: email. Use o modelo desta página.', 'Colunas desconhecidas: E-mail.']);
    expect(index.get('cpf')).toBe(2);
    expect(readHeader('v1', ['nome', 'email', 'cpf', 'empresa', 'grupos', 'Situação']).problems).toEqual([]);
  });

  it('the template’s sample people have valid CPFs of their own', () => {
    const people = Array.from({ length: 10 }, (_, n) => templatePerson(n));
    expect(people[0]).toEqual({ cpf: '935.411.347-80', email: 'maria.silva@exemplo.com.br' });
    expect(people.every((p) => isValidCpf(p.cpf.replace(/\D/g, '')))).toBe(true);
    expect(new Set(people.map((p) => p.cpf)).size).toBe(10);
    expect(new Set(people.map((p) => p.email)).size).toBe(10);
  });

  it('the template’s header is the columns, and its example line is a valid row', () => {
    for (const generation of ['v1', 'v2'] as const) {
      const [header, example] = templateRows(generation);
      const { index, problems } = readHeader(generation, header!);
      expect(problems).toEqual([]);
      expect(readRow(generation, example!, index, 2).problems).toEqual([]);
    }
  });
});

describe('a row', () => {
  const { index } = readHeader('v1', ['nome', 'email', 'cpf', 'empresa', 'grupos', 'situacao']);

  it('is read into the form’s input: lists split by |, a blank status is ativo and says so (an existing user keeps theirs)', () => {
    const read = readRow(
      'v1',
      ['Lívia Souza', 'Livia@Exemplo.com', '529.982.247-25', '11.222.333/0001-81', 'VENDEDOR | CONSULTOR', ''],
      index,
      2,
    );
    expect(read.row).toEqual({
      generation: 'v1',
      line: 2,
      input: {
        nome: 'Lívia Souza',
        email: 'livia@exemplo.com',
        cpf: '52998224725',
        empresa: '11222333000181',
        grupos: ['VENDEDOR', 'CONSULTOR'],
        status: 'ativo',
      },
      keepStatus: true,
    });
    const given = readRow('v1', ['Lívia Souza', 'livia@exemplo.com', '529.982.247-25', '', 'VENDEDOR', 'Bloqueado'], index, 3);
    expect(given.row).toMatchObject({ input: { status: 'bloqueado' }, keepStatus: false });
  });

  it('is refused by column with the form’s messages', () => {
    const read = readRow('v1', ['Lívia', 'x', '123', '', 'VENDEDOR', 'apagado'], index, 7);
    expect(read.problems.map((p) => [p.line, p.column])).toEqual([
      [7, 'nome'],
      [7, 'email'],
      [7, 'cpf'],
      [7, 'situacao'],
    ]);
  });

  it('refuses a spreadsheet formula in any cell', () => {
    expect(['=1+1', '+55', '-2', '@SUM(A1)', '\tx'].every(isFormula)).toBe(true);
    expect(isFormula('(11) 98765-4321')).toBe(false);
    const read = readRow('v1', ['=HYPERLINK("http://x")', 'a@b.com', '529.982.247-25', '11222333000181', 'VENDEDOR', ''], index, 3);
    expect(read.problems).toEqual([{ line: 3, column: 'nome', message: IMPORT_MESSAGES.formula }]);
  });

  it('names the first line of an e-mail or CPF repeated in the file', () => {
    const row = (line: number, email: string, cpf: string): ImportRow => ({
      generation: 'v1',
      line,
      input: { nome: 'A B', email, cpf, empresa: '', grupos: [], status: 'ativo' },
    });
    expect(duplicatesInFile([row(2, 'a@b.com', '1'), row(3, 'c@d.com', '2'), row(4, 'a@b.com', '2')])).toEqual([
      { line: 4, column: 'email', message: 'E-mail repetido no arquivo (já aparece na linha 2).' },
      { line: 4, column: 'cpf', message: 'CPF repetido no arquivo (já aparece na linha 3).' },
    ]);
  });
});
