import type { DB } from '../../db';
import { now } from '../../clock';
import { invitationCancelledAt, type HistoryLens } from '../identity/access-log';
import { findUserById, loadV1User, loadV2User, profileOf } from '../identity/principals';
import { formatCnpj } from '../../../lib/validators';
import { visibleMenu, type Environment, type Viewer } from '../../../lib/menu-visibility';
import { LEGACY_MENU, V2_MENU, type ExternalLinkKey } from '../../../lib/menus';
import { managedCompanies, mayManage, type Actor } from '../../../lib/user-admin';
import type { SessionViewer } from '../../../lib/session';
import {
  effectiveGrants,
  explainMenu,
  invitationState,
  standingNote,
  type EffectiveGrant,
  type ExplainedItem,
  type GrantSources,
  type InvitationState,
} from '../../../lib/user-page';
import { legacyGroups, visibleUser, type UserRecord } from './user-admin';
import { groupEndsOf } from './grant-ends';
import { sessionsOf } from '../identity/own-sessions';
import type { SessionRow } from '../../../lib/devices';
import { securityOverview, type SecurityOverview } from '../identity/second-factor';
import { documentScopeFor, quoteScopeFor, scopeFor } from '../identity/scope';

/*
 * A page per user (issue 32, decision 069): who the user is, what they can really do and why, and
 * their invitation, sessions and second factor — for an administrator who may see them in the users list (lib/user-admin.ts
 * maySee: the list's own scope); anyone else gets undefined, the page's 404. The sessions and the second
 * factor only to who may manage the user (issue 42, decision 072), and the histories through the
 * viewer's lens (historyLens). What the user can do is
 * the principal the sign-in builds (identity/principals.ts loadV1User / loadV2User) put through the
 * menu's own rule (lib/menu-visibility.ts): the page cannot show a menu the user would not get.
 */

export interface UserPageFacts {
  user: UserRecord & { createdAt: Date; lastAccessAt: Date | null };
  /** The actor may change this user: the page offers the actions. */
  manageable: boolean;
  self: boolean;
  /** The user's companies as the page names them. */
  companies: string[];
  grants: EffectiveGrant[];
  note?: string;
  menu: ExplainedItem[];
  invitation: InvitationState;
  /**
   * The user's open sessions, most recently used first (none marked: they are not the viewer's), and
   * their second factor — null to a viewer who may see the user but not manage them (decision 072).
   */
  security: { sessions: SessionRow[]; secondFactor: SecurityOverview } | null;
}

/** Legacy: each group of the user that still counts, with the permissions it grants and its end. */
async function legacySources(db: DB, user: UserRecord): Promise<GrantSources> {
  const [groups, ends] = await Promise.all([legacyGroups(db), groupEndsOf(db, user.id)]);
  const counts = (name: string) => !ends.has(name) || ends.get(name)! > now();
  return {
    generation: 'v1',
    groups: groups
      .filter((g) => user.groups.includes(g.nome) && counts(g.nome))
      .map((g) => ({ group: g.nome, isAdmin: g.isAdmin, permissions: g.permissions, endsAt: ends.get(g.nome) ?? null })),
  };
}

/** v2: the operations given to the user, and their permission group's with its company. */
async function v2Sources(db: DB, user: UserRecord): Promise<GrantSources> {
  const [direct, group] = await Promise.all([
    db.selectFrom('user_operations').select('operation').where('user_id', '=', user.id).orderBy('operation').execute(),
    user.permissionGroupId === null
      ? undefined
      : db
          .selectFrom('v2_permission_groups as g')
          .innerJoin('companies as c', 'c.id', 'g.company_id')
          .innerJoin('users as u', 'u.permission_group_id', 'g.id')
          .select(['g.id', 'g.nome', 'c.razao_social', 'c.cnpj', 'u.permission_group_ends_at'])
          .where('g.id', '=', user.permissionGroupId)
          .where('u.id', '=', user.id)
          .where((eb) => eb.or([eb('u.permission_group_ends_at', 'is', null), eb('u.permission_group_ends_at', '>', now())]))
          .executeTakeFirst(),
  ]);
  const operations = group
    ? (await db.selectFrom('v2_permission_group_operations').select('operation').where('group_id', '=', group.id).execute()).map(
        (o) => o.operation,
      )
    : [];
  return {
    generation: 'v2',
    sources: {
      profile: profileOf(user.profile),
      direct: direct.map((d) => d.operation),
      group: group
        ? {
            nome: group.nome,
            company: `${group.razao_social} (${formatCnpj(group.cnpj)})`,
            operations,
            endsAt: group.permission_group_ends_at,
          }
        : null,
    },
  };
}

/** The user's principal as sign-in builds it, as the menu's rule takes it. */
async function viewerOfUser(db: DB, row: NonNullable<Awaited<ReturnType<typeof findUserById>>>): Promise<Viewer> {
  return row.generation === 'v1'
    ? { generation: 'v1', user: await loadV1User(db, row) }
    : { generation: 'v2', user: await loadV2User(db, row, { fullyAuthenticated: true }) };
}

