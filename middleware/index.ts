import { defineMiddleware, sequence } from 'astro:middleware';
import { database } from '../src/server/db';
import { resolvePortalSession } from '../src/server/services/portal-session';
import { routeArea } from '../src/lib/routes';
import { loginRedirect } from '../src/lib/paths';
import { viewerOf } from '../src/lib/session';
import { isGuardedRoute, pageAccess } from '../src/lib/route-guards';
import { config } from '../src/server/config';
import { ApiError } from '../src/server/api/errors';
import { errorResponse, MAX_BODY_BYTES } from '../src/server/api/router';
import { isCrossSiteRequest } from '../src/server/security';

/**
 * The request pipeline (DESIGN §4): refuse cross-site and oversized requests, resolve the session
 * cookies, gate the route set of each generation, then add the security headers. /api/* is
 * authenticated by the API router itself.
 */

const isAsset = (path: string) => path.startsWith('/_astro/') || /\.[a-z0-9]+$/i.test(path);
const isApi = (path: string) => path.startsWith('/api/');

const refuse = (path: string, status: number, message: string) =>
  isApi(path)
    ? errorResponse(new ApiError(status, message))
    : new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * Before anything else runs: a state-changing request from another site is refused (403), and so
 * is a body declared over 1 MB (413) — the adapter's own limit (astro.config.mjs) catches bodies
 * that do not declare their length.
 */
const requestLimits = defineMiddleware((context, next) => {
  const { request, url } = context;
  if (isCrossSiteRequest(request, url)) return refuse(url.pathname, 403, 'Requisição de outra origem recusada.');
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    return refuse(url.pathname, 413, 'O corpo da requisição excede o limite de 1 MB.');
  }
  return next();
});

const session = defineMiddleware(async (context, next) => {
  context.locals.session = {};
  context.locals.sessionExpired = false;
  const path = context.url.pathname;
  if (isApi(path) || isAsset(path)) return next();
  const db = await database();
  const { session: resolved, expired } = await resolvePortalSession(db, (name) => context.cookies.get(name)?.value);
  context.locals.session = resolved;
  context.locals.sessionExpired = expired.length > 0;
  for (const name of expired) context.cookies.delete(name, { path: '/' });
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
    return context.redirect(context.locals.sessionExpired ? `${target}&sessao=expirada` : target, 302);
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
  response.headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  if (!response.headers.has('x-frame-options')) response.headers.set('x-frame-options', 'DENY');
  const https = context.url.protocol === 'https:' || context.request.headers.get('x-forwarded-proto') === 'https';
  if (https) response.headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  // Pages are not stored by default: a signed-in page holds personal data, and a public one may hold
  // a secret in its address (a reset link). A page that may be cached says so itself.
  const signedIn = Boolean(context.locals.session.v1 || context.locals.session.v2);
  if (!isAsset(context.url.pathname) && (signedIn || !response.headers.has('cache-control'))) {
    response.headers.set('cache-control', 'no-store');
  }
  return response;
});

export const onRequest = sequence(requestLimits, session, gate, headers);
