import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation, User, UserStatus, V2ProfileCode } from '../../db/schema';
import { DomainError, forbidden, notFound } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { principalFacts, profileOf } from '../identity/principals';
import { queueFirstAccess } from '../identity/account';
import { retireCodes } from '../identity/codes';
import { redactMessagesTo } from '../../mail/outbox';
import { filterUsers } from '../identity/users';
import { appendAccessEvent } from '../identity/access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import {
  heldOperations,
  isLockedOut,
  managedCompanies,
  mayChangeUsers,
  mayListUsers,
  mayManage,
  maySee,
  standingProblems,
  statusOfForm,
  unknownGroups,
  USER_ADMIN_MESSAGES,
  USER_PAGE_SIZE,
  v1GrantProblems,
  v2GrantProblems,
  type Actor,
  type AdminStanding,
  type CompanyFact,
  type FieldErrors,
  type FormStatus,
  type LegacyGroup,
  type LegacyUserInput,
  type LinkData,
  type ManagedUser,
  type OtherAdmins,
  type PersonalData,
  type UserAction,
  type UserStatusCode,
  type V1Actor,
  type V2Actor,
} from '../../../lib/user-admin';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import { formatCnpj, maskCpf } from '../../../lib/validators';

/*
 * User administration (issue 16, decision 046): the list of SPEC §3, creating (with the first-access
 * e-mail), editing, deactivating and blocking users of both generations. The rules are
 * lib/user-admin.ts; this reads what they need and writes in one transaction per change, with an
 * access_events row saying who did what to whom (issue 17's access log). A change that ends a user's
 * access revokes their sessions in the same transaction and tells this instance's caches at once
 * (the database's trigger tells the others, decision 031).
 */

type Db = DB;

// ─── Who asks ────────────────────────────────────────────────────────────────────────────────────

