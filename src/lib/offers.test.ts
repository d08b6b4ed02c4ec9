import { describe, expect, it } from 'vitest';
import { canOfferCodeV1, canSellCode, canSellCodeV1, canSellLine, canSellLineV1 } from './offers';
import type { V1Subject, V2Subject } from './permissions';

const substabelecido: V2Subject = {
  profile: 'SUBSTABELECIDO',
  cdOperacoes: [
    'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL',
    'OFERTAS_DISPONIVEIS_SIMULADORES_ITENS_PESSOAIS',
    'OFERTAS_DISPONIVEIS_SIMULADORES_VIDAESSENCIALULTRON',
  ],
};

describe('canSellCode', () => {
  it.each([
    ['RES', true],
    ['IPU', true],
    ['VEU', true],
    ['res', true],
    ['AFU', false],
    ['MU', false],
    ['EAU', false],
    ['EVI', false],
    ['VG', false],
    // Legacy-only codes are never sold in v2, whatever the operations.
    ['IP', false],
    ['AFS', false],
    ['XYZ', false],
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

const viewOnly = (...codes: string[]) =>
  codes.map((code) => ({ nome: `OFERTAS_DISPONIVEIS_${code}`, permiteVisualizacao: true, permiteAlteracao: false }));
const consultor: V1Subject = { profile: ['CONSULTOR'], permissions: viewOnly('RES', 'VEU') };

describe('canSellCodeV1', () => {
  it.each([
    ['RES', true],
    ['res', true],
    ['VEU', true],
    ['VG', false],
    ['AFU', false],
    ['MU', false],
    ['EAU', false],
  ])('a legacy user with the RES and VEU offers: %s → %s', (code, allowed) => {
    expect(canSellCodeV1(consultor, code)).toBe(allowed);
  });

  it('needs VIEW, not just the permission name', () => {
    const editOnly: V1Subject = {
      profile: [],
      permissions: [{ nome: 'OFERTAS_DISPONIVEIS_RES', permiteVisualizacao: false, permiteAlteracao: true }],
    };
    expect(canSellCodeV1(editOnly, 'RES')).toBe(false);
  });

  it('never sells external, v2-only or unknown codes, even to the admin group; the embedded apps sell EMP, IP and VE', () => {
    const admin: V1Subject = { profile: ['ADMINISTRADOR'], permissions: [] };
    for (const code of ['AFS', 'EVI', 'IPU', 'XYZ']) expect(canSellCodeV1(admin, code), code).toBe(false);
    for (const code of ['RES', 'AFU', 'PR', 'FL', 'PRS', 'VEU', 'VG', 'MU', 'EAU', 'EMP', 'IP', 'VE'])
      expect(canSellCodeV1(admin, code), code).toBe(true);
    expect(canSellCodeV1(consultor, 'EMP')).toBe(false);
  });
});

describe('canOfferCodeV1', () => {
  it('shows AFS (external start) and the embedded apps’ codes to whoever holds their permission', () => {
    const agro: V1Subject = { profile: [], permissions: viewOnly('AFS', 'EMP') };
    expect(canOfferCodeV1(agro, 'AFS')).toBe(true);
    expect(canSellCodeV1(agro, 'AFS')).toBe(false);
    expect(canOfferCodeV1(agro, 'EMP')).toBe(true);
    expect(canOfferCodeV1(agro, 'VE')).toBe(false);
    expect(canOfferCodeV1(consultor, 'RES')).toBe(true);
  });
});

describe('canSellLineV1', () => {
  it('opens a legacy line when one of its legacy codes may be sold', () => {
    expect(canSellLineV1(consultor, 'residencial')).toBe(true);
    expect(canSellLineV1(consultor, 'vida')).toBe(true);
    expect(canSellLineV1(consultor, 'agricola')).toBe(false);
    expect(canSellLineV1(consultor, 'maquinas')).toBe(false);
    expect(canSellLineV1({ profile: [], permissions: viewOnly('FL') }, 'agricola')).toBe(true);
    // AFS alone does not open the legacy agricultural routes: it starts elsewhere.
    expect(canSellLineV1({ profile: [], permissions: viewOnly('AFS') }, 'agricola')).toBe(false);
    // Lines without a legacy simulator are closed to everyone.
    expect(canSellLineV1({ profile: ['ADMINISTRADOR'], permissions: [] }, 'itens-pessoais')).toBe(false);
  });
});
