import { allowsV1, allowsV2, type Viewer, type VisibleItem } from './menu-visibility';
import type { MenuItem } from './menus';
import { canV1, V1_ADMIN_GROUP, type Profile, type V1Permission } from './permissions';
import { operationLabel, PROFILE_LABELS } from './user-admin';
import { grantEndLabel } from './grant-ends';
import { legacyPermissionLabel } from './access-groups';

/*
 * A page per user (issue 32, decision 069), pure: what the user can really do and why, their
 * invitation's state, and the page's addresses. The menu shown is never recomputed here: it is
 * menu-visibility.ts `visibleMenu` of the user's own session principal (the one sign-in builds);
 * this module only says, for each item that rule let through, which of the user's grants did it.
 */

// ─── Addresses ───────────────────────────────────────────────────────────────────────────────────

/** A user's page in each generation: beside its users list (legacy) and under /v2/usuario (v2). */
export const userPagePath = (generation: 'v1' | 'v2', id: number) =>
  generation === 'v1' ? `/consulta-usuarios/${id}` : `/v2/usuario/${id}`;

/** The pending invitations (first accesses) of each generation's users screens. */
export const INVITATIONS_PATH = { v1: '/consulta-usuarios/convites', v2: '/v2/usuario/convites' } as const;

/** The actions a user's page and the invitations list post, by the form's `acao`. */
export const USER_ACTIONS = ['reenviar-convite', 'cancelar-convite', 'forcar-nova-senha', 'sessao-encerrar', 'sessoes-encerrar'] as const;
export type UserPageAction = (typeof USER_ACTIONS)[number];

/** What the page says after each action succeeded (`?aviso=`). */
export const USER_ACTION_NOTICES: Record<UserPageAction, string> = {
  'reenviar-convite': 'Convite reenviado: o usuário recebe um novo código de validação por e-mail; o anterior deixou de valer.',
  'cancelar-convite': 'Convite cancelado: o código enviado deixou de valer e o usuário foi desativado.',
  'forcar-nova-senha':
    'Nova senha exigida: as sessões do usuário foram encerradas, a senha atual deixou de valer e enviamos o e-mail de redefinição.',
  'sessao-encerrar': 'Sessão encerrada: o próximo acesso feito com ela pede entrar de novo.',
  'sessoes-encerrar': 'Sessões encerradas: o usuário precisa entrar de novo em todos os dispositivos.',
};

