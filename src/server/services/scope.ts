import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../db';
import { documentScope, scopeOf, type Capability, type Scope } from '../../lib/scope';
import type { SessionViewer } from '../../lib/session';
import { principalFacts } from './principals';

/** The scope of a signed-in viewer for a capability (lib/scope.ts), from the principal in memory. */
export async function scopeFor(db: DB, viewer: SessionViewer, capability: Capability): Promise<Scope> {
  const facts = await principalFacts(db, viewer.user.idUsuario);
  const v2 = viewer.generation === 'v2' ? viewer.user : undefined;
  const acting = v2?.cdCnpjEmpresa ? facts.companies.find((c) => c.cdCnpj === v2.cdCnpjEmpresa) : undefined;
  return scopeOf(
    {
      generation: viewer.generation,
      userId: viewer.user.idUsuario,
      profile: v2?.profile,
      operations: v2?.cdOperacoes ?? [],
      groups: viewer.generation === 'v1' ? viewer.user.profile : [],
      viewablePermissions:
        viewer.generation === 'v1' ? viewer.user.permissions.filter((p) => p.permiteVisualizacao).map((p) => p.nome) : [],
      companyIds: facts.companies.map((c) => c.id),
      actingCompanyId: acting?.id ?? facts.companyId,
    },
    capability,
  );
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
