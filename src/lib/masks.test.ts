import { describe, expect, it } from 'vitest';
import IMask, { DIRECTION, type FactoryOpts, type Masked } from 'imask';
import {
  AREA_MASK,
  CNPJ_MASK,
  CPF_MASK,
  DOCUMENT_MASK,
  MASKS,
  MONEY_MASK,
  NUMBER_MASK,
  PERCENTAGE_MASK,
  PHONE_MASK,
  formatMoney,
  formatPastedDocument,
  parseMoney,
  pasteDocumentMask,
} from './masks';

/**
 * Types `text` one key at a time at the caret, as imask's InputMask does for each input event
 * (splice at the caret with the `input` and `raw` flags, then move the caret to the next input
 * position), so these tests see what a user sees in the field.
 */
function typeInto(masked: Masked, text: string, caret = masked.displayValue.length): number {
  let pos = caret;
  for (const ch of text) {
    const { offset } = masked.splice(pos, 0, ch, DIRECTION.NONE, { input: true, raw: true });
    pos = masked.nearestInputPos(pos + offset, DIRECTION.NONE);
  }
  return pos;
}

/** What the field shows after typing `text` and leaving it (blur commits the mask). */
function typed(options: FactoryOpts, text: string): { value: string; unmasked: string; whileTyping: string } {
  const masked = IMask.createMask(options);
  typeInto(masked, text);
  const whileTyping = masked.displayValue;
  masked.doCommit();
  return { value: masked.value, unmasked: masked.unmaskedValue, whileTyping };
}

/** A paste: the whole text arrives in one input event. */
function pasted(options: FactoryOpts, text: string): string {
  const masked = IMask.createMask(options);
  masked.splice(0, 0, text, DIRECTION.NONE, { input: true, raw: true });
  return masked.value;
}

/** Setting a value from code (a form reset, a value loaded from the API). */
function resolved(options: FactoryOpts, value: string): string {
  const masked = IMask.createMask(options);
  masked.resolve(value);
  return masked.value;
}

describe('money mask', () => {
  it.each([
    ['1234,56', 'R$ 1.234,56', 'R$ 1.234,56', '1234.56'],
    ['123456', 'R$ 123.456', 'R$ 123.456,00', '123456'],
    ['1234,5', 'R$ 1.234,5', 'R$ 1.234,50', '1234.5'],
    ['0,5', 'R$ 0,5', 'R$ 0,50', '0.5'],
    ['1234567,89', 'R$ 1.234.567,89', 'R$ 1.234.567,89', '1234567.89'],
    // A typed '.' is the thousands separator the mask draws itself, not a decimal point.
    ['1.234,56', 'R$ 1.234,56', 'R$ 1.234,56', '1234.56'],
    // Exactly two decimals: a third one is refused.
    ['12,345', 'R$ 12,34', 'R$ 12,34', '12.34'],
  ])('typing %s shows %s, and %s once the field is left', (input, whileTyping, value, unmasked) => {
    expect(typed(MONEY_MASK, input)).toEqual({ whileTyping, value, unmasked });
  });

  it('refuses a minus sign', () => {
    expect(typed(MONEY_MASK, '-12').value).toBe('R$ 12,00');
    expect(typed(MONEY_MASK, '-').value).toBe('');
  });

  it('refuses letters and the "|" character', () => {
    expect(typed(MONEY_MASK, '1a2|3').value).toBe('R$ 123,00');
  });

  it('shows a value set from code', () => {
    expect(resolved(MONEY_MASK, '1234,5')).toBe('R$ 1.234,50');
    const masked = IMask.createMask(MONEY_MASK);
    masked.unmaskedValue = '1234.56';
    expect(masked.value).toBe('R$ 1.234,56');
  });

  it('keeps a pasted pt-BR amount', () => {
    expect(pasted(MONEY_MASK, 'R$ 1.234,56')).toBe('R$ 1.234,56');
  });
});

