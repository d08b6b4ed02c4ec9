import { v1OfferPermission } from './permissions';

/**
 * The embedded issuance applications (SPEC §2, §3, §7; docs/decisions/054-embedded-issuance-apps.md):
 * three separately built bundles that a small single-spa host mounts inside a legacy portal page.
 * This table is what the pages, the host island, the route guards and the build all read.
 */
export type EmbeddedAppName = 'emissao-cotacao' | 'emissao-itens-pessoais' | 'emissao-vida';

export interface EmbeddedApp {
  name: EmbeddedAppName;
  /** The portal path the app owns: it is active on this path and everything under it. */
  basePath: string;
  /** The host name the app's bundle is served from when an external host is configured (SPEC §7). */
  hostName: string;
  /**
   * 'after-start': registered only once POST /v1/simuladores/iniciar answered an nrOferta (SPEC §4:
   * personal items and life). 'immediate': registered at once (business and consultation), except
   * that a path with `iniciar/empresarial` starts a business simulator session first (SPEC §2).
   */
  registration: 'immediate' | 'after-start';
  /** The simulator (code, product group of SPEC §9) whose session the app starts. */
  simulator: { cdTipoSimulador: string; nrGrupoProduto: string };
  /** Who may open the app's pages (SPEC §6, the legacy OFERTAS_DISPONIVEIS_{code} codes). */
  permissions: string[];
  title: string;
}

export const EMBEDDED_APPS: readonly EmbeddedApp[] = [
  {
    name: 'emissao-cotacao',
    basePath: '/emissao/consulta-cotacao',
    hostName: 'emissao-cotacao',
    registration: 'immediate',
    simulator: { cdTipoSimulador: 'EMP', nrGrupoProduto: '0118' },
    // The consultation lists the quotes of every embedded product: any of their offers opens it.
    permissions: ['EMP', 'IP', 'VE'].map(v1OfferPermission),
    title: 'Consulta de cotações',
  },
  {
    name: 'emissao-itens-pessoais',
    basePath: '/emissao/itens-pessoais',
    hostName: 'emissao-itens-pessoais',
    registration: 'after-start',
    simulator: { cdTipoSimulador: 'IP', nrGrupoProduto: '0171' },
    permissions: [v1OfferPermission('IP')],
    title: 'Itens Pessoais',
  },
  {
    name: 'emissao-vida',
    basePath: '/emissao/cotacao/vida',
    // SPEC §7: the life app is served from an emissao-cotacao-vida host.
    hostName: 'emissao-cotacao-vida',
    registration: 'after-start',
    simulator: { cdTipoSimulador: 'VE', nrGrupoProduto: '1391' },
    permissions: [v1OfferPermission('VE')],
    title: 'Vida Essencial',
  },
];

export const findEmbeddedApp = (name: string): EmbeddedApp | undefined => EMBEDDED_APPS.find((a) => a.name === name);

/** The app whose base path holds this path (single-spa's activeWhen uses the same test). */
export const embeddedAppOfPath = (path: string): EmbeddedApp | undefined => EMBEDDED_APPS.find((a) => isActiveOn(a, path));

export const isActiveOn = (app: Pick<EmbeddedApp, 'basePath'>, path: string): boolean =>
  path === app.basePath || path.startsWith(`${app.basePath}/`);

/** Where bundles are served from: this server by default, or hosts `{app}.{prefix}{host}` (SPEC §7). */
export interface BundleSource {
  /** e.g. `seguradora.com.br`; empty or absent: this server, under /mf/{app}/. */
  host?: string;
  /** The environment prefix put before the host, e.g. `hml.`; empty in production. */
  prefix?: string;
}

/** The path every bundle has on its host (SPEC §7: /static/js/bundle.js). */
export const BUNDLE_PATH = '/static/js/bundle.js';

/** The local path of an app's bundle on this server (built by scripts/build-embedded-apps.mjs). */
export const localBundlePath = (name: EmbeddedAppName) => `/mf/${name}${BUNDLE_PATH}`;

/** The host a configured source serves this app from, or undefined when this server serves it. */
export function bundleHost(app: Pick<EmbeddedApp, 'hostName'>, source: BundleSource): string | undefined {
  const host = source.host?.trim();
  if (!host) return undefined;
  return `${app.hostName}.${source.prefix?.trim() ?? ''}${host}`;
}

/** SPEC §7: `//{app}.{environment prefix}{host}/static/js/bundle.js`, or `/mf/{app}/static/js/bundle.js`. */
export function bundleAddress(app: Pick<EmbeddedApp, 'name' | 'hostName'>, source: BundleSource): string {
  const host = bundleHost(app, source);
  return host ? `//${host}${BUNDLE_PATH}` : localBundlePath(app.name);
}

/**
 * The address a retry imports: a browser keeps a failed `import()` of a URL for the page's life, so
 * each retry asks for a new URL (`?retry=N`) that the server answers with the same file.
 */
export function retryAddress(address: string, attempt: number): string {
  if (attempt <= 0) return address;
  const [path, query] = address.split('?');
  const params = new URLSearchParams(query);
  params.set('retry', String(attempt));
  return `${path}?${params.toString()}`;
}

