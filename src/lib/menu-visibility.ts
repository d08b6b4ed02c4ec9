import { canV1, RESTRICTED_OPERATION, type Profile, type V1Subject, type V2Subject } from './permissions';
import type { ExternalLinkKey, MenuItem } from './menus';

/**
 * Who sees which menu item (SPEC §6, DESIGN §6), and the same rule for opening its route.
 *
 * - Legacy: an item without permissions is visible to all; otherwise VIEW on one of them is needed.
 * - v2: ADMIN sees everything; PARCEIRO_ADMIN sees items whose profiles include PARCEIRO_ADMIN;
 *   PARCEIRO and SUBSTABELECIDO see an item when they hold one of its operations (their profile need
 *   not be listed), or, for an item that lists no operation, when their profile is listed; other
 *   profiles see nothing.
 * - An item without a rule of its own takes its group's rule; a group shows when one of its children
 *   shows (docs/decisions/007-menu-visibility.md).
 */
export type Environment = 'PRD' | 'DEV' | 'HML' | 'TEST';

export type Viewer = { generation: 'v1'; user: V1Subject } | { generation: 'v2'; user: V2Subject };

interface Rule {
  permissions?: string[];
  profiles?: Profile[];
  operations?: string[];
}

const ownRule = (item: MenuItem): Rule | undefined =>
  item.permissions || item.profiles || item.operations
    ? { permissions: item.permissions, profiles: item.profiles, operations: item.operations }
    : undefined;

export function allowsV2(rule: Rule | undefined, user: V2Subject): boolean {
  if (user.profile === 'ADMIN') return true;
  const profiles = rule?.profiles ?? [];
  if (user.profile === 'PARCEIRO_ADMIN') return profiles.includes('PARCEIRO_ADMIN');
  if (user.profile !== 'PARCEIRO' && user.profile !== 'SUBSTABELECIDO') return false;
  const operations = rule?.operations ?? [];
  if (operations.length === 0) return profiles.includes(user.profile);
  return operations.some((op) => user.cdOperacoes.includes(op));
}

export function allowsV1(rule: Rule | undefined, user: V1Subject): boolean {
  const permissions = rule?.permissions ?? [];
  return permissions.length === 0 || permissions.some((p) => canV1(user, p, 'VIEW'));
}

const allows = (rule: Rule | undefined, viewer: Viewer) =>
  viewer.generation === 'v1' ? allowsV1(rule, viewer.user) : allowsV2(rule, viewer.user);

function shownInEnvironment(item: MenuItem, viewer: Viewer, environment: Environment): boolean {
  if (item.hidden) return false;
  // A staging module is listed outside production only; its route stays (menuRoutes ignores `staging`).
  if ((item.nonProduction || item.staging) && environment === 'PRD') return false;
  const restricted = viewer.generation === 'v2' && viewer.user.cdOperacoes.includes(RESTRICTED_OPERATION);
  return !(item.hiddenForRestrictedOutsideProduction && restricted && environment !== 'PRD');
}

/** A menu item as the drawer renders it: only what the viewer may see, links resolved. */
export interface VisibleItem {
  id: string;
  title: string;
  href?: string;
  external?: boolean;
  staging?: boolean;
  children?: VisibleItem[];
}

export function visibleMenu(
  items: readonly MenuItem[],
  viewer: Viewer,
  environment: Environment,
  links: Record<ExternalLinkKey, string>,
  inherited?: Rule,
): VisibleItem[] {
  const visible: VisibleItem[] = [];
  for (const item of items) {
    if (!shownInEnvironment(item, viewer, environment)) continue;
    const rule = ownRule(item) ?? inherited;
    const base = { id: item.id, title: item.title, ...(item.staging ? { staging: true } : {}) };
    if (item.children) {
      const children = visibleMenu(item.children, viewer, environment, links, rule);
      if (children.length > 0) visible.push({ ...base, children });
    } else if (allows(rule, viewer)) {
      visible.push(item.external ? { ...base, href: links[item.external], external: true } : { ...base, href: item.route });
    }
  }
  return visible;
}

const normalize = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Every internal route of a menu with the rule and flags that guard it. */
export function menuRoutes(items: readonly MenuItem[], inherited?: Rule, flags: Pick<MenuItem, 'nonProduction' | 'hidden'> = {}) {
  const routes: { route: string; rule?: Rule; nonProduction?: boolean }[] = [];
  for (const item of items) {
    const rule = ownRule(item) ?? inherited;
    const itemFlags = { nonProduction: flags.nonProduction || item.nonProduction };
    if (item.children) routes.push(...menuRoutes(item.children, rule, itemFlags));
    else if (item.route) routes.push({ route: normalize(item.route), rule, ...itemFlags });
  }
  return routes;
}

export type RouteAccess = 'allowed' | 'forbidden' | 'not-found';

/**
 * Whether a viewer may open a path guarded by a menu route (or one of the extra sections below it).
 * Paths no menu guards are left to the page: 'allowed'.
 */
export function routeAccess(
  guards: readonly { prefix: string; rule?: Rule; nonProduction?: boolean }[],
  path: string,
  viewer: Viewer,
  environment: Environment,
): RouteAccess {
  const target = normalize(path);
  const guard = guards
    .filter((g) => target === g.prefix || target.startsWith(`${g.prefix}/`))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  if (!guard) return 'allowed';
  if (guard.nonProduction && environment === 'PRD') return 'not-found';
  return allows(guard.rule, viewer) ? 'allowed' : 'forbidden';
}
