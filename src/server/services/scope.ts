import type { DB } from '../db';
import { scopeOf, type Capability, type Scope } from '../../lib/scope';
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