/** SPEC §4: register an app only once, and a personal-items or life app only after nrOferta. */
export function mayRegister(
  app: Pick<EmbeddedApp, 'name' | 'registration'>,
  registered: readonly string[],
  start: { nrOferta?: number | null } | undefined,
): boolean {
  if (registered.includes(app.name)) return false;
  if (app.registration === 'after-start') return typeof start?.nrOferta === 'number' && start.nrOferta > 0;
  return true;
}

/**
 * What the host does before registering this app on this path (SPEC §2, §4): nothing (the
 * consultation); start a simulator session, whose answer's nrOferta lets a personal-items or life app
 * register (and the business entry starts one too); or, on a saved quote's address, read the quote,
 * whose own nrOferta is that signal — so a quote sold under an offer that has ended since still opens,
 * and going through a sale's steps starts no new session at each one.
 */
export type RegistrationStart = { kind: 'none' } | { kind: 'simulator' } | { kind: 'saved-quote'; nrCotacao: string };

export function registrationStart(app: Pick<EmbeddedApp, 'name' | 'basePath' | 'registration'>, path: string): RegistrationStart {
  if (path.includes('iniciar/empresarial')) return { kind: 'simulator' };
  if (app.registration === 'immediate') return { kind: 'none' };
  const route = parseEmbeddedRoute(app, path);
  return route.kind === 'step' ? { kind: 'saved-quote', nrCotacao: route.nrCotacao } : { kind: 'simulator' };
}

/** The in-app address of a quote's step: `{base}/cotacao/{nr}/{step}[/{action}]`. */
export const embeddedStepPath = (app: Pick<EmbeddedApp, 'basePath'>, nrCotacao: string, step: string, action?: string): string =>
  `${app.basePath}/cotacao/${nrCotacao}/${step}${action ? `/${action}` : ''}`;

/** Which embedded app sells a simulator code (EMP, IP, VE), to open its quotes there. */
export const EMBEDDED_APP_OF_CODE: Readonly<Record<string, EmbeddedAppName>> = {
  EMP: 'emissao-cotacao',
  IP: 'emissao-itens-pessoais',
  VE: 'emissao-vida',
};

/** Where a legacy quote of an embedded product opens (history, consultation); undefined for other codes. */
export function embeddedQuoteHref(code: string, nrCotacao: string, step: string, action?: string): string | undefined {
  const name = Object.hasOwn(EMBEDDED_APP_OF_CODE, code) ? EMBEDDED_APP_OF_CODE[code] : undefined;
  const app = name && findEmbeddedApp(name);
  return app ? embeddedStepPath(app, nrCotacao, step, action) : undefined;
}

const APP_STEPS = ['cadastro', 'risco', 'planos', 'contratacao', 'resumo', 'proposta', 'finalizacao'] as const;
export type EmbeddedStep = (typeof APP_STEPS)[number];

/** What an embedded app shows for an address under its base path. */
export type EmbeddedRoute =
  | { kind: 'list' }
  | { kind: 'new' }
  | { kind: 'step'; nrCotacao: string; step: EmbeddedStep; action?: 'editar' | 'visualizar' }
  | { kind: 'redirect'; path: string }
  | { kind: 'not-found' };

/** The entries each app starts a new issuance at (SPEC §2 "known entries"). */
const NEW_ENTRIES: Record<EmbeddedAppName, readonly string[]> = {
  'emissao-cotacao': ['iniciar/empresarial'],
  'emissao-itens-pessoais': ['', 'iniciar/itens-pessoais'],
  'emissao-vida': ['', 'nova-cotacao'],
};

/** Reads an address of an app: the list (consultation), a new issuance, a quote's step, or not found. */
export function parseEmbeddedRoute(app: Pick<EmbeddedApp, 'name' | 'basePath'>, pathname: string): EmbeddedRoute {
  if (!isActiveOn(app, pathname)) return { kind: 'not-found' };
  const rest = pathname.slice(app.basePath.length).replace(/^\/+|\/+$/g, '');
  if (app.name === 'emissao-cotacao' && rest === '') return { kind: 'list' };
  // The consultation's personal-items entry belongs to the personal-items app.
  if (app.name === 'emissao-cotacao' && rest === 'iniciar/itens-pessoais')
    return { kind: 'redirect', path: '/emissao/itens-pessoais/iniciar/itens-pessoais' };
  if (NEW_ENTRIES[app.name].includes(rest)) return { kind: 'new' };
  const [head, nrCotacao, step, action, ...extra] = rest.split('/');
  if (
    head === 'cotacao' &&
    extra.length === 0 &&
    nrCotacao !== undefined &&
    /^[1-9]\d{0,11}$/.test(nrCotacao) &&
    (APP_STEPS as readonly string[]).includes(step ?? '') &&
    (action === undefined || action === 'editar' || action === 'visualizar')
  ) {
    return { kind: 'step', nrCotacao, step: step as EmbeddedStep, ...(action ? { action } : {}) };
  }
  return { kind: 'not-found' };
}

/**
 * How the server answers an app's page (issue 27): an entry that belongs to another app is sent
 * there; an address the app does not know is still its page — the app shows its own not-found view —
 * but with a 404, as any unknown address.
 */
export function embeddedPageAnswer(
  app: Pick<EmbeddedApp, 'name' | 'basePath'>,
  pathname: string,
): { status: 200 | 404 } | { redirect: string } {
  const route = parseEmbeddedRoute(app, pathname);
  if (route.kind === 'redirect') return { redirect: route.path };
  return { status: route.kind === 'not-found' ? 404 : 200 };
}
