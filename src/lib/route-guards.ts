import { LEGACY_MENU, V2_MENU, type MenuItem } from './menus';
import { menuRoutes, routeAccess, type Environment, type RouteAccess, type Viewer } from './menu-visibility';
import { SIMULATOR_CODES } from './simulators';
import { v1OfferPermission } from './permissions';
import { EMBEDDED_APPS } from './embedded-apps';

/**
 * The server-side guard of every page a menu leads to (SPEC §6): each menu route, and the sections
 * that belong to it, are opened only by whoever the menu would show them to. Hiding a menu item is a
 * convenience; this table is the protection. Paths not listed here are guarded by their own page.
 */
type Guard = {
  prefix: string;
  rule?: { permissions?: string[]; profiles?: MenuItem['profiles']; operations?: string[] };
  nonProduction?: boolean;
};

function findRule(items: readonly MenuItem[], route: string): Omit<Guard, 'prefix'> {
  const found = menuRoutes(items).find((r) => r.route === route);
  if (!found) throw new Error(`Rota de menu inexistente: ${route}`);
  return { rule: found.rule, nonProduction: found.nonProduction };
}

/** Extra sections guarded like a menu route: [section prefix, menu route whose rule applies]. */
const LEGACY_SECTIONS: [string, string][] = [
  ['/ofertas-disponiveis', '/ofertas'],
  ['/cadastrar-usuario', '/consulta-usuarios'],
  ['/editar-usuario', '/consulta-usuarios'],
  ['/cadastrar-canal', '/consulta-hierarquia'],
  ['/editar-canal', '/consulta-hierarquia'],
  ['/revisao-acessos', '/consulta-usuarios'],
];

const V2_SECTIONS: [string, string][] = [
  ['/v2/parceiros', '/v2/parceiros/consulta'],
  ['/v2/substabelecido', '/v2/substabelecido/consulta'],
  ['/v2/ponto-venda', '/v2/ponto-venda/consulta'],
  ['/v2/usuario/cadastro', '/v2/usuario/cadastro/consulta'],
  ['/v2/usuario/importacao', '/v2/usuario/cadastro/consulta'],
  ['/v2/usuario/revisao-acessos', '/v2/usuario/cadastro/consulta'],
  ['/v2/usuario/permissoes', '/v2/usuario/permissoes/consulta'],
  // Issue 32: a user's page (/v2/usuario/{id}) and the pending invitations, as the users list.
  ['/v2/usuario', '/v2/usuario/cadastro/consulta'],
  ['/v2/relatorios/vendas', '/v2/relatorios/vendas/consulta'],
  ['/v2/metricas', '/v2/metricas/evolucao-vendas'],
  ['/v2/comissoes', '/v2/comissoes/extrato-comissoes'],
  ['/v2/documentos/consulta', '/v2/documentos/consulta'],
  ['/v2/historico', '/v2/home'],
];

/**
 * Menu routes guarded by their page instead (decision 040): Documentos › Envio stays hidden from the
 * menu (SPEC §2: NAO_EXIBIR, no profiles), yet a partner reaches it from a proposal waiting for
 * documents or from a policy — the page opens only a proposal of the viewer's scope (404 otherwise).
 */
export const PAGE_GUARDED_ROUTES: readonly string[] = ['/documentos/envio', '/v2/documentos/envio'];

const guardsOf = (items: readonly MenuItem[], sections: [string, string][], extra: Guard[]): Guard[] => [
  ...menuRoutes(items)
    .filter(({ route }) => !PAGE_GUARDED_ROUTES.includes(route))
    .map(({ route, ...rest }) => ({ prefix: route, ...rest })),
  ...sections.map(([prefix, route]) => ({ prefix, ...findRule(items, route) })),
  ...extra,
];

export const ROUTE_GUARDS = {
  v1: guardsOf(LEGACY_MENU, LEGACY_SECTIONS, [
    { prefix: '/historico', rule: { permissions: ['HISTORICO_VENDAS', 'HISTORICO_VENDAS_PROPOSTAS', 'HISTORICO_VENDAS_SIMULACAO'] } },
    // Only the admin group (allowed everything) edits simulators: nobody holds this code.
    { prefix: '/editar-simulador', rule: { permissions: ['EDITAR_SIMULADOR'] } },
    { prefix: '/ofertas', rule: { permissions: SIMULATOR_CODES.map((s) => v1OfferPermission(s.code)) } },
    // The AFS redirect page (decision 020): whoever may sell the old agricultural simulator.
    { prefix: '/simulador-agricola-antigo', rule: { permissions: [v1OfferPermission('AFS')] } },
    // The embedded issuance apps (decision 054): whoever may sell their products (SPEC §6).
    ...EMBEDDED_APPS.map((app) => ({ prefix: app.basePath, rule: { permissions: app.permissions } })),
    // The refunds queue (issue 31): the insurer's money, so the administrators' group alone — nobody holds this code.
    { prefix: '/restituicoes', rule: { permissions: ['RESTITUICOES_PAGAR'] } },
  ]),
  v2: guardsOf(V2_MENU, V2_SECTIONS, [
    // The refunds queue (issue 31): the insurer's ADMIN alone, as the receipts to review (decision 059); no partner profile listed.
    { prefix: '/v2/restituicoes', rule: { profiles: ['ADMIN'] } },
  ]),
};

export function pageAccess(path: string, viewer: Viewer, environment: Environment): RouteAccess {
  return routeAccess(ROUTE_GUARDS[viewer.generation], path, viewer, environment);
}

/** Is this path a portal route some guard knows (a menu route or one of its sections)? */
export function isGuardedRoute(path: string, generation: 'v1' | 'v2'): boolean {
  const target = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return ROUTE_GUARDS[generation].some((g) => target === g.prefix || target.startsWith(`${g.prefix}/`));
}
