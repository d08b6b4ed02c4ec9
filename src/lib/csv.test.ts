import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSheet } from 'read-excel-file/node';
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { CSV_OPTIONS, isFragileDigits, TEXT_MARK } from './csv';

/** Decision 058: every CSV keeps digit identifiers as text in a spreadsheet, formulas still escaped. */
const roundTrip = (cells: string[]) => {
  const text = stringify([cells], CSV_OPTIONS);
  const [record] = parse(text.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
  return { text, record: record! };
};

/** What a spreadsheet's type detection does with a cell: digits (a number), else text as it is. */
const typed = (cell: string): number | string => (/^\d+$/.test(cell) ? Number(cell) : cell);

describe('the portal CSV', () => {
  it.each([
    ['011420260000108', true],
    ['01310100', true],
    ['33444555000181', true], // 14 digits: 3,34E+13 in a General cell
    ['114202600001080', true],
    ['0', false],
    ['2026', false],
    ['12345678901', false],
    ['1234,56', false],
    ['***.185.963-**', false],
    ['', false],
  ])('%s is fragile in a spreadsheet: %s', (value, fragile) => {
    expect(isFragileDigits(value)).toBe(fragile);
  });

  it('writes a policy number with a leading zero so it reads back as the same text, not a number', () => {
    const { text, record } = roundTrip(['011420260000108', '2026', '1234,56', 'Marina']);
    expect(text).toBe(`\uFEFF"011420260000108${TEXT_MARK}";2026;1234,56;Marina\r\n`);
    // Parsed back, the cell is the digits and the tab: never a bare digit string a spreadsheet types.
    expect(record[0]).toBe(`011420260000108${TEXT_MARK}`);
    expect(typed(record[0]!)).toBe(`011420260000108${TEXT_MARK}`);
    expect(record[0]!.trim()).toBe('011420260000108');
    // Short numbers and money stay what they are.
    expect(typed(record[1]!)).toBe(2026);
    expect(record[2]).toBe('1234,56');
  });

  it('still escapes formulas, and a formula made of digits gets no tab', () => {
    const { record } = roundTrip(['=HYPERLINK("http://x.test")', '+5511987654321', '-0114', '@SUM(A1)']);
    expect(record).toEqual(['\'=HYPERLINK("http://x.test")', "'+5511987654321", "'-0114", "'@SUM(A1)"]);
  });
});

/** LibreOffice, where installed (`apt-get install libreoffice-calc-nogui`): the file opened as a user would. */
const soffice = (() => {
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(soffice)('the portal CSV opened in LibreOffice Calc', () => {
  it('keeps the marked digits as a text cell without the tab, and types the bare ones as numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-csv-'));
    const file = join(dir, 'apolices.csv');
    // A bare copy written without the portal's options is the control: LibreOffice drops its zero.
    const bare = stringify([['011420260000108']], { delimiter: ';' }).trimEnd();
    writeFileSync(file, `${stringify([['Apólice'], ['011420260000108'], ['33444555000181']], CSV_OPTIONS)}${bare}\r\n`);
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/perfil`,
        '--headless',
        '--infilter=CSV:59,34,76,1',
        '--convert-to',
        'xlsx',
        '--outdir',
        dir,
        file,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const rows = await readSheet(readFileSync(join(dir, 'apolices.xlsx')));
    expect(rows.map((r) => r[0])).toEqual(['Apólice', '011420260000108', '33444555000181', 11420260000108]);
  }, 150_000);
});