/** The actor behind a signed-in user (either generation), as the rules take it. */
export async function actorOf(db: Db, user: Pick<User, 'id' | 'generation' | 'profile'>): Promise<Actor> {
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

/** SPEC §3's page (`content`, `totalPages`; `page` is 0-based) of the users of the actor's generation they may see. */
export async function listUsers(db: Db, actor: Actor, filters: UserListFilters, page: number, pageSize = USER_PAGE_SIZE) {
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
export async function companyOptions(db: Db, actor: Actor): Promise<CompanyOption[]> {
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

export async function legacyGroups(db: Db): Promise<LegacyGroup[]> {
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
async function readUsers(db: Db, where: { ids: readonly number[] } | { cpf: string }): Promise<UserRecord[]> {
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

const readUser = async (db: Db, where: { id: number } | { cpf: string }) =>
  (await readUsers(db, 'id' in where ? { ids: [where.id] } : where))[0];

/** Of these users (a page of the list), those the actor may change: the others get no edit link nor actions. */
export async function manageableAmong(db: Db, actor: Actor, ids: readonly number[]): Promise<UserRecord[]> {
  if (!mayChangeUsers(actor) || ids.length === 0) return [];
  const users = await readUsers(db, { ids });
  const groups = actor.generation === 'v1' ? await legacyGroups(db) : [];
  return users.filter((user) => mayManage(actor, user, groups));
}

/** The user `id` when the actor may change them; else undefined (the page's 404: a foreign user is not told apart). */
export async function managedUser(db: Db, actor: Actor, where: { id: number } | { cpf: string }): Promise<UserRecord | undefined> {
  if (!mayChangeUsers(actor)) return undefined;
  const user = await readUser(db, where);
  if (!user) return undefined;
  const groups = actor.generation === 'v1' ? await legacyGroups(db) : [];
  return mayManage(actor, user, groups) ? user : undefined;
}

/** May the actor see this user in their list (used by the API's single-user answers). */
export async function visibleUser(db: Db, actor: Actor, id: number): Promise<UserRecord | undefined> {
  const user = await readUser(db, { id });
  return user && maySee(actor, user) ? user : undefined;
}

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────────

/** Unique e-mail and CPF: field errors naming which (409). */
async function duplicates(db: Db, email: string, cpf: string, exceptId?: number): Promise<FieldErrors> {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'cpf'])
    .where((eb) => eb.or([eb('email', '=', email), eb('cpf', '=', cpf)]));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  const errors: FieldErrors = {};
  if (rows.some((r) => r.email === email)) errors.email = [USER_ADMIN_MESSAGES.duplicateEmail];
  if (rows.some((r) => r.cpf === cpf)) errors.cpf = [USER_ADMIN_MESSAGES.duplicateCpf];
  return errors;
}

export const refuse = (errors: FieldErrors, kind: 'invalid' | 'conflict' | 'too-large' = 'invalid'): never => {
  const first = Object.values(errors)[0]?.[0] ?? 'Verifique os campos destacados.';
  throw new DomainError(kind, first, errors);
};

/**
 * A duplicate that slipped past `duplicates` — two requests registering one e-mail or CPF at the same
 * moment — is stopped by the unique indexes; the loser gets the same 409 as if it had come second.
 */
async function uniqueAsConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
    if (code !== '23505' || !constraint?.startsWith('users_')) throw error;
    return refuse(
      constraint.includes('cpf') ? { cpf: [USER_ADMIN_MESSAGES.duplicateCpf] } : { email: [USER_ADMIN_MESSAGES.duplicateEmail] },
      'conflict',
    );
  }
}

/** Any key will do, as long as every change of a user takes the same one. */
const USER_CHANGE_LOCK = 460_016;

/**
 * A change to an existing user, in one transaction that first takes the portal's user-change lock:
 * such changes run one at a time across every instance, so the last-administrator rules, read inside
 * it, cannot be beaten by two administrators deactivating each other at the same moment.
 */
export function inUserChange<T>(db: Db, change: (trx: Db) => Promise<T>): Promise<T> {
  return uniqueAsConflict(
    db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${USER_CHANGE_LOCK})`.execute(trx);
      return change(trx);
    }),
  );
}

/** The other active administrators besides `userId`, of the generation and of the companies given. */
async function otherAdmins(db: Db, generation: 'v1' | 'v2', userId: number, companyIds: readonly number[]): Promise<OtherAdmins> {
  if (generation === 'v1') {
    const { n } = await db
      .selectFrom('users as u')
      .innerJoin('user_groups as ug', 'ug.user_id', 'u.id')
      .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
      .select(sql<number>`count(distinct u.id)::int`.as('n'))
      .where('u.generation', '=', 'v1')
      .where('u.status', '=', 'ATIVO')
      .where((eb) => eb.or([eb('g.is_admin', '=', true), eb('g.nome', '=', V1_ADMIN_GROUP)]))
      .where('u.id', '!=', userId)
      .executeTakeFirstOrThrow();
    return { portal: n, perCompany: new Map() };
  }
  const { n } = await db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('generation', '=', 'v2')
    .where('status', '=', 'ATIVO')
    .where('profile', '=', 'admin')
    .where('id', '!=', userId)
    .executeTakeFirstOrThrow();
  const perCompany = new Map<number, number>();
  if (companyIds.length > 0) {
    const rows = await db
      .selectFrom('user_companies as uc')
      .innerJoin('users as u', 'u.id', 'uc.user_id')
      .select(['uc.company_id', sql<number>`count(*)::int`.as('n')])
      .where('u.status', '=', 'ATIVO')
      .where('u.profile', '=', 'parceiro_admin')
      .where('u.id', '!=', userId)
      .where('uc.company_id', 'in', [...companyIds])
      .groupBy('uc.company_id')
      .execute();
    for (const id of companyIds) perCompany.set(id, rows.find((r) => r.company_id === id)?.n ?? 0);
  }
  return { portal: n, perCompany };
}

async function checkStanding(db: Db, actor: Actor, before: UserRecord, after: AdminStanding): Promise<void> {
  const others = await otherAdmins(db, before.generation, before.id, before.companyIds);
  const problems = standingProblems(before.generation, actor.userId, before.id, before, after, others);
  if (Object.keys(problems).length > 0) refuse(problems, 'conflict');
}

export async function logEvent(
  db: Db,
  event: AccessEventCode,
  target: { id: number; email: string; generation: Generation },
  actorId: number,
  ip: string | null,
  detalhe: string,
) {
  await appendAccessEvent(db, { event, generation: target.generation, email: target.email, userId: target.id, actorId, ip, detalhe });
}

/**
 * Ends what a user holds under the old terms, inside the caller's transaction (the caller announces
 * after the commit): every session, and every reset link and first-access code still out there — a
 * link sent before a block, or to an address since replaced, must not let anyone back in — with their
 * copies in the mailbox.
 */
async function endAccess(trx: Db, user: { id: number; email: string }): Promise<void> {
  await trx.updateTable('sessions').set({ revoked_at: now() }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
  await retireCodes(trx, user.id, ['RESET', 'PRIMEIRO_ACESSO']);
  await redactMessagesTo(trx, user.email);
}

/**
 * After a change, inside its transaction: a user who lost access, or whose e-mail changed, loses
 * what they held; a user left pending (first access not done) gets a new code at the address they
 * have now — the old one went with the old terms.
 */
async function settleAccess(
  trx: Db,
  before: { id: number; email: string; status: UserStatus },
  after: { id: number; email: string; nome: string; status: UserStatus },
): Promise<void> {
  const newEmail = after.email !== before.email;
  if (!isLockedOut(after.status) && !newEmail) {
    if (after.status === 'PENDENTE' && before.status !== 'PENDENTE') await queueFirstAccess(trx, after);
    return;
  }
  await endAccess(trx, before);
  if (after.status === 'PENDENTE') await queueFirstAccess(trx, after);
}

/** After a commit that changed a user: this instance forgets them now, the others when the notice arrives. */
const changed = (db: Db, userId: number) => announce(db, { kind: 'user', userId });

const EVENT_OF_STATUS: Record<UserStatusCode, AccessEventCode> = {
  ATIVO: 'USUARIO_REATIVADO',
  // Only a reactivation leaves a user PENDENTE: one who had not done the first access yet.
  PENDENTE: 'USUARIO_REATIVADO',
  INATIVO: 'USUARIO_DESATIVADO',
  BLOQUEADO: 'USUARIO_BLOQUEADO',
};

/**
 * What a status in a form becomes for a user: 'ativo' is PENDENTE for whoever has no password yet — a
 * new user, or one deactivated before their first access — since only the first access makes them active.
 */
const storedStatus = (form: FormStatus, hasPassword: boolean): UserStatus => {
  const wanted = statusOfForm(form);
  return wanted === 'ATIVO' && !hasPassword ? 'PENDENTE' : wanted;
};

/** Lists what changed between two records, by field name, for the access log (never a CPF or a password). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return keys.length > 0 ? `campos: ${keys.join(', ')}` : 'sem alterações';
}

// ─── Legacy users ────────────────────────────────────────────────────────────────────────────────

async function legacyCompanyId(db: Db, cnpj: string): Promise<number | null | undefined> {
  if (!cnpj) return null;
  const row = await db.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirst();
  return row?.id;
}

export interface SavedUser {
  id: number;
  nome: string;
  email: string;
  status: UserStatus;
}

/** Creates a legacy user (pending until first access) and sends the first-access e-mail. */
export function createLegacyUser(db: Db, actor: V1Actor, input: LegacyUserInput, ip: string | null): Promise<SavedUser> {
  return uniqueAsConflict(db.transaction().execute((trx) => insertLegacyUser(trx, actor, input, ip)));
}

/**
 * Checks and writes a new legacy user inside the caller's transaction (the form's, or a batch of an
 * import): a refusal is thrown before anything is written. The first-access code and its e-mail are
 * written in the same transaction (the delivery job sends it), so a user never exists without them.
 */
export async function insertLegacyUser(trx: Db, actor: V1Actor, input: LegacyUserInput, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const groups = await legacyGroups(trx);
  const companyId = await legacyCompanyId(trx, input.empresa);
  const errors: FieldErrors = {};
  if (companyId === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
  const unknown = unknownGroups(input.grupos, groups);
  Object.assign(errors, v1GrantProblems(actor, { groups: input.grupos, companyId: companyId ?? null }, groups), errors);
  if (unknown) errors.grupos = [USER_ADMIN_MESSAGES.unknownGroup(unknown)];
  if (Object.keys(errors).length > 0) refuse(errors);
  const status = storedStatus(input.status, false);
  const dup = await duplicates(trx, input.email, input.cpf);
  if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
  const user = await trx
    .insertInto('users')
    .values({
      email: input.email,
      nome: input.nome,
      cpf: input.cpf,
      generation: 'v1',
      profile: null,
      status,
      password_hash: null,
      company_id: companyId ?? null,
      created_at: now(),
    })
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  if (companyId) await trx.insertInto('user_companies').values({ user_id: user.id, company_id: companyId }).execute();
  const ids = groups.filter((g) => input.grupos.includes(g.nome)).map((g) => ({ user_id: user.id, group_id: g.id }));
  if (ids.length > 0) await trx.insertInto('user_groups').values(ids).execute();
  if (user.status === 'PENDENTE') await queueFirstAccess(trx, user);
  await logEvent(trx, 'USUARIO_CRIADO', { ...user, generation: 'v1' }, actor.userId, ip, `grupos: ${input.grupos.join(', ') || 'nenhum'}`);
  return user;
}

/** Changes a legacy user: name, e-mail, CPF, company, groups, status. */
export async function updateLegacyUser(db: Db, actor: V1Actor, id: number, input: LegacyUserInput, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const groups = await legacyGroups(trx);
    const companyId = await legacyCompanyId(trx, input.empresa);
    const errors: FieldErrors = {};
    if (companyId === undefined) errors.empresa = [USER_ADMIN_MESSAGES.company];
    const unknown = unknownGroups(input.grupos, groups);
    Object.assign(errors, v1GrantProblems(actor, { groups: input.grupos, companyId: companyId ?? null }, groups, before), errors);
    if (unknown) errors.grupos = [USER_ADMIN_MESSAGES.unknownGroup(unknown)];
    if (Object.keys(errors).length > 0) refuse(errors);
    const status = storedStatus(input.status, before.hasPassword);
    await checkStanding(trx, actor, before, { status, profile: null, groups: input.grupos, companyIds: companyId ? [companyId] : [] });
    const dup = await duplicates(trx, input.email, input.cpf, id);
    if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
    const user = await trx
      .updateTable('users')
      .set({ nome: input.nome, email: input.email, cpf: input.cpf, status, company_id: companyId ?? null })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('user_companies').where('user_id', '=', id).execute();
    if (companyId) await trx.insertInto('user_companies').values({ user_id: id, company_id: companyId }).execute();
    await trx.deleteFrom('user_groups').where('user_id', '=', id).execute();
    const ids = groups.filter((g) => input.grupos.includes(g.nome)).map((g) => ({ user_id: id, group_id: g.id }));
    if (ids.length > 0) await trx.insertInto('user_groups').values(ids).execute();
    await settleAccess(trx, before, user);
    const detail = changedFields(
      { nome: before.nome, email: before.email, cpf: before.cpf, empresa: before.companyId, grupos: before.groups, status: before.status },
      { nome: input.nome, email: input.email, cpf: input.cpf, empresa: companyId ?? null, grupos: input.grupos, status },
    );
    await logEvent(
      trx,
      status !== before.status ? EVENT_OF_STATUS[status] : 'USUARIO_ALTERADO',
      { ...user, generation: 'v1' },
      actor.userId,
      ip,
      detail,
    );
    return user;
  });
  changed(db, id);
  return saved;
}

// ─── v2 users ────────────────────────────────────────────────────────────────────────────────────

/** The companies (by CNPJ) and point of sale a v2 link names, resolved; unknown ones are field errors. */
async function resolveLink(
  db: Db,
  link: LinkData,
): Promise<{
  companies: CompanyFact[];
  pointOfSale: { id: number; companyId: number; active: boolean } | null;
  permissionGroup: { id: number; companyId: number; operations: string[] } | null;
  errors: FieldErrors;
}> {
  const errors: FieldErrors = {};
  const cnpjs = [...new Set(link.empresas)];
  const rows = cnpjs.length ? await db.selectFrom('companies').select(['id', 'cnpj', 'tipo']).where('cnpj', 'in', cnpjs).execute() : [];
  if (rows.length !== cnpjs.length) errors.empresas = [USER_ADMIN_MESSAGES.company];
  let pointOfSale: { id: number; companyId: number; active: boolean } | null = null;
  if (link.pontoVenda) {
    // Shared lock: a point of sale being deactivated meanwhile (which locks it for update) is read
    // after that commits, so no user is put at a point of sale deactivated under them (decision 051).
    const pv = await db
      .selectFrom('points_of_sale')
      .select(['id', 'company_id', 'status'])
      .where('id', '=', Number(link.pontoVenda))
      .forShare()
      .executeTakeFirst();
    if (!pv) errors.pontoVenda = [USER_ADMIN_MESSAGES.unknownPointOfSale];
    else pointOfSale = { id: pv.id, companyId: pv.company_id, active: pv.status === 'ATIVO' };
  }
  let permissionGroup: { id: number; companyId: number; operations: string[] } | null = null;
  if (link.grupoPermissao) {
    const group = await db
      .selectFrom('v2_permission_groups as g')
      .select([
        'g.id',
        'g.company_id',
        sql<string[]>`coalesce((select array_agg(o.operation) from v2_permission_group_operations o where o.group_id = g.id), '{}')`.as(
          'operations',
        ),
      ])
      .where('g.id', '=', Number(link.grupoPermissao))
      .executeTakeFirst();
    if (!group) errors.grupoPermissao = [USER_ADMIN_MESSAGES.unknownPermissionGroup];
    else permissionGroup = { id: group.id, companyId: group.company_id, operations: group.operations };
  }
  return { companies: rows.map((r) => ({ id: r.id, tipo: r.tipo })), pointOfSale, permissionGroup, errors };
}

export interface V2Change {
  dados: PersonalData;
  vinculo: LinkData;
  status?: FormStatus;
}

/** The field errors of a v2 change the actor may not make (empty when it may). */
export async function v2ChangeProblems(db: Db, actor: V2Actor, change: V2Change, before?: UserRecord): Promise<FieldErrors> {
  try {
    await checkV2(db, actor, change, before);
    return {};
  } catch (error) {
    if (error instanceof DomainError && error.fieldErrors) return error.fieldErrors;
    throw error;
  }
}

/** Checks a whole v2 change as the actor may make it; answers what to write. */
async function checkV2(db: Db, actor: V2Actor, change: V2Change, before?: UserRecord) {
  const link = await resolveLink(db, change.vinculo);
  const errors: FieldErrors = { ...link.errors };
  const profile = change.dados.perfil;
  const grant = v2GrantProblems(
    actor,
    {
      profile,
      operations: change.vinculo.operacoes,
      companies: link.companies,
      pointOfSaleCompanyId: link.pointOfSale?.companyId ?? null,
      pointOfSaleInactive: link.pointOfSale ? !link.pointOfSale.active && link.pointOfSale.id !== before?.pointOfSaleId : false,
      permissionGroup: link.permissionGroup,
    },
    before,
  );
  for (const [field, messages] of Object.entries(grant)) errors[field] = [...(errors[field] ?? []), ...messages];
  const known = new Set([...heldOperations({ ...actor, profile: 'ADMIN' })]);
  if (change.vinculo.operacoes.some((op) => !known.has(op))) errors.operacoes = [...(errors.operacoes ?? []), 'Permissão desconhecida.'];
  if (Object.keys(errors).length > 0) refuse(errors);
  const companyIds = profile === 'ADMIN' ? [] : link.companies.map((c) => c.id);
  return {
    companyIds,
    pointOfSaleId: profile === 'ADMIN' ? null : (link.pointOfSale?.id ?? null),
    permissionGroupId: profile === 'ADMIN' ? null : (link.permissionGroup?.id ?? null),
    operations: [...new Set(change.vinculo.operacoes)],
  };
}

async function writeLinks(trx: Db, id: number, companyIds: number[], operations: string[]): Promise<void> {
  await trx.deleteFrom('user_companies').where('user_id', '=', id).execute();
  if (companyIds.length > 0)
    await trx
      .insertInto('user_companies')
      .values(companyIds.map((company_id) => ({ user_id: id, company_id })))
      .execute();
  await trx.deleteFrom('user_operations').where('user_id', '=', id).execute();
  if (operations.length > 0)
    await trx
      .insertInto('user_operations')
      .values(operations.map((operation) => ({ user_id: id, operation })))
      .execute();
}

/** Creates a v2 user (pending) from both steps and sends the first-access e-mail. */
export function createV2User(db: Db, actor: V2Actor, change: V2Change, ip: string | null): Promise<SavedUser> {
  return uniqueAsConflict(db.transaction().execute((trx) => insertV2User(trx, actor, change, ip)));
}

/** Checks and writes a new v2 user inside the caller's transaction (see insertLegacyUser). */
export async function insertV2User(trx: Db, actor: V2Actor, change: V2Change, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const { companyIds, pointOfSaleId, permissionGroupId, operations } = await checkV2(trx, actor, change);
  const { dados } = change;
  const status = storedStatus(change.status ?? 'ativo', false);
  const dup = await duplicates(trx, dados.email, dados.cpf);
  if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
  const user = await trx
    .insertInto('users')
    .values({
      email: dados.email,
      nome: dados.nome,
      cpf: dados.cpf,
      celular: dados.celular,
      generation: 'v2',
      profile: dados.perfil.toLowerCase() as V2ProfileCode,
      status,
      password_hash: null,
      company_id: companyIds[0] ?? null,
      point_of_sale_id: pointOfSaleId,
      permission_group_id: permissionGroupId,
      created_at: now(),
    })
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  await writeLinks(trx, user.id, companyIds, operations);
  if (user.status === 'PENDENTE') await queueFirstAccess(trx, user);
  await trx
    .deleteFrom('user_admin_drafts')
    .where('actor_id', '=', actor.userId)
    .where('cpf', '=', dados.cpf)
    .where('acao', '=', 'novo')
    .execute();
  await logEvent(
    trx,
    'USUARIO_CRIADO',
    { ...user, generation: 'v2' },
    actor.userId,
    ip,
    `perfil: ${dados.perfil}; permissões: ${operations.length}`,
  );
  return user;
}

/** Changes a v2 user from both steps (and the status when given). */
export async function updateV2User(db: Db, actor: V2Actor, id: number, change: V2Change, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const { companyIds, pointOfSaleId, permissionGroupId, operations } = await checkV2(trx, actor, change, before);
    const { dados } = change;
    const status = change.status ? storedStatus(change.status, before.hasPassword) : before.status;
    await checkStanding(trx, actor, before, { status, profile: dados.perfil, groups: [], companyIds });
    const dup = await duplicates(trx, dados.email, dados.cpf, id);
    if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
    const user = await trx
      .updateTable('users')
      .set({
        nome: dados.nome,
        email: dados.email,
        cpf: dados.cpf,
        celular: dados.celular,
        profile: dados.perfil.toLowerCase() as V2ProfileCode,
        status,
        company_id: companyIds[0] ?? null,
        point_of_sale_id: pointOfSaleId,
        permission_group_id: permissionGroupId,
      })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await writeLinks(trx, id, companyIds, operations);
    await settleAccess(trx, before, user);
    await trx
      .deleteFrom('user_admin_drafts')
      .where('actor_id', '=', actor.userId)
      .where('cpf', '=', before.cpf ?? dados.cpf)
      .where('acao', '=', 'editar')
      .execute();
    const detail = changedFields(
      {
        nome: before.nome,
        email: before.email,
        cpf: before.cpf,
        celular: before.celular,
        perfil: before.profile,
        empresas: before.companyIds,
        pontoVenda: before.pointOfSaleId,
        grupoPermissao: before.permissionGroupId,
        operacoes: before.operations,
        status: before.status,
      },
      {
        nome: dados.nome,
        email: dados.email,
        cpf: dados.cpf,
        celular: dados.celular,
        perfil: dados.perfil,
        empresas: companyIds,
        pontoVenda: pointOfSaleId,
        grupoPermissao: permissionGroupId,
        operacoes: [...operations].sort(),
        status,
      },
    );
    await logEvent(
      trx,
      status !== before.status ? EVENT_OF_STATUS[status] : 'USUARIO_ALTERADO',
      { ...user, generation: 'v2' },
      actor.userId,
      ip,
      detail,
    );
    return user;
  });
  changed(db, id);
  return saved;
}

// ─── Status (both generations) ───────────────────────────────────────────────────────────────────

/** Activates, deactivates or blocks a user; leaving ATIVO ends their sessions at once. */
export async function setUserStatus(db: Db, actor: Actor, id: number, form: FormStatus, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const result = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const status = storedStatus(form, before.hasPassword);
    if (status === before.status) return { saved: { id, nome: before.nome, email: before.email, status }, changed: false };
    await checkStanding(trx, actor, before, { ...before, status });
    const user = await trx
      .updateTable('users')
      .set({ status })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await settleAccess(trx, before, user);
    await logEvent(
      trx,
      EVENT_OF_STATUS[status],
      { ...user, generation: before.generation },
      actor.userId,
      ip,
      `situação: ${before.status} → ${status}`,
    );
    return { saved: user, changed: true };
  });
  if (result.changed) changed(db, id);
  return result.saved;
}

// ─── The v2 steps' drafts ────────────────────────────────────────────────────────────────────────

export interface UserDraft {
  dados?: PersonalData;
  vinculo?: LinkData;
}

export async function readDraft(db: Db, actor: Actor, cpf: string, acao: UserAction): Promise<UserDraft | undefined> {
  const row = await db
    .selectFrom('user_admin_drafts')
    .select('dados')
    .where('actor_id', '=', actor.userId)
    .where('cpf', '=', cpf)
    .where('acao', '=', acao)
    .executeTakeFirst();
  return row ? (row.dados as UserDraft) : undefined;
}

/** Keeps a step's answer in the actor's draft for this CPF (made by the first step). */
export async function saveDraft(db: Db, actor: Actor, cpf: string, acao: UserAction, step: Partial<UserDraft>): Promise<void> {
  await db
    .insertInto('user_admin_drafts')
    .values({ actor_id: actor.userId, cpf, acao, dados: JSON.stringify(step), updated_at: now() })
    .onConflict((oc) =>
      oc.columns(['actor_id', 'cpf', 'acao']).doUpdateSet({ dados: sql`user_admin_drafts.dados || excluded.dados`, updated_at: now() }),
    )
    .execute();
}

/** Moves a draft to another CPF (the first step changed it): the later steps come along. */
export async function moveDraft(db: Db, actor: Actor, from: string, to: string, acao: UserAction): Promise<void> {
  if (from === to) return;
  await db.transaction().execute(async (trx) => {
    const old = await trx
      .deleteFrom('user_admin_drafts')
      .where('actor_id', '=', actor.userId)
      .where('cpf', '=', from)
      .where('acao', '=', acao)
      .returning('dados')
      .executeTakeFirst();
    if (!old) return;
    await trx.deleteFrom('user_admin_drafts').where('actor_id', '=', actor.userId).where('cpf', '=', to).where('acao', '=', acao).execute();
    await trx
      .insertInto('user_admin_drafts')
      .values({ actor_id: actor.userId, cpf: to, acao, dados: JSON.stringify(old.dados), updated_at: now() })
      .execute();
  });
}

/** The draft of an existing user to edit starts from what they have. */
export function draftOfUser(user: UserRecord): Required<UserDraft> {
  return {
    dados: {
      cpf: user.cpf ?? '',
      nome: user.nome,
      email: user.email,
      celular: user.celular ?? '',
      perfil: user.profile ?? 'PARCEIRO',
    },
    vinculo: {
      empresas: user.empresas.map((c) => c.cnpj),
      pontoVenda: user.pointOfSaleId ? String(user.pointOfSaleId) : '',
      grupoPermissao: user.permissionGroupId ? String(user.permissionGroupId) : '',
      operacoes: [...user.operations],
    },
  };
}

/** A CPF already taken by someone (for the first step's early message). */
export async function cpfTaken(db: Db, cpf: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('cpf', '=', cpf);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}
export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

// ─── Shapes the screens show ─────────────────────────────────────────────────────────────────────

export const cnpjLabel = (cnpj: string) => formatCnpj(cnpj);
export const cpfLabel = (cpf: string | null) => (cpf ? maskCpf(cpf) : '—');
