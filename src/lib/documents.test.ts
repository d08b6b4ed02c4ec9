import { describe, expect, it } from 'vitest';
import { displayName, DOCUMENT_MAX_BYTES, DOCUMENT_MESSAGES, nameProblem, parseDocumentQuery, sizeProblem } from './documents';

describe('a file name is refused', () => {
  it.each([
    ['empty', '   ', DOCUMENT_MESSAGES.missingName],
    ['going up a directory', '../x.pdf', DOCUMENT_MESSAGES.path],
    ['inside a directory', 'a/b.pdf', DOCUMENT_MESSAGES.path],
    ['a Windows path', 'C:\\x.pdf', DOCUMENT_MESSAGES.path],
    ['a Windows drive without a backslash', 'c:x.pdf', DOCUMENT_MESSAGES.path],
    ['a backslash alone', 'pasta\\x.pdf', DOCUMENT_MESSAGES.path],
    ['the parent directory itself', '..', DOCUMENT_MESSAGES.path],
    ['a NUL', 'x\u0000.pdf', DOCUMENT_MESSAGES.control],
    ['a newline (a header split)', 'x\n.pdf', DOCUMENT_MESSAGES.control],
    ['a C1 control', 'x\u0085.pdf', DOCUMENT_MESSAGES.control],
    ['a right-to-left override', 'nota\u202Efdp.exe', DOCUMENT_MESSAGES.control],
    ['too long', `${'a'.repeat(150)}.pdf`, DOCUMENT_MESSAGES.longName],
  ])('%s: %j', (_, name, message) => expect(nameProblem(name)).toBe(message));
});

describe('a file name is accepted', () => {
  it.each(['laudo.pdf', 'Comprovante de residência (março).jpeg', 'RG frente.PNG', 'a.b.c.pdf', 'sem-extensão', '📄 nota.pdf'])(
    '%j',
    (name) => expect(nameProblem(name)).toBeUndefined(),
  );
});

describe('sizes', () => {
  it.each([
    [0, DOCUMENT_MESSAGES.empty],
    [1, undefined],
    [DOCUMENT_MAX_BYTES, undefined],
    [DOCUMENT_MAX_BYTES + 1, DOCUMENT_MESSAGES.tooLarge],
  ])('%i bytes → %s', (bytes, message) => expect(sizeProblem(bytes)).toBe(message));
});

describe('the name shown takes the extension of what the content is', () => {
  it.each([
    ['laudo.pdf', 'application/pdf', 'laudo.pdf'],
    ['laudo.PDF', 'application/pdf', 'laudo.PDF'],
    ['foto.png', 'application/pdf', 'foto.pdf'],
    ['foto.jpeg', 'image/jpeg', 'foto.jpeg'],
    ['foto', 'image/png', 'foto.png'],
    ['  nota.fiscal.pdf ', 'application/pdf', 'nota.fiscal.pdf'],
    ['.pdf', 'application/pdf', '.pdf.pdf'],
  ] as const)('%j as %s → %j', (name, mime, shown) => expect(displayName(name, mime)).toBe(shown));
});

describe('the list filters', () => {
  it('reads good filters, blanks being no filter', () => {
    expect(
      parseDocumentQuery(
        new URLSearchParams('nrProposta=123&segurado=111.444.777-35&categoria=outro&de=2026-11-01&ate=2026-11-30&nrApolice='),
      ),
    ).toEqual({
      ok: true,
      page: 1,
      filters: {
        nrProposta: '123',
        segurado: '11144477735',
        categoria: 'OUTRO',
        de: '2026-11-01',
        ate: '2026-11-30',
        nrApolice: undefined,
      },
    });
  });

  it.each([
    ['nrProposta=12a', 'nrProposta'],
    ['nrApolice=x', 'nrApolice'],
    ['segurado=ab', 'segurado'],
    ['categoria=SELFIE', 'categoria'],
    ['de=2026-02-30', 'de'],
    ['de=2026-11-30&ate=2026-11-01', 'ate'],
    ['page=0', 'page'],
  ])('refuses %s with a message under %s', (query, field) => {
    const parsed = parseDocumentQuery(new URLSearchParams(query));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.errors)).toEqual([field]);
  });
});
