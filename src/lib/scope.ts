import { V1_ADMIN_GROUP } from './permissions';

/**
 * Which sales a user may see for a capability (DESIGN §10 — the one scoping rule every list, detail,
 * PDF, export and download goes through; a record outside it is a 404):
 *   v2: ADMIN every sale; PARCEIRO_ADMIN the companies they administer; a user holding the
 *       capability's company operation (APOLICE_EMPRESA…) the sales of the company they act for;
 *       one holding its seller operation (APOLICE_VENDEDOR…) their own sales; anyone else none.
 *   legacy: the admin group every legacy sale; whoever holds the capability's permission their own.
 * BOLETOS — an installment's codes, its boleto PDF, its 2ª via, the payment pages — also covers every
 * policy APOLICES shows: whoever sees a policy's open installments sees how to pay them (issue 27
 * item 5: a legacy seller saw his policy's installments, and the insured was told the boletos were
 * with him, but its codes and PDF were a 404).
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
  const own = operationScope(subject, capability);
  return capability === 'BOLETOS' ? unionOf(own, operationScope(subject, 'APOLICES')) : own;
}

/** The sales a capability's own operations or permission open (lib header). */
function operationScope(subject: ScopeSubject, capability: Capability): Scope {
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
 * The sales either scope sees, as one scope: 'companies' already holds the user's own sales (see
 * soldWithin), so an own scope joins a companies one; two companies scopes join their companies.
 */
export function unionOf(a: Scope, b: Scope): Scope {
  if (a.kind === 'all' || b.kind === 'all') return { kind: 'all' };
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  if (a.kind === 'own' && b.kind === 'own') return a;
  const companyIds = [...new Set([...(a.kind === 'companies' ? a.companyIds : []), ...(b.kind === 'companies' ? b.companyIds : [])])];
  return { kind: 'companies', userId: a.userId, companyIds };
}

/**
 * Whose quotes and proposals a user sees — the history, a quote's and a proposal's pages (selling's
 * sellers.ts, the rule of decision 018): v2 ADMIN every one; PARCEIRO_ADMIN their companies'; anyone
 * else their own; legacy: the admin group every one, anyone else their own. The worklist's proposals
 * and quotes follow it, so each item's link opens (issue 31).
 */
export function quoteScope(subject: Pick<ScopeSubject, 'generation' | 'userId' | 'profile' | 'groups' | 'companyIds'>): Scope {
  const { userId } = subject;
  if (subject.generation === 'v1') return subject.groups.includes(V1_ADMIN_GROUP) ? { kind: 'all' } : { kind: 'own', userId };
  if (subject.profile === 'ADMIN') return { kind: 'all' };
  if (subject.profile === 'PARCEIRO_ADMIN') return { kind: 'companies', userId, companyIds: subject.companyIds };
  return { kind: 'own', userId };
}

/**
 * Documents (issue 14, decision 040) are seen like the policy they belong to (APOLICES), and a seller
 * always sees those of their own sales — they are the one who sends them, whatever else they may see.
 */
export const documentScope = (policies: Scope, userId: number): Scope => (policies.kind === 'none' ? { kind: 'own', userId } : policies);

/**
 * Whose commissions a user may see (issue 15, decision 041). Commissions belong to their beneficiary —
 * the company (partner or sub-delegated) a sale was made for, or the person who sold without one — not
 * to a generation: the rule reads the profile, and `userId` is the person the user is.
 *   statement and nota fiscal (v2 only, Comissões in the menu): ADMIN every company; PARCEIRO_ADMIN
 *     the companies they administer; PARCEIRO the company they act for; anyone else none.
 *   income statement (informe, both generations): ADMIN and the legacy admin group every beneficiary;
 *     PARCEIRO_ADMIN their companies; whoever else may open the informe page (INFORME_RENDIMENTO,
 *     legacy FINANCEIRO_INFORME_RENDIMENTO) the company they act for — and each of them themselves,
 *     for what they sold as a person.
 */
