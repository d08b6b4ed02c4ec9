import { V1_ADMIN_GROUP } from './permissions';

/**
 * Which sales a user may see for a capability (DESIGN §10 — the one scoping rule every list, detail,
 * PDF, export and download goes through; a record outside it is a 404):
 *   v2: ADMIN every sale; PARCEIRO_ADMIN the companies they administer; a user holding the
 *       capability's company operation (APOLICE_EMPRESA…) the sales of the company they act for;
 *       one holding its seller operation (APOLICE_VENDEDOR…) their own sales; anyone else none.
 *   legacy: the admin group every legacy sale; whoever holds the capability's permission their own.
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'companies'; userId: number; companyIds: number[] }
  | { kind: 'own'; userId: number }
  | { kind: 'none' };

export type Capability = 'APOLICES' | 'BOLETOS';

const V2_OPERATIONS: Record<Capability, { company: string; own: string }> = {
  APOLICES: { company: 'APOLICE_EMPRESA', own: 'APOLICE_VENDEDOR' },
  BOLETOS: { company: 'BOLETOS_EMPRESA', own: 'BOLETOS_VENDEDOR' },
};

const V1_PERMISSIONS: Record<Capability, string> = { APOLICES: 'HISTORICO_VENDAS', BOLETOS: 'CLIENTES_CONSULTA_PAGAMENTO' };

export interface ScopeSubject {
  generation: 'v1' | 'v2';
  userId: number;
  /** v2: 'ADMIN', 'PARCEIRO_ADMIN'…; legacy: ignored. */
  profile?: string;
  operations: string[];
  /** Legacy groups (the admin group sees everything) and permissions that may be viewed. */
  groups: string[];
  viewablePermissions: string[];
  /** The companies a PARCEIRO_ADMIN administers (their linked companies). */
  companyIds: number[];
  /** The company the user acts for. */
  actingCompanyId: number | null;
}

export function scopeOf(subject: ScopeSubject, capability: Capability): Scope {
  const { userId } = subject;
  if (subject.generation === 'v1') {
    if (subject.groups.includes(V1_ADMIN_GROUP)) return { kind: 'all' };
    return subject.viewablePermissions.includes(V1_PERMISSIONS[capability]) ? { kind: 'own', userId } : { kind: 'none' };
  }
  if (subject.profile === 'ADMIN') return { kind: 'all' };
  if (subject.profile === 'PARCEIRO_ADMIN') return { kind: 'companies', userId, companyIds: subject.companyIds };
  const operations = V2_OPERATIONS[capability];
  if (subject.operations.includes(operations.company) && subject.actingCompanyId !== null)
    return { kind: 'companies', userId, companyIds: [subject.actingCompanyId] };
  return subject.operations.includes(operations.own) ? { kind: 'own', userId } : { kind: 'none' };
}

/**
 * Documents (issue 14, decision 040) are seen like the policy they belong to (APOLICES), and a seller
 * always sees those of their own sales — they are the one who sends them, whatever else they may see.
 */
export const documentScope = (policies: Scope, userId: number): Scope => (policies.kind === 'none' ? { kind: 'own', userId } : policies);
