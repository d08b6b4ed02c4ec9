import { sql } from 'kysely';
import type { DB } from '../../db';
import { grantEndChanges } from '../../../lib/grant-ends';
import { forbidden, notFound } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { refuse } from './user-admin-writing';
import { containing } from '../identity/users';
import { appendAccessEvent } from '../identity/access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import {
  ACCESS_GROUP_MESSAGES as M,
  isAdminGroup,
  mayEditLegacyGroups,
  mayManagePermissionGroups,
  mayRegrantHolders,
  permissionChanges,
  permissionGroupCompanies,
  permissionGroupProblems,
  permissionsOfForm,
  type LegacyGroupInput,
  type PermissionGroupInput,
} from '../../../lib/access-groups';
import type { FieldErrors, V1Actor, V2Actor } from '../../../lib/user-admin';
import type { V1Permission } from '../../../lib/permissions';

/*
 * The groups that hold permissions (issue 16, decision 047): the legacy access groups per channel
 * and the v2 permission groups per company. Rules in lib/access-groups.ts; this reads and writes,
 * one transaction per change, with an access_events row saying who changed what (issue 17's access
 * log). The database's change notices (migrations 006, 017) drop every cached principal the change
 * touches, on every instance: a group's users get the new permissions on their next request.
 */

/**
 * An access_events row for a change that is not of one user: the actor is the subject. A v2 group is
 * its company's (companyId); a legacy group — or a channel — serves no one company.
 */
export async function logGroupEvent(
  db: DB,
  event: AccessEventCode,
  actorId: number,
  generation: 'v1' | 'v2',
  ip: string | null,
  detalhe: string,
  companyId: number | null = null,
) {
  const actor = await db.selectFrom('users').select('email').where('id', '=', actorId).executeTakeFirstOrThrow();
  await appendAccessEvent(db, { event, generation, email: actor.email, userId: null, actorId, ip, detalhe, companyId });
}

// ─── Legacy access groups ────────────────────────────────────────────────────────────────────────

export interface ChannelGroups {
  id: number;
  codigo: string;
  nome: string;
  status: 'ATIVO' | 'INATIVO';
  groups: { id: number; nome: string; descricao: string; isAdmin: boolean; usuarios: number; permissoes: number }[];
}

/** Every channel with its groups, the users and permissions each holds (one statement). */
export async function legacyGroupsByChannel(db: DB): Promise<ChannelGroups[]> {
  const rows = await db
    .selectFrom('channels as c')
    .leftJoin('permission_groups as g', 'g.channel_id', 'c.id')
    .select([
      'c.id as channelId',
      'c.codigo',
      'c.nome as channelName',
      'c.status',
      'g.id',
      'g.nome',
      'g.descricao',
      'g.is_admin',
      sql<number>`(select count(*)::int from user_groups ug join users u on u.id = ug.user_id where ug.group_id = g.id and u.status <> 'INATIVO')`.as(
        'usuarios',
      ),
      sql<number>`(select count(*)::int from group_permissions gp where gp.group_id = g.id)`.as('permissoes'),
    ])
    .orderBy('c.nome')
    .orderBy('g.nome')
    .execute();
  const channels = new Map<number, ChannelGroups>();
  for (const r of rows) {
    const channel = channels.get(r.channelId) ?? { id: r.channelId, codigo: r.codigo, nome: r.channelName, status: r.status, groups: [] };
    channels.set(r.channelId, channel);
    if (r.id !== null)
      channel.groups.push({
        id: r.id,
        nome: r.nome!,
        descricao: r.descricao!,
        isAdmin: r.is_admin!,
        usuarios: r.usuarios,
        permissoes: r.permissoes,
      });
  }
  return [...channels.values()];
}

export interface LegacyGroupRecord {
  id: number;
  nome: string;
  descricao: string;
  isAdmin: boolean;
  channel: { id: number; codigo: string; nome: string; status: 'ATIVO' | 'INATIVO' };
  permissions: V1Permission[];
  /** The permissions that end (decision 071), by code: the instant each stops counting. */
  ends: Record<string, Date>;
  usuarios: number;
}

export async function channelOf(db: DB, codigo: string) {
  return db.selectFrom('channels').select(['id', 'codigo', 'nome', 'status']).where('codigo', '=', codigo).executeTakeFirst();
}

