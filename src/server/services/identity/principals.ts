import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { readThrough, type CacheSpec } from '../../cache';
import { formatDateTime } from '../../../lib/format';
import type { Profile, V1Permission } from '../../../lib/permissions';
import type { Company, V1SessionUser, V2SessionUser } from '../../../lib/session';
import { now } from '../../clock';

/** Builds what a page or endpoint knows of a signed-in user: groups and permissions, or profile and operations. */

/** What a user's principal is made of beyond the user row, read in one statement. */
export interface PrincipalFacts {
  /** Legacy permission groups, by name. */
  groups: string[];
  /** A permission granted by any of the user's groups counts (OR over groups). */
  permissions: V1Permission[];
  /** v2 operations. */
  operations: string[];
  /** v2 companies, by company name, with the partner above a sub-delegated one. */
  companies: (Company & { id: number; parentId: number | null })[];
  /** A legacy user's company (users.company_id), whose offers they sell. */
  companyId: number | null;
  /** Where the user sells (users.point_of_sale_id). */
  pointOfSaleId: number | null;
  /** The nearest end (ms) of a grant these facts count (decision 071): past it they are stale. */
  endsAt?: number | null;
}

/**
 * The facts of the user whose row is `u` in the statement it joins — as one JSON column, so that
 * the session query (server/services/identity/sessions.ts) reads a principal in the same round trip.
 * A grant past its end date (migration 047, decision 071) does not count, by the portal's clock at
 * the query — exact on every instance without waiting for the sweep; `endsAt` is the nearest end of
 * those that count, which bounds how long the facts may be cached.
 */
export const principalFactsColumn = (): RawBuilder<PrincipalFacts> => {
  const at = now();
  const live = (column: RawBuilder<unknown>) => sql`(${column} is null or ${column} > ${at})`;
  return sql<PrincipalFacts>`json_build_object(
  'companyId', u.company_id,
  'pointOfSaleId', u.point_of_sale_id,
  'groups', coalesce((select json_agg(g.nome order by g.nome)
    from user_groups ug join permission_groups g on g.id = ug.group_id where ug.user_id = u.id and ${live(sql`ug.ends_at`)}), '[]'),
  'permissions', coalesce((select json_agg(p order by p.nome) from (
    select gp.nome, bool_or(gp.permite_visualizacao) as "permiteVisualizacao", bool_or(gp.permite_alteracao) as "permiteAlteracao"
    from user_groups ug join group_permissions gp on gp.group_id = ug.group_id
    where ug.user_id = u.id and ${live(sql`ug.ends_at`)} and ${live(sql`gp.ends_at`)} group by gp.nome) p), '[]'),
  'operations', coalesce((select json_agg(o.operation order by o.operation) from (
    select operation from user_operations where user_id = u.id
    union select operation from v2_permission_group_operations
      where group_id = u.permission_group_id and ${live(sql`u.permission_group_ends_at`)} and ${live(sql`ends_at`)}) o), '[]'),
  'companies', coalesce((select json_agg(json_build_object('id', c.id, 'parentId', c.parent_id, 'cdCnpj', c.cnpj, 'nmRazaoSocial', c.razao_social)
    order by c.razao_social) from user_companies uc join companies c on c.id = uc.company_id where uc.user_id = u.id), '[]'),
  'endsAt', (select extract(epoch from min(e)) * 1000 from (
    select ug.ends_at as e from user_groups ug where ug.user_id = u.id and ug.ends_at > ${at}
    union all select gp.ends_at from user_groups ug join group_permissions gp on gp.group_id = ug.group_id
      where ug.user_id = u.id and ${live(sql`ug.ends_at`)} and gp.ends_at > ${at}
    union all select u.permission_group_ends_at where u.permission_group_ends_at > ${at}
    union all select o.ends_at from v2_permission_group_operations o
      where o.group_id = u.permission_group_id and ${live(sql`u.permission_group_ends_at`)} and o.ends_at > ${at}) ends))`;
};

/** Facts by user id; a change to the user, or to groups and companies (many users), drops them. */
export const FACTS_CACHE: CacheSpec<number, PrincipalFacts> = {
  name: 'principal-facts',
  maxEntries: 10_000,
  maxAgeMs: 30_000,
  drops: (change, userId) => change.kind === 'principals' || (change.kind === 'user' && change.userId === userId),
  // A grant that ends (decision 071) ends here too: the entry is not served past it.
  expiresAt: (facts) => (facts.endsAt == null ? null : Number(facts.endsAt)),
};

export function principalFacts(db: DB, userId: number): Promise<PrincipalFacts> {
  return readThrough(db, FACTS_CACHE, userId, async () => {
    const row = await db.selectFrom('users as u').select(principalFactsColumn().as('facts')).where('u.id', '=', userId).executeTakeFirst();
    return frozenFacts(row?.facts ?? { groups: [], permissions: [], operations: [], companies: [], companyId: null, pointOfSaleId: null });
  });
}

/** Cached facts are shared by every request of the user: nobody may change them in place. */
export function frozenFacts(facts: PrincipalFacts): PrincipalFacts {
  for (const list of [facts.groups, facts.permissions, facts.operations, facts.companies]) Object.freeze(list);
  return Object.freeze(facts);
}

export async function v1Permissions(db: DB, userId: number): Promise<{ groups: string[]; permissions: V1Permission[] }> {
  const { groups, permissions } = await principalFacts(db, userId);
  return { groups, permissions };
}

export async function loadV1User(db: DB, user: User): Promise<V1SessionUser> {
  const { groups, permissions } = await principalFacts(db, user.id);
  return {
    generation: 'v1',
    idUsuario: user.id,
    nome: user.nome,
    email: user.email,
    profile: groups,
    permissions,
    dataUltimoAcessoFormatada: formatDateTime(user.previous_access_at ?? user.last_access_at ?? now()),
  };
}

export const profileOf = (code: string | null): Profile => (code ?? '').toUpperCase() as Profile;

export async function loadV2User(db: DB, user: User, options: { fullyAuthenticated: boolean; empresa?: string }): Promise<V2SessionUser> {
  const { operations, companies } = await principalFacts(db, user.id);
  const empresas = companies.map(({ cdCnpj, nmRazaoSocial }) => ({ cdCnpj, nmRazaoSocial }));
  return {
    generation: 'v2',
    idUsuario: user.id,
    nmUsuario: user.nome,
    email: user.email,
    cdPerfilUsuario: user.profile ?? '',
    profile: profileOf(user.profile),
    cdOperacoes: operations,
    cdCnpjEmpresa: options.empresa ?? empresas[0]?.cdCnpj ?? null,
    empresas,
    fullyAuthenticated: options.fullyAuthenticated,
  };
}

export const findUserById = (db: DB, id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
export const findUserByEmail = (db: DB, email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
