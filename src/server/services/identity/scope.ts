import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import {
  commissionScope,
  documentScope,
  incomeScope,
  mayEditTargets,
  salesDataScope,
  quoteScope,
  scopeOf,
  type BeneficiaryScope,
  type Capability,
  type Scope,
  type SalesData,
  type ScopeSubject,
} from '../../../lib/scope';
import type { SessionViewer } from '../../../lib/session';
import { principalFacts, type PrincipalFacts } from './principals';

/** The company a viewer acts for: the v2 session's chosen one when it is theirs, else the user's own. */
export function actingCompanyId(viewer: SessionViewer, facts: PrincipalFacts): number | null {
  const v2 = viewer.generation === 'v2' ? viewer.user : undefined;
  const acting = v2?.cdCnpjEmpresa ? facts.companies.find((c) => c.cdCnpj === v2.cdCnpjEmpresa) : undefined;
  return acting?.id ?? facts.companyId;
}

/** What the scoping rules (lib/scope.ts) read of a signed-in viewer, from the principal in memory. */
async function subjectOf(db: DB, viewer: SessionViewer): Promise<ScopeSubject> {
  const facts = await principalFacts(db, viewer.user.idUsuario);
  const v2 = viewer.generation === 'v2' ? viewer.user : undefined;
  return {
    generation: viewer.generation,
    userId: viewer.user.idUsuario,
    profile: v2?.profile,
    operations: v2?.cdOperacoes ?? [],
    groups: viewer.generation === 'v1' ? viewer.user.profile : [],
    viewablePermissions: viewer.generation === 'v1' ? viewer.user.permissions.filter((p) => p.permiteVisualizacao).map((p) => p.nome) : [],
    companyIds: facts.companies.map((c) => c.id),
    actingCompanyId: actingCompanyId(viewer, facts),
  };
}

/** The scope of a signed-in viewer for a capability (lib/scope.ts). */
export async function scopeFor(db: DB, viewer: SessionViewer, capability: Capability): Promise<Scope> {
  return scopeOf(await subjectOf(db, viewer), capability);
}

/** Whose commission statements and notas fiscais a viewer sees (lib/scope.ts commissionScope). */
export async function commissionScopeFor(db: DB, viewer: SessionViewer): Promise<BeneficiaryScope> {
  return commissionScope(await subjectOf(db, viewer));
}

/** Whose income statements (informes de rendimentos) a viewer opens (lib/scope.ts incomeScope). */
export async function incomeScopeFor(db: DB, viewer: SessionViewer): Promise<BeneficiaryScope> {
  return incomeScope(await subjectOf(db, viewer));
}

/** Whose sales the metrics or the sales reports count for a viewer, and whether they set targets (lib/scope.ts). */
export async function salesDataScopeFor(db: DB, viewer: SessionViewer, data: SalesData): Promise<{ scope: Scope; editsTargets: boolean }> {
  const subject = await subjectOf(db, viewer);
  return { scope: salesDataScope(subject, data), editsTargets: mayEditTargets(subject) };
}

/** Whose quotes and proposals a viewer sees (lib/scope.ts quoteScope): the history's rule. */
export async function quoteScopeFor(db: DB, viewer: SessionViewer): Promise<Scope> {
  return quoteScope(await subjectOf(db, viewer));
}

/** The scope of documents (lib/scope.ts documentScope): whoever sees the policies, and every seller their own sales. */
export async function documentScopeFor(db: DB, viewer: SessionViewer): Promise<Scope> {
  return documentScope(await scopeFor(db, viewer, 'APOLICES'), viewer.user.idUsuario);
}

/**
 * A sale (a quote, or the policy it became) within a scope, by its seller and company columns: the
 * one condition every list, detail, PDF and download of what was sold applies.
 */
export function soldWithin(scope: Scope, seller: Expression<number>, company: Expression<number | null>): Expression<SqlBool> {
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  if (scope.kind === 'none') return sql<SqlBool>`false`;
  if (scope.kind === 'own' || scope.companyIds.length === 0) return sql<SqlBool>`${seller} = ${scope.userId}`;
  return sql<SqlBool>`(${seller} = ${scope.userId} or ${company} in (${sql.join(scope.companyIds)}))`;
}

/**
 * soldWithin as disjoint branches, one condition per index (issue 29): each company of the scope, and
 * the viewer's own sales made for no company of it. A keyset page (db/keyset-page.ts) reads each
 * branch in its index's order; an OR of them would fetch and sort the whole scope. No branch: nothing.
 */
export function soldWithinBranches(scope: Scope, seller: Expression<number>, company: Expression<number | null>): Expression<SqlBool>[] {
  if (scope.kind === 'all') return [sql<SqlBool>`true`];
  if (scope.kind === 'none') return [];
  if (scope.kind === 'own' || scope.companyIds.length === 0) return [sql<SqlBool>`${seller} = ${scope.userId}`];
  const ids = sql.join(scope.companyIds);
  return [
    ...scope.companyIds.map((id) => sql<SqlBool>`${company} = ${id}`),
    sql<SqlBool>`(${seller} = ${scope.userId} and (${company} is null or ${company} not in (${ids})))`,
  ];
}

/**
 * A commission's beneficiary within a beneficiary scope, by the sale's company and seller columns: a
 * company's sales are the company's; a sale made without a company is the seller's own, as a person.
 */
export function beneficiaryWithin(
  scope: BeneficiaryScope,
  company: Expression<number | null>,
  seller: Expression<number | null>,
): Expression<SqlBool> {
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  const byCompany = scope.companyIds.length > 0 ? sql<SqlBool>`${company} in (${sql.join(scope.companyIds)})` : sql<SqlBool>`false`;
  if (scope.userId === null) return byCompany;
  return sql<SqlBool>`(${byCompany} or (${company} is null and ${seller} = ${scope.userId}))`;
}