/** The group `nome` of channel `canal`; undefined when either is unknown or they do not match (the 404). */
export async function legacyGroupOf(db: DB, nome: string, canal: string): Promise<LegacyGroupRecord | undefined> {
  const row = await db
    .selectFrom('permission_groups as g')
    .innerJoin('channels as c', 'c.id', 'g.channel_id')
    .select([
      'g.id',
      'g.nome',
      'g.descricao',
      'g.is_admin',
      'c.id as channelId',
      'c.codigo',
      'c.nome as channelName',
      'c.status',
      sql<number>`(select count(*)::int from user_groups ug join users u on u.id = ug.user_id where ug.group_id = g.id and u.status <> 'INATIVO')`.as(
        'usuarios',
      ),
    ])
    .where('g.nome', '=', nome)
    .where('c.codigo', '=', canal)
    .executeTakeFirst();
  if (!row) return undefined;
  const permissions = await db.selectFrom('group_permissions').selectAll().where('group_id', '=', row.id).orderBy('nome').execute();
  return {
    id: row.id,
    nome: row.nome,
    descricao: row.descricao,
    isAdmin: row.is_admin,
    channel: { id: row.channelId, codigo: row.codigo, nome: row.channelName, status: row.status },
    permissions: permissions.map((p) => ({
      nome: p.nome,
      permiteVisualizacao: p.permite_visualizacao,
      permiteAlteracao: p.permite_alteracao,
    })),
    ends: Object.fromEntries(permissions.flatMap((p) => (p.ends_at ? [[p.nome, p.ends_at]] : []))),
    usuarios: row.usuarios,
  };
}

/**
 * Creates a group in a channel, or changes one (its name, description and permissions). Only the
 * admin group does it; the admin group itself is not changed. Answers the saved group's name.
 * `ends`, when the form gives them, are the permissions' end dates (decision 071; null: no end);
 * without them a permission kept keeps its end.
 */