/** The newest first-access code of the user (issuing one retires the earlier ones: only it matters). */
const latestFirstAccessCode = (db: DB, userId: number) =>
  db
    .selectFrom('one_time_codes')
    .select(['created_at', 'expires_at', 'used_at'])
    .where('user_id', '=', userId)
    .where('purpose', '=', 'PRIMEIRO_ACESSO')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The invitation of a user as the page and the list show it. */
export async function invitationOf(db: DB, user: Pick<UserRecord, 'id' | 'status' | 'hasPassword'> & { createdAt: Date }) {
  const [code, cancelledAt] = await Promise.all([
    user.status === 'PENDENTE' ? latestFirstAccessCode(db, user.id) : undefined,
    user.status === 'INATIVO' && !user.hasPassword ? invitationCancelledAt(db, user.id) : null,
  ]);
  return invitationState(
    {
      status: user.status,
      createdAt: user.createdAt,
      completed: user.hasPassword,
      latestCode: code
        ? { createdAt: new Date(code.created_at), expiresAt: new Date(code.expires_at), usedAt: code.used_at && new Date(code.used_at) }
        : null,
      cancelledAt,
    },
    now(),
  );
}

/**
 * Everything the user's page shows but the histories, for an actor who may see the user; undefined
 * otherwise (another generation, a company the actor does not administer, no such user).
 */
export async function userPageFacts(
  db: DB,
  actor: Actor,
  id: number,
  environment: Environment,
  links: Record<ExternalLinkKey, string>,
): Promise<UserPageFacts | undefined> {
  const record = await visibleUser(db, actor, id);
  const row = record && (await findUserById(db, id));
  if (!record || !row) return undefined;
  const [viewer, grants, groups] = await Promise.all([
    viewerOfUser(db, row),
    row.generation === 'v1' ? legacySources(db, record) : v2Sources(db, record),
    actor.generation === 'v1' ? legacyGroups(db) : [],
  ]);
  const manageable = mayManage(actor, record, groups);
  const [sessions, secondFactor] = manageable ? await Promise.all([sessionsOf(db, id), securityOverview(db, row)]) : [];
  const held = viewer.generation === 'v1' ? { permissions: viewer.user.permissions } : { operations: viewer.user.cdOperacoes };
  const items = viewer.generation === 'v1' ? LEGACY_MENU : V2_MENU;
  const menu = visibleMenu(items, viewer, environment, links);
  const companies =
    record.empresas.length > 0
      ? record.empresas.map((c) => `${c.nome} (${formatCnpj(c.cnpj)})`)
      : record.companyId
        ? await db
            .selectFrom('companies')
            .select(['razao_social', 'cnpj'])
            .where('id', '=', record.companyId)
            .execute()
            .then((rows) => rows.map((c) => `${c.razao_social} (${formatCnpj(c.cnpj)})`))
        : [];
  const createdAt = new Date(row.created_at);
  return {
    user: { ...record, createdAt, lastAccessAt: row.last_access_at ? new Date(row.last_access_at) : null },
    manageable,
    self: record.id === actor.userId,
    companies,
    grants: effectiveGrants(held, grants),
    note: standingNote(grants),
    menu: explainMenu(items, menu, viewer, grants),
    invitation: await invitationOf(db, { ...record, createdAt }),
    security: sessions && secondFactor ? { sessions, secondFactor } : null,
  };
}

/**
 * How `viewer` reads a user's history (issue 42, decision 072): whoever manages every user of the
 * generation (the insurer's ADMIN, the legacy admin group) reads it all, as they read the log; anyone
 * else the rows of their own scope — the companies they administer, the sales their scopes hold — and
 * the user's security events only when they may manage the user (`manageable`, lib/user-admin.ts).
 */
export async function historyLens(db: DB, actor: Actor, viewer: SessionViewer, manageable: boolean): Promise<HistoryLens> {
  const companies = managedCompanies(actor);
  if (companies === 'all') return { kind: 'all' };
  // A policy is the viewer's when any page of theirs opens it: BOLETOS holds APOLICES and the charges (lib/scope.ts).
  const [policies, quotes, documents] = await Promise.all([
    scopeFor(db, viewer, 'BOLETOS'),
    quoteScopeFor(db, viewer),
    documentScopeFor(db, viewer),
  ]);
  return {
    kind: 'scoped',
    generation: actor.generation,
    companyIds: companies,
    records: { APOLICE: policies, COTACAO: quotes, PROPOSTA: quotes, DOCUMENTO: documents },
    security: manageable,
  };
}

/** The lens on user `id`'s history when the actor may see the user (their list's rule); undefined otherwise. */
export async function historyAccess(db: DB, actor: Actor, viewer: SessionViewer, id: number): Promise<HistoryLens | undefined> {
  const record = await visibleUser(db, actor, id);
  if (!record) return undefined;
  const groups = actor.generation === 'v1' ? await legacyGroups(db) : [];
  return historyLens(db, actor, viewer, mayManage(actor, record, groups));
}

/** May the lens read the user's security facts — their sign-ins, sessions and second factor. */
export const readsSecurity = (lens: HistoryLens) => lens.kind === 'all' || lens.security;