describe('number mask', () => {
  it.each([
    ['1234,5678', '1.234,5678', '1234.5678'],
    ['-1234,5', '-1.234,5', '-1234.5'],
    ['-0,0001', '-0,0001', '-0.0001'],
    ['12,34567', '12,3456', '12.3456'],
    ['1000000', '1.000.000', '1000000'],
  ])('typing %s shows %s (unmasked %s)', (input, value, unmasked) => {
    const result = typed(NUMBER_MASK, input);
    expect(result.value).toBe(value);
    expect(result.unmasked).toBe(unmasked);
  });

  it('accepts negatives but not the "|" that imask would take for a sign', () => {
    expect(typed(NUMBER_MASK, '|5').value).toBe('5');
    expect(typed(NUMBER_MASK, '-5').value).toBe('-5');
  });
});

describe('percentage mask', () => {
  it.each([
    ['12,34', '12,34'],
    ['99,99', '99,99'],
    ['5,5', '5,50'],
    ['7', '7,00'],
    // Three integer digits are refused: the third digit does not land.
    ['100', '10,00'],
    ['123,45', '12,45'],
    ['99,999', '99,99'],
  ])('typing %s shows %s', (input, value) => {
    expect(typed(PERCENTAGE_MASK, input).value).toBe(value);
  });

  it('refuses negatives', () => {
    expect(typed(PERCENTAGE_MASK, '-5').value).toBe('5,00');
  });
});

describe('area mask', () => {
  it.each([
    ['1', '1 m²', '1'],
    ['250', '250 m²', '250'],
    ['12345', '12.345 m²', '12345'],
    // At most 8 integer digits: the 9th is refused.
    ['123456789', '12.345.678 m²', '12345678'],
    // No decimals.
    ['12,5', '125 m²', '125'],
  ])('typing %s shows %s', (input, value, unmasked) => {
    const result = typed(AREA_MASK, input);
    expect(result.whileTyping).toBe(value);
    expect(result.value).toBe(value);
    expect(result.unmasked).toBe(unmasked);
  });

  it('shows nothing, not a lone " m²", when emptied', () => {
    const masked = IMask.createMask(AREA_MASK);
    typeInto(masked, '12');
    expect(masked.displayValue).toBe('12 m²');
    masked.splice(1, 1, '', DIRECTION.LEFT, { input: true, raw: true });
    expect(masked.displayValue).toBe('1 m²');
    masked.splice(0, 1, '', DIRECTION.LEFT, { input: true, raw: true });
    expect(masked.displayValue).toBe('');
    masked.doCommit();
    expect(masked.displayValue).toBe('');
  });

  it('shows a value set from code', () => {
    const masked = IMask.createMask(AREA_MASK);
    masked.unmaskedValue = '4500';
    expect(masked.value).toBe('4.500 m²');
    expect(resolved(AREA_MASK, '')).toBe('');
  });
});

describe('CPF and CNPJ masks', () => {
  it('formats a CPF as 999.999.999-99', () => {
    expect(typed(CPF_MASK, '52998224725')).toMatchObject({ value: '529.982.247-25', unmasked: '52998224725' });
    expect(typed(CPF_MASK, '529982247251').value).toBe('529.982.247-25');
    expect(typed(CPF_MASK, '529a|982').value).toBe('529.982');
  });

  it('formats a CNPJ as 99.999.999/9999-99', () => {
    expect(typed(CNPJ_MASK, '11222333000181')).toMatchObject({ value: '11.222.333/0001-81', unmasked: '11222333000181' });
  });

  it('accepts the alphanumeric CNPJ, upper-cased, with digits in the last two places', () => {
    expect(typed(CNPJ_MASK, '12ABC34501DE35').value).toBe('12.ABC.345/01DE-35');
    expect(typed(CNPJ_MASK, '12abc34501de35').value).toBe('12.ABC.345/01DE-35');
    // Letters are refused in the check digits (imask shows the pending '-' as it refuses them).
    expect(typed(CNPJ_MASK, '12ABC34501DEXY').unmasked).toBe('12ABC34501DE');
  });
});

