import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ageOn, answersSchema, parseIsoDate } from './questions';
import type { Question } from './types';

const TODAY = new Date(2026, 2, 15); // 15/03/2026

const QUESTIONS: Question[] = [
  { name: 'valorImovel', label: 'Valor do imóvel', article: 'o', kind: 'money', min: 50_000_00, max: 5_000_000_00 },
  {
    name: 'construcao',
    label: 'Tipo de construção',
    kind: 'radio',
    options: [
      { value: 'alvenaria', label: 'Alvenaria' },
      { value: 'mista', label: 'Mista' },
    ],
  },
  { name: 'cultura', label: 'Cultura', article: 'a', kind: 'select', options: [{ value: 'soja', label: 'Soja' }] },
  { name: 'areaHectares', label: 'Área cultivada em hectares', article: 'a', kind: 'integer', min: 1, max: 10_000 },
  { name: 'areaConstruida', label: 'Área construída', article: 'a', kind: 'area', max: 2_000 },
  { name: 'municipio', label: 'Município', article: 'o', kind: 'text' },
  { name: 'dataNascimento', label: 'Data de nascimento', article: 'a', kind: 'date', min: 18, max: 70 },
  { name: 'dataCompra', label: 'Data da compra', article: 'a', kind: 'date', required: false },
  { name: 'fumante', label: 'Fumante', kind: 'boolean' },
  { name: 'observacao', label: 'Observação', article: 'a', kind: 'text', required: false },
];

const VALID = {
  valorImovel: 400_000_00,
  construcao: 'alvenaria',
  cultura: 'soja',
  areaHectares: 120,
  areaConstruida: 150,
  municipio: ' Londrina ',
  dataNascimento: '1990-05-10',
  fumante: true,
};

const schema = answersSchema(QUESTIONS, TODAY);
const messages = (input: unknown) => {
  const result = z.safeParse(schema, input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('answersSchema', () => {
  it('accepts every kind and returns typed answers, dropping unknown keys and blank optional ones', () => {
    expect(z.parse(schema, { ...VALID, observacao: '  ', extra: 'x' })).toEqual({ ...VALID, municipio: 'Londrina' });
  });

  it('reads masked form text: money in centavos, integers and areas without separators', () => {
    const parsed = z.parse(schema, {
      ...VALID,
      valorImovel: 'R$ 1.234.567,89',
      areaHectares: '1.500',
      areaConstruida: '1.200 m²',
      fumante: 'false',
    });
    expect(parsed).toMatchObject({ valorImovel: 123_456_789, areaHectares: 1_500, areaConstruida: 1_200, fumante: false });
    expect(z.parse(schema, { ...VALID, valorImovel: '100.000,5' }).valorImovel).toBe(100_000_50);
    expect(z.parse(schema, { ...VALID, valorImovel: 'R$ 100.000' }).valorImovel).toBe(100_000_00);
  });

  it('names the missing field', () => {
    expect(messages({})).toEqual({
      valorImovel: 'Informe o valor do imóvel.',
      construcao: 'Escolha uma opção de Tipo de construção.',
      cultura: 'Escolha uma opção de Cultura.',
      areaHectares: 'Informe a área cultivada em hectares.',
      areaConstruida: 'Informe a área construída.',
      municipio: 'Informe o município.',
      dataNascimento: 'Informe a data de nascimento.',
    });
  });

  it('treats an unanswered boolean as "não"', () => {
    const { fumante: _, ...rest } = VALID;
    expect(z.parse(schema, rest).fumante).toBe(false);
  });

  it('refuses option values that are not in the list', () => {
    expect(messages({ ...VALID, construcao: 'madeira', cultura: 'SOJA' })).toEqual({
      construcao: 'Escolha uma opção de Tipo de construção.',
      cultura: 'Escolha uma opção de Cultura.',
    });
  });

  it('refuses out-of-range numbers with the bounds written the Brazilian way', () => {
    expect(messages({ ...VALID, valorImovel: 49_999_99, areaHectares: 10_001, areaConstruida: 2_001 })).toEqual({
      valorImovel: 'O valor do imóvel deve estar entre R$ 50.000,00 e R$ 5.000.000,00.',
      areaHectares: 'A área cultivada em hectares deve estar entre 1 e 10.000.',
      areaConstruida: 'A área construída deve ser de no máximo 2.000 m².',
    });
    expect(messages({ ...VALID, areaHectares: 0 })).toEqual({ areaHectares: 'A área cultivada em hectares deve estar entre 1 e 10.000.' });
  });

  it('refuses fractional integers, negative or garbled money and non-numbers', () => {
    expect(messages({ ...VALID, areaHectares: 1.5 })).toEqual({
      areaHectares: 'Informe a área cultivada em hectares com um número inteiro.',
    });
    expect(messages({ ...VALID, areaHectares: 'abc' })).toHaveProperty('areaHectares');
    expect(messages({ ...VALID, valorImovel: -1 })).toEqual({ valorImovel: 'Informe o valor do imóvel.' });
    expect(messages({ ...VALID, valorImovel: '1,234,00' })).toEqual({ valorImovel: 'Informe o valor do imóvel.' });
    expect(messages({ ...VALID, valorImovel: 100_000.5 })).toEqual({ valorImovel: 'Informe o valor do imóvel.' });
  });

  it('refuses dates that do not exist or are not ISO', () => {
    const message = 'Informe a data de nascimento no formato DD/MM/AAAA.';
    for (const bad of ['1990-02-30', '10/05/1990', '1990-5-10', 19900510]) {
      expect(messages({ ...VALID, dataNascimento: bad })).toEqual({ dataNascimento: message });
    }
    expect(messages({ ...VALID, dataCompra: '2026-13-01' })).toEqual({ dataCompra: 'Informe a data da compra no formato DD/MM/AAAA.' });
  });

  it('bounds the age of a date question on the given day', () => {
    const age = { dataNascimento: 'A idade deve estar entre 18 e 70 anos.' };
    expect(messages({ ...VALID, dataNascimento: '2008-03-15' })).toEqual({}); // 18 today
    expect(messages({ ...VALID, dataNascimento: '2008-03-16' })).toEqual(age); // 18 tomorrow
    expect(messages({ ...VALID, dataNascimento: '1955-03-16' })).toEqual({}); // 70, 71 tomorrow
    expect(messages({ ...VALID, dataNascimento: '1955-03-15' })).toEqual(age); // 71 today
  });

  it('refuses texts over 200 characters', () => {
    expect(messages({ ...VALID, municipio: 'x'.repeat(201) })).toEqual({ municipio: 'O município deve ter no máximo 200 caracteres.' });
  });
});

describe('ageOn', () => {
  it.each([
    ['1990-03-15', 36],
    ['1990-03-16', 35],
    ['1990-03-14', 36],
    ['2000-02-29', 26],
    ['2026-03-15', 0],
  ])('%s → %s on 15/03/2026', (birth, age) => expect(ageOn(birth, TODAY)).toBe(age));

  it('counts a 29 February birthday on 1 March of a common year', () => {
    expect(ageOn('2000-02-29', new Date(2025, 1, 28))).toBe(24);
    expect(ageOn('2000-02-29', new Date(2025, 2, 1))).toBe(25);
  });

  it('is NaN for a bad date', () => expect(ageOn('2000-02-30', TODAY)).toBeNaN());
});

describe('parseIsoDate', () => {
  it('accepts real days only', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDate('2025-02-29')).toBeNull();
    expect(parseIsoDate('2025-00-10')).toBeNull();
  });
});
