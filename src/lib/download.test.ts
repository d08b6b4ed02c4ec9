import { describe, expect, it } from 'vitest';
import { contentDisposition } from './download';

describe('content-disposition', () => {
  it.each([
    ['laudo.pdf', `attachment; filename="laudo.pdf"; filename*=UTF-8''laudo.pdf`],
    ['Comprovante março.pdf', `attachment; filename="Comprovante marco.pdf"; filename*=UTF-8''Comprovante%20mar%C3%A7o.pdf`],
    ['a"b;c.pdf', `attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%3Bc.pdf`],
    ["o'brien (1).pdf", `attachment; filename="o'brien (1).pdf"; filename*=UTF-8''o%27brien%20%281%29.pdf`],
  ])('%j', (name, header) => expect(contentDisposition(name)).toBe(header));

  it('shows in place what the portal renders itself', () => {
    expect(contentDisposition('apólice-1.pdf', 'inline')).toBe(`inline; filename="apolice-1.pdf"; filename*=UTF-8''ap%C3%B3lice-1.pdf`);
  });
});
