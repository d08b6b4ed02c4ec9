import { describe, expect, it } from 'vitest';
import { canV1, canV2, OPERATIONS, V1_ADMIN_GROUP, type V2Rule } from './permissions';

describe('canV1', () => {
  const seller = {
    profile: ['VENDEDOR'],
    permissions: [
      { nome: 'HISTORICO_VENDAS', permiteVisualizacao: true, permiteAlteracao: false },
      { nome: 'RELATORIO_GESTAO', permiteVisualizacao: false, permiteAlteracao: true },
    ],
  };
  it.each([
    ['HISTORICO_VENDAS', 'VIEW', true],
    ['HISTORICO_VENDAS', 'EDIT', false],
    ['RELATORIO_GESTAO', 'VIEW', false],
    ['RELATORIO_GESTAO', 'EDIT', true],
    ['USUARIOS', 'VIEW', false], // no match denies
  ] as const)('seller %s %s → %s', (permission, access, allowed) => expect(canV1(seller, permission, access)).toBe(allowed));

  it('lets the admin group do everything, even without the permission listed', () =>
    expect(canV1({ profile: [V1_ADMIN_GROUP], permissions: [] }, 'USUARIOS', 'EDIT')).toBe(true));
});

describe('canV2', () => {
  const rule: V2Rule = { profiles: ['PARCEIRO_ADMIN'], operations: ['RELATORIO_VENDAS'] };
  it.each([
    ['PARCEIRO_ADMIN', [], false, true],
    ['PARCEIRO', ['RELATORIO_VENDAS'], false, true],
    ['PARCEIRO', ['METRICAS'], false, false],
    ['PARCEIRO_ADMIN', [], true, false],
    ['PARCEIRO_ADMIN', ['RELATORIO_VENDAS'], true, true],
    ['PARCEIRO', ['RELATORIO_VENDAS'], true, false],
  ] as const)('%s with %j (profile and operation: %s) → %s', (profile, operations, both, allowed) =>
    expect(canV2({ profile, cdOperacoes: operations }, rule, { profileAndOperation: both })).toBe(allowed),
  );

  it('names every per-simulator offer operation', () => {
    expect(OPERATIONS.filter((op) => op.startsWith('OFERTAS_DISPONIVEIS_SIMULADORES_'))).toHaveLength(13);
  });
});
