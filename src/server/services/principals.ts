import { sql } from 'kysely';
import type { DB } from '../db';
import type { User } from '../db/schema';
import { formatDateTime } from '../../lib/format';
import type { Profile, V1Permission } from '../../lib/permissions';
import type { Company, V1SessionUser, V2SessionUser } from '../../lib/session';

/** Builds what a page or endpoint knows of a signed-in user: groups and permissions, or profile and operations. */

export async function v1Permissions(db: DB, userId: number): Promise<{ groups: string[]; permissions: V1Permission[] }> {
  const groups = await db
    .selectFrom('user_groups as ug')
    .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
    .select(['g.nome'])
    .where('ug.user_id', '=', userId)
    .orderBy('g.nome')
    .execute();
  // A permission granted by any of the user's groups counts (OR over groups).
  const permissions = await db
    .selectFrom('user_groups as ug')
    .innerJoin('group_permissions as gp', 'gp.group_id', 'ug.group_id')
    .select([
      'gp.nome',
      sql<boolean>`bool_or(gp.permite_visualizacao)`.as('permiteVisualizacao'),
      sql<boolean>`bool_or(gp.permite_alteracao)`.as('permiteAlteracao'),
    ])
    .where('ug.user_id', '=', userId)
    .groupBy('gp.nome')
    .orderBy('gp.nome')
    .execute();
  return { groups: groups.map((g) => g.nome), permissions };
}

export async function loadV1User(db: DB, user: User): Promise<V1SessionUser> {
  const { groups, permissions } = await v1Permissions(db, user.id);
  return {
    generation: 'v1',
    idUsuario: user.id,
    nome: user.nome,
    email: user.email,
    profile: groups,
    permissions,
    dataUltimoAcessoFormatada: formatDateTime(user.previous_access_at ?? user.last_access_at ?? new Date()),
  };
}

export const profileOf = (code: string | null): Profile => (code ?? '').toUpperCase() as Profile;

export async function companiesOf(db: DB, userId: number): Promise<Company[]> {
  return db
    .selectFrom('user_companies as uc')
    .innerJoin('companies as c', 'c.id', 'uc.company_id')
    .select(['c.cnpj as cdCnpj', 'c.razao_social as nmRazaoSocial'])
    .where('uc.user_id', '=', userId)
    .orderBy('c.razao_social')
    .execute();
}

export async function loadV2User(db: DB, user: User, options: { fullyAuthenticated: boolean; empresa?: string }): Promise<V2SessionUser> {
  const [operations, empresas] = await Promise.all([
    db.selectFrom('user_operations').select('operation').where('user_id', '=', user.id).orderBy('operation').execute(),
    companiesOf(db, user.id),
  ]);
  return {
    generation: 'v2',
    idUsuario: user.id,
    nmUsuario: user.nome,
    email: user.email,
    cdPerfilUsuario: user.profile ?? '',
    profile: profileOf(user.profile),
    cdOperacoes: operations.map((o) => o.operation),
    cdCnpjEmpresa: options.empresa ?? empresas[0]?.cdCnpj ?? null,
    empresas,
    fullyAuthenticated: options.fullyAuthenticated,
  };
}

export const findUserById = (db: DB, id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
export const findUserByEmail = (db: DB, email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