describe('document mask (CPF or CNPJ as typed)', () => {
  it('is a CPF up to 11 digits and a CNPJ from the 12th', () => {
    const masked = IMask.createMask(DOCUMENT_MASK);
    typeInto(masked, '52998224725');
    expect(masked.value).toBe('529.982.247-25');
    typeInto(masked, '0');
    expect(masked.value).toBe('52.998.224/7250');
    typeInto(masked, '12');
    expect(masked.value).toBe('52.998.224/7250-12');
  });

  it('goes back to a CPF when the 12th digit is erased', () => {
    const masked = IMask.createMask(DOCUMENT_MASK);
    typeInto(masked, '112223330001');
    expect(masked.value).toBe('11.222.333/0001');
    masked.splice(masked.value.length - 1, 1, '', DIRECTION.LEFT, { input: true, raw: true });
    expect(masked.value).toBe('112.223.330-00');
  });

  it('switches to CNPJ at the first letter', () => {
    expect(typed(DOCUMENT_MASK, '12abc34501de35').value).toBe('12.ABC.345/01DE-35');
  });

  it.each([
    ['52998224725', '529.982.247-25'],
    ['529.982.247-25', '529.982.247-25'],
    ['11222333000181', '11.222.333/0001-81'],
    ['11.222.333/0001-81', '11.222.333/0001-81'],
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
  ])('formats a pasted %s as %s', (text, value) => {
    expect(pasted(DOCUMENT_MASK, text)).toBe(value);
  });
});

describe('phone mask', () => {
  it.each([
    ['1140000000', '(11) 4000-0000'],
    ['11940000000', '(11) 94000-0000'],
    ['119400000001', '(11) 94000-0000'],
    ['11|9a4000', '(11) 9400-0'],
  ])('typing %s shows %s', (input, value) => {
    expect(typed(PHONE_MASK, input).value).toBe(value);
  });
});

describe('no mask lets "|" in', () => {
  it.each(Object.entries(MASKS))('%s', (_name, options) => {
    expect(typed(options, '1|2|3').value).not.toContain('|');
  });
});

describe('formatMoney and parseMoney', () => {
  it.each([
    [1234.56, 'R$ 1.234,56'],
    [0, 'R$ 0,00'],
    [0.5, 'R$ 0,50'],
    [1234567.891, 'R$ 1.234.567,89'],
    [999, 'R$ 999,00'],
    [-10, '-R$ 10,00'],
  ])('%s → %s', (value, text) => expect(formatMoney(value)).toBe(text));

  it('formats as the money mask shows', () => {
    expect(formatMoney(1234.5)).toBe(resolved(MONEY_MASK, '1234,5'));
  });

  it.each([
    ['R$ 1.234,56', 1234.56],
    ['R$ 0,50', 0.5],
    ['R$ 1.234.567', 1234567],
    ['1234,5', 1234.5],
    ['-R$ 10,00', -10],
    ['', null],
    ['R$ ', null],
  ])('%s → %s', (text, value) => expect(parseMoney(text)).toBe(value));

  it('round-trips', () => {
    for (const value of [0, 0.01, 12.3, 1234.56, 98765432.1]) expect(parseMoney(formatMoney(value))).toBe(value);
  });
});

describe('pasteDocumentMask and formatPastedDocument', () => {
  it.each([
    ['52998224725', 'cpf', '529.982.247-25'],
    [' 529.982.247-25 ', 'cpf', '529.982.247-25'],
    ['11222333000181', 'cnpj', '11.222.333/0001-81'],
    ['11.222.333/0001-81', 'cnpj', '11.222.333/0001-81'],
    ['12ABC34501DE35', 'cnpj', '12.ABC.345/01DE-35'],
    ['12abc34501de35', 'cnpj', '12.ABC.345/01DE-35'],
    ['5299822472', null, '5299822472'],
    ['529982247250', null, '529982247250'],
    ['12ABC34501DEXY', null, '12ABC34501DEXY'],
    ['Maria da Silva', null, 'Maria da Silva'],
    ['', null, ''],
  ] as const)('%s → %s, %s', (text, kind, formatted) => {
    expect(pasteDocumentMask(text)).toBe(kind);
    expect(formatPastedDocument(text)).toBe(formatted);
  });
});
