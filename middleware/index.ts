import { defineMiddleware, sequence } from 'astro:middleware';
import { database } from '../src/server/boot/database';
import { resolvePortalSession } from '../src/server/services/identity/portal-session';
import { routeArea } from '../src/lib/routes';
import { loginRedirect } from '../src/lib/paths';
import { isSessionEndReason, SESSION_ENDED_COOKIE, TOKEN_COOKIES, viewerOf } from '../src/lib/session';
import { isGuardedRoute, pageAccess } from '../src/lib/route-guards';
import { config } from '../src/server/config';
import { ApiError } from '../src/server/api/errors';
import { errorResponse } from '../src/server/api/router';
import { sessionCookieOptions } from '../src/server/api/cookies';
import { isCrossSiteRequest } from '../src/server/security';
import { resolveClient } from '../src/server/proxy';
import { BODY_TOO_LARGE_HEADERS, bodyLimitFor, declaresTooLargeBody, isBodyTooLarge, readBody } from '../src/server/request-body';
import { isStorableText, isStorableUrlPart } from '../src/lib/storable-text';
import { noteRoute, noteUser } from '../src/server/request-context';
// Loaded with the pipeline, so the server script finds the viewer memo from the first request on.
import '../src/server/boot/viewer-memo';
// And its operations layer's hooks (readiness, metrics, TRUST_PROXY for request ids).
import '../src/server/ops/hooks';

/**
 * The request pipeline (DESIGN §4): learn who the client is (behind which proxies), refuse
 * cross-site, oversized and unstorable requests, resolve the session cookies, gate the route set of
 * each generation, then add the security headers. /api/* is authenticated by the API router itself.
 */

// Built files: the adapter serves those that exist before this pipeline runs, so only a missing one
// gets here. Nothing else is an asset — a page path that merely ends in '.ext' still needs its session
// and its guard (an attack replay reached simulator pages unguarded that way).
const isAsset = (path: string) => path.startsWith('/_astro/');
const isApi = (path: string) => path.startsWith('/api/');

const refuse = (path: string, status: number, message: string, headers: Record<string, string> = {}) =>
  isApi(path)
    ? errorResponse(new ApiError(status, message, undefined, headers))
    : new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** The socket peer; a request built without one (none are prerendered today) has no address. */
function peerAddress(context: { clientAddress: string }): string {
  try {
    return context.clientAddress ?? '';
  } catch {
    return '';
  }
}

/**
 * Who the client is — address, https, the origins it may post from — worked out once from the
 * socket peer, PUBLIC_URL and what trusted proxies forwarded (docs/decisions/021). Everything after
 * reads `locals.client`, never the raw X-Forwarded-* headers.
 */
const client = defineMiddleware((context, next) => {
  // The request's log line and metrics name its route by pattern (/v2/apolices/[id]), never its address.
  noteRoute(context.routePattern);
  const { PUBLIC_URL, TRUST_PROXY } = config();
  context.locals.client = resolveClient(
    { url: new URL(context.request.url), headers: context.request.headers, peer: peerAddress(context) },
    { publicUrl: PUBLIC_URL, trustedProxies: TRUST_PROXY },
  );
  return next();
});

const UNSTORABLE_PAGE_MESSAGE = 'Endereço ou formulário com caractere não permitido (caractere nulo ou Unicode inválido).';

/**
 * A page request whose form body holds text the database cannot store (the API router checks its
 * own JSON). Reading a copy of the body also finds, before any page runs, a body sent in chunks that
 * passes the 1 MB limit — by our count or the adapter's (astro.config.mjs bodySizeLimit).
 */
async function pageBodyProblem(request: Request, limit: number): Promise<'too-large' | 'unstorable' | undefined> {
  if (!request.body) return undefined;
  let body: Uint8Array;
  try {
    body = await readBody(request.clone(), limit);
  } catch (error) {
    if (isBodyTooLarge(error)) return 'too-large';
    throw error;
  }
  const fields = await formFieldsOf(request.headers.get('content-type') ?? '', body);
  return fields.every(isStorableText) ? undefined : 'unstorable';
}

/**
 * The texts of a form body a page may store: names and values, and the names of uploaded files (a
 * file's bytes are its page's to judge). A body that is no form, or does not parse, has none here:
 * its page refuses it.
 */
async function formFieldsOf(contentType: string, body: Uint8Array): Promise<string[]> {
  if (contentType.startsWith('application/x-www-form-urlencoded')) return [...new URLSearchParams(new TextDecoder().decode(body))].flat();
  if (!contentType.startsWith('multipart/form-data')) return [];
  try {
    const form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
    return [...form].flatMap(([name, value]) => [name, typeof value === 'string' ? value : value.name]);
  } catch {
    return [];
  }
}

/**
 * Before anything else runs: a state-changing request from another site is refused (403); so is a
 * body over its route's limit (413: 1 MB; more for a document, a nota or a user import — request-body.ts), declared
 * or, on pages, streamed; and, on pages, a path, query or form holding text the
 * database cannot store — U+0000, a lone surrogate — or an escape that does not decode (400).
 */
