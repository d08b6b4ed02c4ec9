import { describe, expect, it } from 'vitest';
import { renderTemplate, TEMPLATE_SAMPLES, type TemplateName } from './templates';

/**
 * Issue 42 item 15: a name that ends in a dot ("… Ltda.") at the end of a sentence wrote "Ltda.." in
 * e-mails. Every template, with every text of its data ending in "Ltda.", reads one dot — and an
 * ellipsis, a link or an address keeps its dots.
 */
const COMPANY = 'Corretora Horizonte Seguros Ltda.';
const DOUBLE_DOT = /(?<!\.)\.\.(?!\.)/;

describe('e-mails never end a sentence with a second dot', () => {
  const names = Object.keys(TEMPLATE_SAMPLES) as TemplateName[];
  it.each(names)('%s', (name) => {
    const sample = TEMPLATE_SAMPLES[name].data as Record<string, unknown>;
    const data = Object.fromEntries(
      // Every text but links, addresses and codes (a template chooses its words by a code such as 'RESTITUICAO').
      Object.entries(sample).map(([key, value]) => [
        key,
        typeof value === 'string' && !/^https?:|@|^[A-Z_]+$/.test(value) ? COMPANY : value,
      ]),
    );
    const mail = renderTemplate(name, data as never);
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(DOUBLE_DOT);
    expect(`${mail.subject}${mail.text}`).toContain('Ltda');
  });

  it('keeps an ellipsis and the dots of a link', () => {
    const mail = renderTemplate('redefinir-senha', { nome: 'Ana...', link: 'https://portal.exemplo/a..b', validadeMinutos: 60 });
    expect(mail.text).toContain('Olá, Ana....');
    expect(mail.text).toContain('https://portal.exemplo/a..b');
  });
});
