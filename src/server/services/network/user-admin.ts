import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { principalFacts, profileOf } from '../identity/principals';
import { filterUsers, usersMatching } from '../identity/users';
import { resetSecondFactor } from '../identity/second-factor';
import { revokeUserSessions } from '../identity/sessions';
import {
  managedCompanies,
  mayChangeUsers,
  mayListUsers,
  mayManage,
  maySee,
  USER_ADMIN_MESSAGES,
  USER_PAGE_SIZE,
  type Actor,
  type CompanyFact,
  type LegacyGroup,
  type ManagedUser,
} from '../../../lib/user-admin';
import { formatCnpj, maskCpf } from '../../../lib/validators';

/*
 * User administration (issue 16, decision 046): the list of SPEC §3, creating (with the first-access
 * e-mail), editing, deactivating and blocking users of both generations. The rules are
 * lib/user-admin.ts; this reads what they need and writes in one transaction per change, with an
 * access_events row saying who did what to whom (issue 17's access log). A change that ends a user's
 * access revokes their sessions in the same transaction and tells this instance's caches at once
 * (the database's trigger tells the others, decision 031).
 *
 * This file holds who asks and the reading; what every change shares and the status change are in
 * user-admin-writing.ts, the changes of each generation in user-admin-legacy.ts and user-admin-v2.ts,
 * the v2 steps' drafts in user-admin-drafts.ts.
 */

// ─── Who asks ────────────────────────────────────────────────────────────────────────────────────

/** The actor behind a signed-in user (either generation), as the rules take it. */
export async function actorOf(db: DB, user: Pick<User, 'id' | 'generation' | 'profile'>): Promise<Actor> {
  // The principal's facts are cached per user (decision 031): a page asks no more of the database.
  const facts = await principalFacts(db, user.id);
  if (user.generation === 'v1')
    return { generation: 'v1', userId: user.id, groups: facts.groups, permissions: facts.permissions, companyId: facts.companyId };
  return {
    generation: 'v2',
    userId: user.id,
    profile: profileOf(user.profile),
    operations: facts.operations,
    companyIds: facts.companies.map((c) => c.id),
  };
}

