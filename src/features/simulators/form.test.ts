import { describe, expect, it } from 'vitest';
import { answerFromText, answersFromTexts, centsFromText, textFromAnswer } from './form';
import type { Question } from '../../lib/products/types';

const money: Question = { name: 'valorImovel', label: 'Valor do imóvel', kind: 'money' };
const area: Question = { name: 'area', label: 'Área', kind: 'area' };
const flag: Question = { name: 'fumante', label: 'Fumante', kind: 'boolean' };
const select: Question = { name: 'tipo', label: 'Tipo', kind: 'select', options: [{ value: 'casa', label: 'Casa' }] };

describe('answers from what was typed', () => {
  it('reads money as centavos, areas and integers as numbers, booleans as booleans', () => {
    expect(answerFromText(money, 'R$ 450.000,50')).toBe(45_000_050);
    expect(centsFromText('R$ 0,10')).toBe(10);
    expect(answerFromText(area, '1.250 m²')).toBe(1250);
    expect(answerFromText(flag, 'true')).toBe(true);
    expect(answerFromText(flag, 'false')).toBe(false);
    expect(answerFromText(select, 'casa')).toBe('casa');
  });

  it('leaves blank fields unanswered so the schema names them', () => {
    expect(answersFromTexts([money, select, flag], { valorImovel: '', tipo: ' ' })).toEqual({ fumante: false });
  });

  it('shows a saved answer back in its mask', () => {
    expect(textFromAnswer(money, 45_000_050)).toBe('R$ 450.000,50');
    expect(textFromAnswer(flag, undefined)).toBe('false');
    expect(textFromAnswer(area, 1250)).toBe('1250');
  });
});