export type BeneficiaryScope = { kind: 'all' } | { kind: 'some'; companyIds: number[]; userId: number | null };

export const NO_BENEFICIARY: BeneficiaryScope = { kind: 'some', companyIds: [], userId: null };

export function commissionScope(subject: ScopeSubject): BeneficiaryScope {
  if (subject.generation !== 'v2') return NO_BENEFICIARY;
  if (subject.profile === 'ADMIN') return { kind: 'all' };
  if (subject.profile === 'PARCEIRO_ADMIN') return { kind: 'some', companyIds: subject.companyIds, userId: null };
  if (subject.profile === 'PARCEIRO' && subject.actingCompanyId !== null)
    return { kind: 'some', companyIds: [subject.actingCompanyId], userId: null };
  return NO_BENEFICIARY;
}

/** The informe's beneficiaries: the page's own guard (the menu rule) decided who reaches it at all. */
export function incomeScope(subject: ScopeSubject): BeneficiaryScope {
  if (subject.generation === 'v1') {
    if (subject.groups.includes(V1_ADMIN_GROUP)) return { kind: 'all' };
    return { kind: 'some', companyIds: subject.actingCompanyId === null ? [] : [subject.actingCompanyId], userId: subject.userId };
  }
  if (subject.profile === 'ADMIN') return { kind: 'all' };
  if (subject.profile === 'PARCEIRO_ADMIN') return { kind: 'some', companyIds: subject.companyIds, userId: subject.userId };
  return { kind: 'some', companyIds: subject.actingCompanyId === null ? [] : [subject.actingCompanyId], userId: subject.userId };
}

/**
 * Whose sales the sales data — metrics and targets, sales reports (issue 15, decisions 042 and 043) —
 * counts. These are a company's figures, not a seller's list, so they follow the company the user acts
 * for, in either generation:
 *   v2: ADMIN every sale; PARCEIRO_ADMIN the companies they administer; whoever holds the page's
 *       operation (METRICAS, RELATORIO_VENDAS) the company they act for, or their own sales without one.
 *   legacy: the admin group every sale; whoever may view RELATORIO_GESTAO their company's, or their own.
 */
export type SalesData = 'METRICAS' | 'RELATORIOS';

const SALES_DATA_OPERATIONS: Record<SalesData, string> = { METRICAS: 'METRICAS', RELATORIOS: 'RELATORIO_VENDAS' };
const SALES_DATA_PERMISSION = 'RELATORIO_GESTAO';

export function salesDataScope(subject: ScopeSubject, data: SalesData): Scope {
  const { userId, actingCompanyId } = subject;
  const holder =
    subject.generation === 'v1'
      ? subject.groups.includes(V1_ADMIN_GROUP) || subject.viewablePermissions.includes(SALES_DATA_PERMISSION)
      : subject.profile === 'ADMIN' || subject.profile === 'PARCEIRO_ADMIN' || subject.operations.includes(SALES_DATA_OPERATIONS[data]);
  if (!holder) return { kind: 'none' };
  if (subject.generation === 'v1' ? subject.groups.includes(V1_ADMIN_GROUP) : subject.profile === 'ADMIN') return { kind: 'all' };
  if (subject.generation === 'v2' && subject.profile === 'PARCEIRO_ADMIN')
    return { kind: 'companies', userId, companyIds: subject.companyIds };
  return actingCompanyId === null ? { kind: 'own', userId } : { kind: 'companies', userId, companyIds: [actingCompanyId] };
}

/** Who sets sales targets (issue 15): the insurer's admins and the partner admins, for what their scope counts. */
export const mayEditTargets = (subject: Pick<ScopeSubject, 'generation' | 'profile' | 'groups'>): boolean =>
  subject.generation === 'v1'
    ? subject.groups.includes(V1_ADMIN_GROUP)
    : subject.profile === 'ADMIN' || subject.profile === 'PARCEIRO_ADMIN';