const requestLimits = defineMiddleware(async (context, next) => {
  const { request, url } = context;
  if (isCrossSiteRequest(request, context.locals.client.allowedOrigins))
    return refuse(url.pathname, 403, 'Requisição de outra origem recusada.');
  const limit = bodyLimitFor(url.pathname);
  if (declaresTooLargeBody(request, limit.bytes)) return refuse(url.pathname, 413, limit.message, BODY_TOO_LARGE_HEADERS);
  if (isApi(url.pathname)) return next();
  const raw = new URL(request.url);
  if (!isStorableUrlPart(raw.pathname) || !isStorableUrlPart(raw.search.slice(1)))
    return refuse(url.pathname, 400, UNSTORABLE_PAGE_MESSAGE);
  const bodyProblem = await pageBodyProblem(request, limit.bytes);
  if (bodyProblem === 'too-large') return refuse(url.pathname, 413, limit.message, BODY_TOO_LARGE_HEADERS);
  if (bodyProblem === 'unstorable') return refuse(url.pathname, 400, UNSTORABLE_PAGE_MESSAGE);
  return next();
});

const session = defineMiddleware(async (context, next) => {
  context.locals.session = {};
  context.locals.sessionExpired = false;
  context.locals.sessionEnded = undefined;
  const path = context.url.pathname;
  if (isApi(path) || isAsset(path)) return next();
  const cookie = (name: string) => context.cookies.get(name)?.value;
  // A visitor without a session cookie needs no database (nor to wait for it to open after a start).
  if (!Object.values(TOKEN_COOKIES).some(cookie)) return next();
  const { session: resolved, expired, ended } = await resolvePortalSession(await database(), cookie);
  context.locals.session = resolved;
  context.locals.sessionExpired = expired.length > 0;
  context.locals.sessionEnded = ended;
  noteUser(resolved.v2?.idUsuario ?? resolved.v1?.idUsuario);
  const options = sessionCookieOptions(context.locals.client.https);
  for (const name of expired) context.cookies.delete(name, options);
  if (ended) context.cookies.set(SESSION_ENDED_COOKIE, ended, { ...options, maxAge: 15 * 60 });
  return next();
});

const gate = defineMiddleware((context, next) => {
  const path = context.url.pathname;
  if (isApi(path) || isAsset(path) || context.routePattern === '/403') return next();
  const area = routeArea(path);
  if (area === 'public') return next();
  const viewer = viewerOf(context.locals.session, area);
  // A path without a page is a 404 — unless it is a guarded portal route whose page is still to
  // come: that one asks for the login first, and is refused to whoever may not open it.
  if (context.routePattern === '/404' && !isGuardedRoute(path, area)) return next();
  if (!viewer) {
    const target = loginRedirect(area, path + context.url.search);
    // Told why at the login: someone else ended the session (lib/session.ts SESSION_END_NOTICES) — now,
    // or at a request of an open page that cleared its cookie before this navigation — or it expired.
    const kept = context.cookies.get(SESSION_ENDED_COOKIE)?.value;
    // Said once, by the navigation that shows the login (a background fetch leaves it for that one).
    const navigation = (context.request.headers.get('sec-fetch-mode') ?? 'navigate') === 'navigate';
    if (kept !== undefined && navigation) context.cookies.delete(SESSION_ENDED_COOKIE, sessionCookieOptions(context.locals.client.https));
    const why = context.locals.sessionEnded ?? (isSessionEndReason(kept) ? kept : context.locals.sessionExpired ? 'expirada' : undefined);
    return context.redirect(why ? `${target}&sessao=${why}` : target, 302);
  }
  // The same rules that hide menu items refuse their pages (SPEC §6).
  const access = pageAccess(path, viewer, config().PORTAL_ENV);
  if (access === 'forbidden') return context.rewrite('/403');
  if (access === 'not-found') return context.rewrite('/404');
  return next();
});

const headers = defineMiddleware(async (context, next) => {
  const response = await next();
  response.headers.set('x-content-type-options', 'nosniff');
  // A page may set its own (the mailbox asks for no-referrer).
  if (!response.headers.has('referrer-policy')) response.headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  if (!response.headers.has('x-frame-options')) response.headers.set('x-frame-options', 'DENY');
  // Only when the browser really speaks https: X-Forwarded-Proto counts only from a trusted proxy.
  if (context.locals.client.https) response.headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  // Pages are not stored by default: a signed-in page holds personal data, and a public one may hold
  // a secret in its address (a reset link). A page that may be cached says so itself.
  const signedIn = Boolean(context.locals.session.v1 || context.locals.session.v2);
  if (!isAsset(context.url.pathname) && (signedIn || !response.headers.has('cache-control'))) {
    response.headers.set('cache-control', 'no-store');
  }
  return response;
});

export const onRequest = sequence(client, requestLimits, session, gate, headers);
