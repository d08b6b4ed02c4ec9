import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  formatCommission,
  hundredthsToPercentText,
  isIsoDate,
  OFFER_MESSAGES,
  offerCreateSchema,
  offerUpdateSchema,
  percentToHundredths,
} from './offer-schema';

const valid = {
  nome: 'Residencial — Vale Verde',
  empresas: [2],
  vigenciaInicio: '2026-01-01',
  vigenciaFim: '2026-12-31',
  comissao: '12,50',
  ativo: true,
};

/** The messages of a failed parse by field, as the API answers them. */
function errors(input: unknown, schema: typeof offerUpdateSchema | typeof offerCreateSchema = offerUpdateSchema) {
  const result = z.safeParse(schema, input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
}

describe('percentToHundredths', () => {
  it.each([
    ['12,50', 1250],
    ['12.5', 1250],
    ['0', 0],
    ['0,01', 1],
    ['99,99', 9999],
    ['100', 10000],
    ['100,00', 10000],
    [' 7 ', 700],
    [12.5, 1250],
    [0, 0],
    [100, 10000],
    [0.1 + 0.2, 30],
  ] as const)('%j → %i hundredths', (input, expected) => {
    expect(percentToHundredths(input)).toBe(expected);
  });

  it.each(['100,01', '101', '-1', '1,234', '1.234,00', 'abc', '', ',5', '12,'] as const)('refuses %j', (input) => {
    expect(percentToHundredths(input)).toBeUndefined();
  });

  it.each([-0.01, 100.01, 12.345, Number.NaN, Number.POSITIVE_INFINITY])('refuses the number %d', (input) => {
    expect(percentToHundredths(input)).toBeUndefined();
  });

  it('round-trips through the percentage mask text', () => {
    for (const hundredths of [0, 5, 1250, 9999, 10000]) expect(percentToHundredths(hundredthsToPercentText(hundredths))).toBe(hundredths);
    expect(formatCommission(2000)).toBe('20,00%');
  });
});

describe('isIsoDate', () => {
  it('accepts real calendar days only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('31/12/2026')).toBe(false);
    expect(isIsoDate('2026-1-1')).toBe(false);
  });
});

describe('offer schemas', () => {
  it('turns the form input into what the database keeps', () => {
    expect(z.parse(offerUpdateSchema, { ...valid, nome: '  Residencial  ' })).toEqual({
      ...valid,
      nome: 'Residencial',
      comissao: 1250,
    });
    expect(z.parse(offerCreateSchema, { ...valid, idSimulador: 1 }).idSimulador).toBe(1);
  });

  it('an empty end date is an open validity; ativo defaults to true', () => {
    const { ativo: _, ...withoutActive } = valid;
    expect(z.parse(offerUpdateSchema, { ...withoutActive, vigenciaFim: '' })).toMatchObject({ vigenciaFim: null, ativo: true });
    expect(z.parse(offerUpdateSchema, { ...valid, vigenciaFim: null }).vigenciaFim).toBeNull();
  });

  it('explains every refused field in pt-BR', () => {
    expect(errors({ ...valid, nome: 'ab' })).toEqual({ nome: OFFER_MESSAGES.name });
    expect(errors({ ...valid, nome: 'x'.repeat(121) })).toEqual({ nome: OFFER_MESSAGES.name });
    expect(errors({ ...valid, empresas: [] })).toEqual({ empresas: OFFER_MESSAGES.companies });
    expect(errors({ ...valid, vigenciaInicio: '' })).toEqual({ vigenciaInicio: OFFER_MESSAGES.start });
    expect(errors({ ...valid, vigenciaFim: '2026-02-30' })).toEqual({ vigenciaFim: OFFER_MESSAGES.end });
    expect(errors({ ...valid, vigenciaFim: '2025-12-31' })).toEqual({ vigenciaFim: OFFER_MESSAGES.order });
    expect(errors({ ...valid, comissao: '100,01' })).toEqual({ comissao: OFFER_MESSAGES.commission });
    expect(errors({ ...valid, comissao: 12.345 })).toEqual({ comissao: OFFER_MESSAGES.commission });
    expect(errors({ ...valid, idSimulador: 0 }, offerCreateSchema)).toEqual({ idSimulador: OFFER_MESSAGES.simulator });
  });

  it('a validity of a single day is allowed', () => {
    expect(errors({ ...valid, vigenciaFim: valid.vigenciaInicio })).toEqual({});
  });
});
