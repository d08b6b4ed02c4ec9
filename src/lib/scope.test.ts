import { describe, expect, it } from 'vitest';
import { scopeOf, type ScopeSubject } from './scope';

const v2 = (profile: string, operations: string[] = []): ScopeSubject => ({
  generation: 'v2',
  userId: 7,
  profile,
  operations,
  groups: [],
  viewablePermissions: [],
  companyIds: [1, 2],
  actingCompanyId: 1,
});
const v1 = (groups: string[], viewablePermissions: string[] = []): ScopeSubject => ({
  generation: 'v1',
  userId: 9,
  operations: [],
  groups,
  viewablePermissions,
  companyIds: [],
  actingCompanyId: 3,
});

describe('scopeOf: who sees which sales, as a table', () => {
  it.each([
    ['v2 ADMIN', v2('ADMIN'), { kind: 'all' }],
    ['v2 PARCEIRO_ADMIN: the companies they administer', v2('PARCEIRO_ADMIN'), { kind: 'companies', userId: 7, companyIds: [1, 2] }],
    [
      'v2 APOLICE_EMPRESA: the company they act for',
      v2('PARCEIRO', ['APOLICE_EMPRESA']),
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    ['v2 APOLICE_VENDEDOR: their own', v2('PARCEIRO', ['APOLICE_VENDEDOR']), { kind: 'own', userId: 7 }],
    [
      'v2 company beats own',
      v2('SUBSTABELECIDO', ['APOLICE_VENDEDOR', 'APOLICE_EMPRESA']),
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    ['v2 without the operation', v2('PARCEIRO', ['BOLETOS_EMPRESA']), { kind: 'none' }],
    ['legacy admin group', v1(['ADMINISTRADOR']), { kind: 'all' }],
    ['legacy HISTORICO_VENDAS: their own', v1(['VENDEDOR'], ['HISTORICO_VENDAS']), { kind: 'own', userId: 9 }],
    ['legacy without it', v1(['VENDEDOR'], ['RELATORIO_GESTAO']), { kind: 'none' }],
  ] as const)('%s', (_, subject, scope) => expect(scopeOf(subject, 'APOLICES')).toEqual(scope));

  it('reads the capability’s own operations: boletos are not policies', () => {
    expect(scopeOf(v2('PARCEIRO', ['APOLICE_EMPRESA']), 'BOLETOS')).toEqual({ kind: 'none' });
    expect(scopeOf(v2('PARCEIRO', ['BOLETOS_VENDEDOR']), 'BOLETOS')).toEqual({ kind: 'own', userId: 7 });
  });
});