export async function saveLegacyGroup(
  db: DB,
  actor: V1Actor,
  target: { channelCodigo: string; existing?: LegacyGroupRecord },
  input: LegacyGroupInput,
  ip: string | null,
  ends?: ReadonlyMap<string, Date | null>,
): Promise<string> {
  if (!mayEditLegacyGroups(actor)) throw forbidden(M.forbidden);
  const { existing } = target;
  if (existing && isAdminGroup(existing)) refuse({ form: [M.adminGroup] }, 'conflict');
  const channel = existing?.channel ?? (await channelOf(db, target.channelCodigo));
  if (!channel) throw notFound('Canal não encontrado.');
  if (!existing && channel.status !== 'ATIVO') refuse({ form: [M.channel] }, 'conflict');
  const permissions = permissionsOfForm(input);
  const endOf = (code: string) => (ends ? (ends.get(code) ?? null) : (existing?.ends[code] ?? null));
  const endsAfter = new Map(permissions.map((p) => [p.nome, endOf(p.nome)]));
  await db.transaction().execute(async (trx) => {
    const clash = await trx
      .selectFrom('permission_groups')
      .select('id')
      .where('nome', '=', input.nome)
      .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
      .executeTakeFirst();
    if (clash) refuse({ nome: [M.duplicate] }, 'conflict');
    const id = existing
      ? (
          await trx
            .updateTable('permission_groups')
            .set({ nome: input.nome, descricao: input.descricao })
            .where('id', '=', existing.id)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      : (
          await trx
            .insertInto('permission_groups')
            .values({ nome: input.nome, descricao: input.descricao, is_admin: false, channel_id: channel.id })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
    await trx.deleteFrom('group_permissions').where('group_id', '=', id).execute();
    if (permissions.length > 0)
      await trx
        .insertInto('group_permissions')
        .values(
          permissions.map((p) => ({
            group_id: id,
            nome: p.nome,
            permite_visualizacao: p.permiteVisualizacao,
            permite_alteracao: p.permiteAlteracao,
            ends_at: endsAfter.get(p.nome),
          })),
        )
        .execute();
    const renamed = existing && existing.nome !== input.nome ? `nome: ${existing.nome} → ${input.nome}; ` : '';
    await logGroupEvent(
      trx,
      existing ? 'GRUPO_ACESSO_ALTERADO' : 'GRUPO_ACESSO_CRIADO',
      actor.userId,
      'v1',
      ip,
      `grupo ${input.nome} (canal ${channel.codigo}): ${renamed}${permissionChanges(existing?.permissions ?? [], permissions)}${grantEndChanges(existing?.ends ?? {}, endsAfter)}`,
    );
  });
  announce(db, { kind: 'principals' });
  return input.nome;
}

// ─── v2 permission groups ────────────────────────────────────────────────────────────────────────

export function requirePermissionGroups(actor: V2Actor): void {
  if (!mayManagePermissionGroups(actor)) throw forbidden(M.forbiddenV2);
}

export interface PermissionGroupRow {
  id: number;
  nome: string;
  descricao: string;
  empresa: { id: number; cnpj: string; nome: string; tipo: 'PARCEIRO' | 'SUBSTABELECIDO' };
  operacoes: string[];
  usuarios: number;
  updatedAt: Date;
}

const GROUP_PAGE_SIZE = 10;

/** The groups with their company, operations and active users (one statement). */
const groupsQuery = (db: DB) =>
  db
    .selectFrom('v2_permission_groups as g')
    .innerJoin('companies as c', 'c.id', 'g.company_id')
    .select([
      'g.id',
      'g.nome',
      'g.descricao',
      'g.updated_at',
      'c.id as companyId',
      'c.cnpj',
      'c.razao_social',
      'c.tipo',
      sql<
        string[]
      >`coalesce((select array_agg(o.operation order by o.operation) from v2_permission_group_operations o where o.group_id = g.id), '{}')`.as(
        'operacoes',
      ),
      sql<number>`(select count(*)::int from users u where u.permission_group_id = g.id and u.status <> 'INATIVO')`.as('usuarios'),
    ]);

/** The groups of the companies the actor manages, filtered by company (CNPJ) and name, ten per page. */
export async function listPermissionGroups(db: DB, actor: V2Actor, filters: { empresa?: string; nome?: string }, page: number) {
  requirePermissionGroups(actor);
  const companies = permissionGroupCompanies(actor);
  const empty = { content: [] as PermissionGroupRow[], totalElements: 0, totalPages: 0, page };
  if (companies !== 'all' && companies.length === 0) return empty;
  const rows = await groupsQuery(db)
    .select(sql<number>`count(*) over ()::int`.as('total'))
    .$if(companies !== 'all', (q) => q.where('g.company_id', 'in', [...(companies as readonly number[])]))
    .$if(Boolean(filters.empresa), (q) => q.where('c.cnpj', '=', filters.empresa!))
    .$if(Boolean(filters.nome), (q) => q.where('g.nome', 'ilike', containing(filters.nome!)))
    .orderBy('c.razao_social')
    .orderBy('g.nome')
    .limit(GROUP_PAGE_SIZE)
    .offset((page - 1) * GROUP_PAGE_SIZE)
    .execute();
  const total = rows[0]?.total ?? 0;
  return { content: rows.map(groupRow), totalElements: total, totalPages: Math.ceil(total / GROUP_PAGE_SIZE), page };
}

function groupRow(r: {
  id: number;
  nome: string;
  descricao: string;
  updated_at: Date;
  companyId: number;
  cnpj: string;
  razao_social: string;
  tipo: 'PARCEIRO' | 'SUBSTABELECIDO';
  operacoes: string[];
  usuarios: number;
}): PermissionGroupRow {
  return {
    id: r.id,
    nome: r.nome,
    descricao: r.descricao,
    empresa: { id: r.companyId, cnpj: r.cnpj, nome: r.razao_social, tipo: r.tipo },
    operacoes: r.operacoes,
    usuarios: r.usuarios,
    updatedAt: r.updated_at,
  };
}

/** One group, with the end dates of its operations (decision 071). */
export interface PermissionGroupDetail extends PermissionGroupRow {
  ends: Record<string, Date>;
}

/** Group `id` of company `cnpj`, when the actor manages it; else undefined (the 404). */
export async function permissionGroupOf(db: DB, actor: V2Actor, id: number, cnpj: string): Promise<PermissionGroupDetail | undefined> {
  if (!mayManagePermissionGroups(actor)) return undefined;
  const row = await groupsQuery(db).where('g.id', '=', id).where('c.cnpj', '=', cnpj).executeTakeFirst();
  if (!row) return undefined;
  const companies = permissionGroupCompanies(actor);
  if (companies !== 'all' && !companies.includes(row.companyId)) return undefined;
  const ends = await db
    .selectFrom('v2_permission_group_operations')
    .select(['operation', 'ends_at'])
    .where('group_id', '=', row.id)
    .where('ends_at', 'is not', null)
    .execute();
  return { ...groupRow(row), ends: Object.fromEntries(ends.map((e) => [e.operation, e.ends_at!])) };
}

/** Groups a user of these companies may be given (the vincular step's choice). */
export async function permissionGroupsOfCompanies(db: DB, companyIds: readonly number[]) {
  if (companyIds.length === 0) return [];
  return (
    await groupsQuery(db)
      .where('g.company_id', 'in', [...companyIds])
      .orderBy('g.nome')
      .execute()
  ).map(groupRow);
}

/** The companies of each user holding the group. */
async function holdersCompanies(db: DB, groupId: number): Promise<number[][]> {
  const rows = await db
    .selectFrom('users as u')
    .select(
      sql<
        number[]
      >`array(select uc.company_id from user_companies uc where uc.user_id = u.id union select u.company_id where u.company_id is not null)`.as(
        'companies',
      ),
    )
    .where('u.permission_group_id', '=', groupId)
    .execute();
  return rows.map((r) => r.companies);
}

/** Creates or changes a group; answers its id and company's CNPJ. */
export async function savePermissionGroup(
  db: DB,
  actor: V2Actor,
  input: PermissionGroupInput,
  /** The group as it was; a list's row (no ends read) keeps none. */
  existing: (PermissionGroupRow & { ends?: Record<string, Date> }) | undefined,
  ip: string | null,
  ends?: ReadonlyMap<string, Date | null>,
): Promise<{ id: number; cnpj: string }> {
  requirePermissionGroups(actor);
  const company = await db.selectFrom('companies').select(['id', 'cnpj']).where('cnpj', '=', input.empresa).executeTakeFirst();
  const companies = permissionGroupCompanies(actor);
  const errors: FieldErrors = {};
  if (!company || (companies !== 'all' && !companies.includes(company.id))) errors.empresa = [M.empresa];
  // A group stays in its company: moving it would carry its users' permissions elsewhere.
  if (existing && company && company.id !== existing.empresa.id) errors.empresa = [M.empresa];
  Object.assign(errors, permissionGroupProblems(actor, input.operacoes, existing?.operacoes));
  if (Object.keys(errors).length > 0) refuse(errors);
  const operations = [...new Set(input.operacoes)];
  // The operations' ends as the form gives them (decision 071); without them an operation kept keeps its end.
  const endsAfter = new Map(operations.map((op) => [op, ends ? (ends.get(op) ?? null) : (existing?.ends?.[op] ?? null)]));
  const id = await db.transaction().execute(async (trx) => {
    const regrants = existing && [...operations].sort().join() !== [...existing.operacoes].sort().join();
    if (regrants && !mayRegrantHolders(actor, await holdersCompanies(trx, existing.id)))
      refuse({ operacoes: [M.foreignHolders] }, 'conflict');
    const clash = await trx
      .selectFrom('v2_permission_groups')
      .select('id')
      .where('company_id', '=', company!.id)
      .where(sql<boolean>`lower(nome) = lower(${input.nome})`)
      .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
      .executeTakeFirst();
    if (clash) refuse({ nome: [M.duplicate] }, 'conflict');
    const saved = existing
      ? await trx
          .updateTable('v2_permission_groups')
          .set({ nome: input.nome, descricao: input.descricao, updated_at: now() })
          .where('id', '=', existing.id)
          .returning('id')
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('v2_permission_groups')
          .values({ company_id: company!.id, nome: input.nome, descricao: input.descricao, created_at: now(), updated_at: now() })
          .returning('id')
          .executeTakeFirstOrThrow();
    await trx.deleteFrom('v2_permission_group_operations').where('group_id', '=', saved.id).execute();
    if (operations.length > 0)
      await trx
        .insertInto('v2_permission_group_operations')
        .values(operations.map((operation) => ({ group_id: saved.id, operation, ends_at: endsAfter.get(operation) })))
        .execute();
    const before = new Set(existing?.operacoes ?? []);
    const added = operations.filter((op) => !before.has(op));
    const removed = [...before].filter((op) => !operations.includes(op));
    await logGroupEvent(
      trx,
      existing ? 'GRUPO_PERMISSAO_ALTERADO' : 'GRUPO_PERMISSAO_CRIADO',
      actor.userId,
      'v2',
      ip,
      `grupo "${input.nome}" (${company!.cnpj}): incluídas ${added.join(', ') || 'nenhuma'}; retiradas ${removed.join(', ') || 'nenhuma'}${grantEndChanges(existing?.ends ?? {}, endsAfter)}`,
      company!.id,
    );
    return saved.id;
  });
  announce(db, { kind: 'principals' });
  return { id, cnpj: company!.cnpj };
}

/** Deletes a group no active user holds. */
export async function deletePermissionGroup(db: DB, actor: V2Actor, group: PermissionGroupRow, ip: string | null): Promise<void> {
  requirePermissionGroups(actor);
  await db.transaction().execute(async (trx) => {
    const holder = await trx.selectFrom('users').select('id').where('permission_group_id', '=', group.id).executeTakeFirst();
    if (holder) refuse({ form: [M.inUse] }, 'conflict');
    await trx.deleteFrom('v2_permission_groups').where('id', '=', group.id).execute();
    await logGroupEvent(
      trx,
      'GRUPO_PERMISSAO_EXCLUIDO',
      actor.userId,
      'v2',
      ip,
      `grupo "${group.nome}" (${group.empresa.cnpj})`,
      group.empresa.id,
    );
  });
  announce(db, { kind: 'principals' });
}
