import { describe, expect, it } from 'vitest';
import { paymentsExport } from './payments.server';

describe('the CSV export', () => {
  it.each([
    ['de=2026-02-30', 'Informe uma data válida.'],
    ['de=2026-01-01&ate=2027-06-30', 'O período pode ter no máximo 1 ano'],
    ['de=2026-12-01&ate=2026-11-01', 'A data final não pode ser anterior à data inicial.'],
  ])('refuses %s with a 400 in pt-BR, before reading anything', async (query, message) => {
    const response = await paymentsExport({}, new URLSearchParams(query), '127.0.0.1');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toContain(message);
  });
});