/** The two histories of the page, each its own keyset list (`?historico=`). */
export const HISTORY_KINDS = {
  entradas: 'Entradas',
  registro: 'Registro de acesso',
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;
/** The access-log events that make up the sign-in history (migration 045's partial index holds exactly these). */
export const SIGN_IN_EVENTS = ['LOGIN', 'LOGIN_FALHOU', 'SEGUNDO_FATOR_FALHOU', 'SSO', 'LOGOUT'] as const;
export const USER_HISTORY_PAGE_SIZE = 10;
export const INVITATIONS_PAGE_SIZE = 20;

// ─── Invitation (first access) ───────────────────────────────────────────────────────────────────

export type InvitationState =
  | { kind: 'pendente'; since: Date; codeSentAt: Date; validUntil: Date }
  | { kind: 'expirado'; since: Date; codeSentAt: Date | null; expiredAt: Date | null }
  | { kind: 'cancelado'; since: Date; cancelledAt: Date }
  | { kind: 'concluido' };

export interface InvitationFacts {
  status: 'ATIVO' | 'PENDENTE' | 'INATIVO' | 'BLOQUEADO';
  /** When the user was registered: the invitation went out then. */
  createdAt: Date;
  /** The user ever completed a first access or had a password (a forced reset clears the hash, not this). */
  completed: boolean;
  /** The newest first-access code: when sent, until when it works, whether it was used or retired. */
  latestCode: { createdAt: Date; expiresAt: Date; usedAt: Date | null } | null;
  /** The last CONVITE_CANCELADO of the user, when it is the last thing done to their status. */
  cancelledAt: Date | null;
}

/**
 * The state of a user's invitation: pending while the newest code works (CODE_LIFETIME_MS.PRIMEIRO_ACESSO,
 * 24 h), expired once it lapsed (the user or an administrator asks a new one), cancelled by an
 * administrator, or done. Any status but PENDENTE that was not a cancellation is past invitations.
 */
export function invitationState(facts: InvitationFacts, at: Date): InvitationState {
  if (facts.status === 'INATIVO' && !facts.completed && facts.cancelledAt)
    return { kind: 'cancelado', since: facts.createdAt, cancelledAt: facts.cancelledAt };
  if (facts.status !== 'PENDENTE') return { kind: 'concluido' };
  const code = facts.latestCode;
  if (code && code.usedAt === null && code.expiresAt.getTime() > at.getTime())
    return { kind: 'pendente', since: facts.createdAt, codeSentAt: code.createdAt, validUntil: code.expiresAt };
  return { kind: 'expirado', since: facts.createdAt, codeSentAt: code?.createdAt ?? null, expiredAt: code?.expiresAt ?? null };
}

export const INVITATION_LABELS: Record<InvitationState['kind'], string> = {
  pendente: 'Pendente',
  expirado: 'Expirado',
  cancelado: 'Cancelado',
  concluido: 'Primeiro acesso concluído',
};

// ─── Effective permissions: where each grant comes from ──────────────────────────────────────────

/** Legacy: each group of the user with what it grants. */
export interface LegacyGrantSource {
  group: string;
  isAdmin: boolean;
  permissions: readonly V1Permission[];
  /** The membership's end (decision 071): the instant it stops counting. */
  endsAt?: Date | null;
}

/** v2: the operations given to the user directly, and those of their permission group (one, of a company). */
export interface V2GrantSources {
  profile: Profile;
  direct: readonly string[];
  group: { nome: string; company: string; operations: readonly string[]; endsAt?: Date | null } | null;
}

export type GrantSources = { generation: 'v1'; groups: readonly LegacyGrantSource[] } | { generation: 'v2'; sources: V2GrantSources };

export interface EffectiveGrant {
  code: string;
  label: string;
  /** Legacy: view and change; v2 operations are held or not. */
  view?: boolean;
  change?: boolean;
  /** Where it comes from, in words: 'Grupo VENDEDOR', 'Atribuída ao usuário', 'Grupo de permissões X (empresa Y)'. */
  from: string[];
}

const isAdminGroup = (g: LegacyGrantSource) => g.isAdmin || g.group === V1_ADMIN_GROUP;
/** ' até 31/12/2026': the last day a grant with an end counts (Brasília). */
const untilWords = (endsAt: Date | null | undefined) => (endsAt ? `, até ${grantEndLabel(endsAt)}` : '');
const groupWords = (g: LegacyGrantSource) => `Grupo ${g.group}${untilWords(g.endsAt)}`;
const v2GroupWords = (g: NonNullable<V2GrantSources['group']>) => `Grupo de permissões ${g.nome} (${g.company}${untilWords(g.endsAt)})`;
const DIRECT = 'Atribuída ao usuário';

/**
 * The grants a user holds, each with its sources, as the principal carries them (services/identity/
 * principals.ts: a legacy permission is the OR over the user's groups; a v2 operation is the union of
 * the user's own and their group's). `held` is that principal's list, so nothing is listed that the
 * sign-in would not give; the sources only name where each came from.
 */
export function effectiveGrants(held: { permissions: readonly V1Permission[] } | { operations: readonly string[] }, grants: GrantSources) {
  if (grants.generation === 'v1' && 'permissions' in held) {
    return held.permissions.map(
      (p): EffectiveGrant => ({
        code: p.nome,
        // By name, as the v2 page names its operations (issue 42); the page shows the code beside it.
        label: legacyPermissionLabel(p.nome),
        view: p.permiteVisualizacao,
        change: p.permiteAlteracao,
        from: grants.groups.filter((g) => g.permissions.some((gp) => gp.nome === p.nome)).map(groupWords),
      }),
    );
  }
  if (grants.generation === 'v2' && 'operations' in held) {
    const { direct, group } = grants.sources;
    return held.operations.map(
      (op): EffectiveGrant => ({
        code: op,
        label: operationLabel(op),
        from: [...(direct.includes(op) ? [DIRECT] : []), ...(group?.operations.includes(op) ? [v2GroupWords(group)] : [])],
      }),
    );
  }
  return [];
}

/** What a profile or an admin group gives beyond listed grants (ADMIN and the admin group: everything). */
export function standingNote(grants: GrantSources): string | undefined {
  if (grants.generation === 'v1') {
    const admin = grants.groups.find(isAdminGroup);
    return admin ? `${groupWords(admin)}: administrador, tem todas as permissões do portal legado.` : undefined;
  }
  const { profile } = grants.sources;
  if (profile === 'ADMIN') return `Perfil ${PROFILE_LABELS.ADMIN}: vê todos os itens do menu e faz todas as operações.`;
  if (profile === 'PARCEIRO_ADMIN')
    return `Perfil ${PROFILE_LABELS.PARCEIRO_ADMIN}: vê os itens do menu liberados ao perfil, além das operações listadas.`;
  return undefined;
}

/** A menu item the user sees, with why. */
export interface ExplainedItem {
  id: string;
  title: string;
  href?: string;
  external?: boolean;
  /** Empty for a group: its children say why. */
  why: string[];
  children?: ExplainedItem[];
}

type Rule = Pick<MenuItem, 'permissions' | 'profiles' | 'operations'>;
const ruleOf = (item: MenuItem): Rule | undefined =>
  item.permissions || item.profiles || item.operations
    ? { permissions: item.permissions, profiles: item.profiles, operations: item.operations }
    : undefined;

function whyV1(rule: Rule | undefined, viewer: Extract<Viewer, { generation: 'v1' }>, grants: readonly LegacyGrantSource[]): string[] {
  const admin = grants.find(isAdminGroup);
  const permissions = rule?.permissions ?? [];
  if (permissions.length === 0) return ['Todos os usuários'];
  if (admin) return [groupWords(admin)];
  // One line per group: the permissions of the item it gives (VIEW is what shows an item).
  const held = permissions.filter((p) => canV1(viewer.user, p, 'VIEW'));
  return grants.flatMap((g) => {
    const given = held.filter((p) => g.permissions.some((gp) => gp.nome === p && gp.permiteVisualizacao));
    return given.length > 0 ? [`${groupWords(g)}: ${given.map(legacyPermissionLabel).join(', ')}`] : [];
  });
}

function whyV2(rule: Rule | undefined, viewer: Extract<Viewer, { generation: 'v2' }>, sources: V2GrantSources): string[] {
  const { profile } = viewer.user;
  if (profile === 'ADMIN' || profile === 'PARCEIRO_ADMIN') return [`Perfil ${PROFILE_LABELS[profile]}`];
  const operations = rule?.operations ?? [];
  if (operations.length === 0) return [`Perfil ${PROFILE_LABELS[profile]}`];
  return operations
    .filter((op) => viewer.user.cdOperacoes.includes(op))
    .flatMap((op) => {
      const from = effectiveGrants({ operations: [op] }, { generation: 'v2', sources })[0]?.from ?? [];
      return from.length > 0 ? from.map((f) => `${operationLabel(op)} (${f})`) : [operationLabel(op)];
    });
}

/**
 * The menu `visibleMenu` gave this viewer, each link with the grants that let it through — read from
 * the same rule (an item's own, else its group's) that decided it. A visible item whose rule this
 * cannot explain says so instead of inventing a reason (the integration test fails on it).
 */
export function explainMenu(
  items: readonly MenuItem[],
  visible: readonly VisibleItem[],
  viewer: Viewer,
  grants: GrantSources,
  inherited?: Rule,
): ExplainedItem[] {
  const explained: ExplainedItem[] = [];
  for (const item of items) {
    const shown = visible.find((v) => v.id === item.id);
    if (!shown) continue;
    const rule = ruleOf(item) ?? inherited;
    const base = { id: shown.id, title: shown.title, href: shown.href, ...(shown.external ? { external: true } : {}) };
    if (item.children && shown.children) {
      explained.push({ ...base, why: [], children: explainMenu(item.children, shown.children, viewer, grants, rule) });
      continue;
    }
    const allowed = viewer.generation === 'v1' ? allowsV1(rule, viewer.user) : allowsV2(rule, viewer.user);
    const why =
      viewer.generation === 'v1' && grants.generation === 'v1'
        ? whyV1(rule, viewer, grants.groups)
        : viewer.generation === 'v2' && grants.generation === 'v2'
          ? whyV2(rule, viewer, grants.sources)
          : [];
    explained.push({ ...base, why: allowed && why.length > 0 ? why : ['Origem não identificada'] });
  }
  return explained;
}

/** The links of a menu tree, flattened (id and title), in order: what a test compares with the drawer. */
export function menuLinks(items: readonly { id: string; title: string; href?: string; children?: readonly unknown[] }[]): string[] {
  return items.flatMap((item) =>
    item.children ? menuLinks(item.children as typeof items).map((t) => `${item.title} › ${t}`) : [item.title],
  );
}
