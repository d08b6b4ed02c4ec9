import { describe, expect, it } from 'vitest';
import { formatWait, plural } from './format';

describe('plural', () => {
  it.each([
    [0, '0 códigos de recuperação restantes'],
    [1, '1 código de recuperação restante'],
    [9, '9 códigos de recuperação restantes'],
    [1200, '1.200 códigos de recuperação restantes'],
  ])('%i', (count, text) => expect(plural(count, 'código de recuperação restante', 'códigos de recuperação restantes')).toBe(text));
});

describe('formatWait', () => {
  it.each([
    [0.2, '1 segundo'],
    [1, '1 segundo'],
    [30, '30 segundos'],
    [60, '1 minuto'],
    [61, '2 minutos'],
    [600, '10 minutos'],
  ])('%d s', (seconds, text) => expect(formatWait(seconds)).toBe(text));
});
