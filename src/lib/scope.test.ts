import { describe, expect, it } from 'vitest';
import {
  commissionScope,
  incomeScope,
  mayEditTargets,
  quoteScope,
  salesDataScope,
  scopeOf,
  unionOf,
  type Scope,
  type ScopeSubject,
} from './scope';
import { V1_ADMIN_GROUP } from './permissions';

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

  it('reads the capability’s own operations: boletos do not open policies', () => {
    expect(scopeOf(v2('PARCEIRO', ['BOLETOS_EMPRESA']), 'APOLICES')).toEqual({ kind: 'none' });
    expect(scopeOf(v2('PARCEIRO', ['BOLETOS_VENDEDOR']), 'BOLETOS')).toEqual({ kind: 'own', userId: 7 });
  });

  // Issue 27 item 5: whoever sees a policy's installments sees how to pay them.
  it.each([
    [
      'v2 APOLICE_EMPRESA without BOLETOS: the company’s',
      v2('PARCEIRO', ['APOLICE_EMPRESA']),
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    [
      'v2 APOLICE_VENDEDOR and BOLETOS_EMPRESA: the company’s',
      v2('PARCEIRO', ['APOLICE_VENDEDOR', 'BOLETOS_EMPRESA']),
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    [
      'v2 APOLICE_EMPRESA and BOLETOS_VENDEDOR: the company’s',
      v2('PARCEIRO', ['APOLICE_EMPRESA', 'BOLETOS_VENDEDOR']),
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    ['v2 APOLICE_VENDEDOR alone: their own', v2('PARCEIRO', ['APOLICE_VENDEDOR']), { kind: 'own', userId: 7 }],
    ['v2 neither', v2('SUBSTABELECIDO', ['COTAR_VENDER']), { kind: 'none' }],
    [
      'legacy HISTORICO_VENDAS without CLIENTES_CONSULTA_PAGAMENTO (vendedor@legado): their own',
      v1(['VENDEDOR'], ['HISTORICO_VENDAS']),
      { kind: 'own', userId: 9 },
    ],
    ['legacy CLIENTES_CONSULTA_PAGAMENTO alone: their own', v1(['X'], ['CLIENTES_CONSULTA_PAGAMENTO']), { kind: 'own', userId: 9 }],
    ['legacy admin group', v1(['ADMINISTRADOR']), { kind: 'all' }],
  ] as const)('BOLETOS covers APOLICES — %s', (_, subject, scope) => {
    expect(scopeOf(subject, 'BOLETOS')).toEqual(scope);
  });

  it.each([
    [{ kind: 'none' }, { kind: 'own', userId: 7 }, { kind: 'own', userId: 7 }],
    [
      { kind: 'own', userId: 7 },
      { kind: 'companies', userId: 7, companyIds: [1] },
      { kind: 'companies', userId: 7, companyIds: [1] },
    ],
    [
      { kind: 'companies', userId: 7, companyIds: [1] },
      { kind: 'companies', userId: 7, companyIds: [2, 1] },
      { kind: 'companies', userId: 7, companyIds: [1, 2] },
    ],
    [{ kind: 'all' }, { kind: 'none' }, { kind: 'all' }],
  ] as [Scope, Scope, Scope][])('unionOf(%o, %o) = %o', (a, b, union) => {
    expect(unionOf(a, b)).toEqual(union);
    expect(unionOf(b, a)).toEqual(union.kind === 'companies' ? { ...union, companyIds: expect.arrayContaining(union.companyIds) } : union);
  });
});

describe('commissionScope and incomeScope: whose commissions, as a table (issue 15)', () => {
  it.each([
    ['v2 ADMIN: every company', v2('ADMIN'), { kind: 'all' }],
    ['v2 PARCEIRO_ADMIN: the companies they administer', v2('PARCEIRO_ADMIN'), { kind: 'some', companyIds: [1, 2], userId: null }],
    ['v2 PARCEIRO: the company they act for', v2('PARCEIRO'), { kind: 'some', companyIds: [1], userId: null }],
    [
      'v2 SUBSTABELECIDO: none (Comissões is not theirs)',
      v2('SUBSTABELECIDO', ['INFORME_RENDIMENTO']),
      { kind: 'some', companyIds: [], userId: null },
    ],
    ['legacy: no statement (v2 screens only)', v1(['ADMINISTRADOR']), { kind: 'some', companyIds: [], userId: null }],
  ])('statement and nota: %s', (_, subject, expected) => {
    expect(commissionScope(subject)).toEqual(expected);
  });

  it.each([
    ['v2 ADMIN: every beneficiary', v2('ADMIN'), { kind: 'all' }],
    ['v2 PARCEIRO_ADMIN: their companies and themselves', v2('PARCEIRO_ADMIN'), { kind: 'some', companyIds: [1, 2], userId: 7 }],
    [
      'v2 with INFORME_RENDIMENTO: the company they act for and themselves',
      v2('PARCEIRO', ['INFORME_RENDIMENTO']),
      { kind: 'some', companyIds: [1], userId: 7 },
    ],
    ['legacy admin group: every beneficiary', v1(['ADMINISTRADOR']), { kind: 'all' }],
    [
      'legacy: their company and themselves',
      v1(['GESTOR'], ['FINANCEIRO_INFORME_RENDIMENTO']),
      { kind: 'some', companyIds: [3], userId: 9 },
    ],
  ])('informe: %s', (_, subject, expected) => {
    expect(incomeScope(subject)).toEqual(expected);
  });
});

describe('salesDataScope: whose sales the metrics and the reports count, as a table (issue 15)', () => {
  const company = (userId: number, ...companyIds: number[]) => ({ kind: 'companies', userId, companyIds });
  it.each([
    ['v2 ADMIN', v2('ADMIN'), 'METRICAS', { kind: 'all' }],
    ['v2 PARCEIRO_ADMIN: the companies they administer', v2('PARCEIRO_ADMIN'), 'METRICAS', company(7, 1, 2)],
    ['v2 PARCEIRO with METRICAS: the company they act for', v2('PARCEIRO', ['METRICAS']), 'METRICAS', company(7, 1)],
    ['v2 PARCEIRO without it', v2('PARCEIRO', ['RELATORIO_VENDAS']), 'METRICAS', { kind: 'none' }],
    [
      'v2 SUBSTABELECIDO with RELATORIO_VENDAS: its company’s reports',
      v2('SUBSTABELECIDO', ['RELATORIO_VENDAS']),
      'RELATORIOS',
      company(7, 1),
    ],
    ['v2 SUBSTABELECIDO with RELATORIO_VENDAS has no metrics', v2('SUBSTABELECIDO', ['RELATORIO_VENDAS']), 'METRICAS', { kind: 'none' }],
    [
      'v2 holder without a company: their own',
      { ...v2('PARCEIRO', ['METRICAS']), actingCompanyId: null },
      'METRICAS',
      { kind: 'own', userId: 7 },
    ],
    ['legacy admin group', v1(['ADMINISTRADOR']), 'METRICAS', { kind: 'all' }],
    ['legacy RELATORIO_GESTAO: the company they work for', v1(['VENDEDOR'], ['RELATORIO_GESTAO']), 'RELATORIOS', company(9, 3)],
    ['legacy without it', v1(['CONSULTOR'], ['HISTORICO_VENDAS']), 'METRICAS', { kind: 'none' }],
  ] as const)('%s', (_, subject, data, expected) => {
    expect(salesDataScope(subject, data)).toEqual(expected);
  });

  it('targets are set by the insurer’s admins, the partner admins and the legacy admin group only', () => {
    expect([v2('ADMIN'), v2('PARCEIRO_ADMIN'), v1(['ADMINISTRADOR'])].every(mayEditTargets)).toBe(true);
    expect([v2('PARCEIRO', ['METRICAS']), v2('SUBSTABELECIDO'), v1(['GESTOR'], ['RELATORIO_GESTAO'])].some(mayEditTargets)).toBe(false);
  });
});

describe('quoteScope (the history rule, issue 31 worklist)', () => {
  const base = { userId: 5, groups: [] as string[], companyIds: [1, 2] };
  it('sees every quote for ADMIN and the legacy admin group, the companies for PARCEIRO_ADMIN, else the own', () => {
    expect(quoteScope({ ...base, generation: 'v2', profile: 'ADMIN' })).toEqual({ kind: 'all' });
    expect(quoteScope({ ...base, generation: 'v2', profile: 'PARCEIRO_ADMIN' })).toEqual({
      kind: 'companies',
      userId: 5,
      companyIds: [1, 2],
    });
    expect(quoteScope({ ...base, generation: 'v2', profile: 'PARCEIRO' })).toEqual({ kind: 'own', userId: 5 });
    expect(quoteScope({ ...base, generation: 'v1', groups: [V1_ADMIN_GROUP] })).toEqual({ kind: 'all' });
    expect(quoteScope({ ...base, generation: 'v1' })).toEqual({ kind: 'own', userId: 5 });
  });
});