export function requireList(actor: Actor): void {
  if (!mayListUsers(actor)) throw forbidden('Você não tem permissão para consultar usuários.');
}
export function requireChange(actor: Actor): void {
  if (!mayChangeUsers(actor)) throw forbidden(USER_ADMIN_MESSAGES.forbidden);
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

export interface UserListFilters {
  email?: string;
  nome?: string;
  empresa?: string;
  status?: string;
}

/** The users the list's filters match among those the actor sees, as a query (the bulk selection's and the export's rows); undefined: none. */
export function usersInScope(db: DB, actor: Actor, filters: UserListFilters) {
  const companies = managedCompanies(actor);
  return usersMatching(db, { ...filters, generation: actor.generation, companyIds: companies === 'all' ? undefined : [...companies] });
}

/** SPEC §3's page (`content`, `totalPages`; `page` is 0-based) of the users of the actor's generation they may see. */
export async function listUsers(db: DB, actor: Actor, filters: UserListFilters, page: number, pageSize = USER_PAGE_SIZE) {
  requireList(actor);
  const companies = managedCompanies(actor);
  return filterUsers(db, {
    ...filters,
    page,
    pageSize,
    generation: actor.generation,
    companyIds: companies === 'all' ? undefined : [...companies],
  });
}

export interface CompanyOption extends CompanyFact {
  cnpj: string;
  nome: string;
  pontosVenda: { id: number; nome: string; codigo: string; ativo: boolean }[];
}

/** The companies the actor manages (every one for the admin group and ADMIN), with their points of sale. */
export async function companyOptions(db: DB, actor: Actor): Promise<CompanyOption[]> {
  const companies = managedCompanies(actor);
  if (companies !== 'all' && companies.length === 0) return [];
  let query = db.selectFrom('companies').select(['id', 'cnpj', 'razao_social', 'tipo']).orderBy('razao_social');
  if (companies !== 'all') query = query.where('id', 'in', [...companies]);
  const rows = await query.execute();
  const points =
    rows.length === 0
      ? []
      : await db
          .selectFrom('points_of_sale')
          .select(['id', 'company_id', 'nome', 'codigo', 'status'])
          .where(
            'company_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('codigo')
          .execute();
  return rows.map((r) => ({
    id: r.id,
    cnpj: r.cnpj,
    nome: r.razao_social,
    tipo: r.tipo,
    pontosVenda: points
      .filter((p) => p.company_id === r.id)
      .map((p) => ({ id: p.id, nome: p.nome, codigo: p.codigo, ativo: p.status === 'ATIVO' })),
  }));
}

export async function legacyGroups(db: DB): Promise<LegacyGroup[]> {
  const groups = await db.selectFrom('permission_groups').select(['id', 'nome', 'is_admin']).orderBy('nome').execute();
  const permissions = await db.selectFrom('group_permissions').selectAll().execute();
  return groups.map((g) => ({
    id: g.id,
    nome: g.nome,
    isAdmin: g.is_admin,
    permissions: permissions
      .filter((p) => p.group_id === g.id)
      .map((p) => ({ nome: p.nome, permiteVisualizacao: p.permite_visualizacao, permiteAlteracao: p.permite_alteracao })),
  }));
}

/** A user as the forms show them: every field, the CPF whole (only to who may change them). */
export interface UserRecord extends ManagedUser {
  nome: string;
  email: string;
  cpf: string | null;
  celular: string | null;
  companyId: number | null;
  pointOfSaleId: number | null;
  permissionGroupId: number | null;
  empresas: { id: number; cnpj: string; nome: string }[];
  /** A user who never chose a password (first access not done) goes back to PENDENTE, not ATIVO. */
  hasPassword: boolean;
}

/** Users with everything the rules and the forms need, in four statements however many they are. */
async function readUsers(db: DB, where: { ids: readonly number[] } | { cpf: string }): Promise<UserRecord[]> {
  let query = db.selectFrom('users').selectAll();
  query = 'ids' in where ? query.where('id', 'in', [...where.ids]) : query.where('cpf', '=', where.cpf);
  const users = 'ids' in where && where.ids.length === 0 ? [] : await query.execute();
  if (users.length === 0) return [];
  const ids = users.map((u) => u.id);
  const [groups, operations, companies] = await Promise.all([
    db
      .selectFrom('user_groups as ug')
      .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
      .select(['ug.user_id', 'g.nome'])
      .where('ug.user_id', 'in', ids)
      .orderBy('g.nome')
      .execute(),
    db.selectFrom('user_operations').select(['user_id', 'operation']).where('user_id', 'in', ids).orderBy('operation').execute(),
    db
      .selectFrom('user_companies as uc')
      .innerJoin('companies as c', 'c.id', 'uc.company_id')
      .select(['uc.user_id', 'c.id', 'c.cnpj', 'c.razao_social'])
      .where('uc.user_id', 'in', ids)
      .orderBy('c.razao_social')
      .execute(),
  ]);
  return users.map((user) => {
    const own = companies.filter((c) => c.user_id === user.id);
    const companyIds = new Set(own.map((c) => c.id));
    if (user.company_id) companyIds.add(user.company_id);
    return {
      id: user.id,
      generation: user.generation,
      status: user.status,
      profile: user.profile ? profileOf(user.profile) : null,
      operations: operations.filter((o) => o.user_id === user.id).map((o) => o.operation),
      groups: groups.filter((g) => g.user_id === user.id).map((g) => g.nome),
      companyIds: [...companyIds],
      nome: user.nome,
      email: user.email,
      cpf: user.cpf,
      celular: user.celular,
      companyId: user.company_id,
      pointOfSaleId: user.point_of_sale_id,
      permissionGroupId: user.permission_group_id,
      empresas: own.map((c) => ({ id: c.id, cnpj: c.cnpj, nome: c.razao_social })),
      hasPassword: user.password_hash !== null,
    };
  });
}

const readUser = async (db: DB, where: { id: number } | { cpf: string }) =>
  (await readUsers(db, 'id' in where ? { ids: [where.id] } : where))[0];

/** Of these users (a page of the list), those the actor may change: the others get no edit link nor actions. */
export async function manageableAmong(db: DB, actor: Actor, ids: readonly number[]): Promise<UserRecord[]> {
  if (!mayChangeUsers(actor) || ids.length === 0) return [];
  const users = await readUsers(db, { ids });
  const groups = actor.generation === 'v1' ? await legacyGroups(db) : [];
  return users.filter((user) => mayManage(actor, user, groups));
}

/** The ids among `ids` of the users the actor may change (a list marks their rows' actions). */
export async function manageableIds(db: DB, actor: Actor, ids: readonly number[]): Promise<Set<number>> {
  return new Set((await manageableAmong(db, actor, ids)).map((u) => u.id));
}

/** The user `id` when the actor may change them; else undefined (the page's 404: a foreign user is not told apart). */
export async function managedUser(db: DB, actor: Actor, where: { id: number } | { cpf: string }): Promise<UserRecord | undefined> {
  if (!mayChangeUsers(actor)) return undefined;
  const user = await readUser(db, where);
  if (!user) return undefined;
  const groups = actor.generation === 'v1' ? await legacyGroups(db) : [];
  return mayManage(actor, user, groups) ? user : undefined;
}

export const SECOND_FACTOR_RESET_MESSAGE =
  'Verificação em duas etapas redefinida. As sessões do usuário foram encerradas; no próximo acesso ele a configura de novo.';

/**
 * Resets the second factor of a user the actor manages (issue 32, decision 068): factors, recovery
 * codes and remembered browsers go, and so do the user's sessions — whoever had the phone is out too.
 */
export async function resetUserSecondFactor(db: DB, actor: Actor, id: number, ip: string | null): Promise<void> {
  const target = await managedUser(db, actor, { id });
  if (!target) throw notFound(USER_ADMIN_MESSAGES.notManaged);
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await resetSecondFactor(db, user, actor.userId, ip);
  // The login page tells the user why they were sent back (issue 42).
  await revokeUserSessions(db, id, 'segundo-fator-redefinido');
}

/** May the actor see this user in their list (used by the API's single-user answers). */
export async function visibleUser(db: DB, actor: Actor, id: number): Promise<UserRecord | undefined> {
  const user = await readUser(db, { id });
  return user && maySee(actor, user) ? user : undefined;
}

// ─── Shapes the screens show ─────────────────────────────────────────────────────────────────────

export const cnpjLabel = (cnpj: string) => formatCnpj(cnpj);
export const cpfLabel = (cpf: string | null) => (cpf ? maskCpf(cpf) : '—');
