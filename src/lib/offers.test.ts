import { describe, expect, it } from 'vitest';
import { canSellCode, canSellLine } from './offers';
import type { V2Subject } from './permissions';

const substabelecido: V2Subject = {
  profile: 'SUBSTABELECIDO',
  cdOperacoes: ['OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL', 'OFERTAS_DISPONIVEIS_SIMULADORES_ITENS_PESSOAIS', 'OFERTAS_DISPONIVEIS_SIMULADORES_VIDAESSENCIALULTRON'],
};

describe('canSellCode', () => {
  it.each([
    ['RES', true], ['IPU', true], ['VEU', true], ['res', true],
    ['AFU', false], ['MU', false], ['EAU', false], ['EVI', false], ['VG', false],
    // Legacy-only codes are never sold in v2, whatever the operations.
    ['IP', false], ['AFS', false], ['XYZ', false],
  ])('a sub-delegated user with three offer operations: %s → %s', (code, allowed) => {
    expect(canSellCode(substabelecido, code)).toBe(allowed);
  });

  it('partner admins and the provider admin sell every v2 code', () => {
    for (const profile of ['ADMIN', 'PARCEIRO_ADMIN'] as const) {
      expect(canSellCode({ profile, cdOperacoes: [] }, 'AFU')).toBe(true);
      expect(canSellCode({ profile, cdOperacoes: [] }, 'EMP')).toBe(false);
    }
  });
});

describe('canSellLine', () => {
  it('opens a line when one of its codes may be sold', () => {
    expect(canSellLine(substabelecido, 'residencial')).toBe(true);
    expect(canSellLine(substabelecido, 'agricola')).toBe(false);
    expect(canSellLine({ profile: 'PARCEIRO', cdOperacoes: ['OFERTAS_DISPONIVEIS_SIMULADORES_FLORESTA'] }, 'agricola')).toBe(true);
  });
});
