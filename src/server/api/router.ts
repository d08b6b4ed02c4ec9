import * as core from 'zod/v4/core';
import '../../lib/zod'; // pt-BR messages for every schema the router parses
import type { DB } from '../db';
import type { SessionKind, User } from '../db/schema';
import { ApiError, apiErrorOf } from './errors';
import { DomainError, fieldErrorsOf, forbidden, unauthenticated } from '../errors';
import { clearedCookie, readCookies, sessionCookie } from './cookies';
import { resolveSession } from '../services/identity/sessions';
import { isCrossSiteRequest } from '../security';
import { BODY_TOO_LARGE_HEADERS, BODY_TOO_LARGE_MESSAGE, BodyTooLargeError, readBodyText } from '../request-body';
import { COOKIE_SESSION_HEADER, isSessionEndReason, SESSION_ENDED_COOKIE, TOKEN_COOKIES, TOKEN_MESSAGES } from '../../lib/session';
import { isStorableText, UNSTORABLE_MESSAGE, unstorablePaths } from '../../lib/storable-text';
import { VIEWER_MEMO_HEADER } from '../shared-page';
import { nowMs } from '../clock';
import { errorMessage, logError } from '../log';
import { noteRoute, noteUser } from '../request-context';

/**
 * A small, framework-free router for the four API bases (DESIGN §5). Each endpoint is data — method,
 * path, which sessions it accepts, zod schemas — and a handler that returns the payload; the router
 * parses, authenticates, wraps the payload in its base's envelope and turns every failure into a JSON
 * error with the right status. Astro only forwards requests to it (src/pages/api/[...path].ts).
 */

export type ApiBase = 'plataforma' | 'bff' | 'gateway' | 'auth' | 'pagamentos';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Authenticated {
  user: User;
  session: { id: number; kind: SessionKind; expiresAt: Date };
}

export interface Context<B = unknown, Q = unknown, P = unknown> {
  request: Request;
  url: URL;
  ip: string;
  db: DB;
  body: B;
  query: Q;
  params: P;
  /** Present when the endpoint declares `auth`. */
  auth: Authenticated;
  /** True when the portal's browser client asked for its tokens as httpOnly cookies. */
  cookieMode: boolean;
  setCookie(name: string, value: string, expiresAt: Date): void;
  clearCookie(name: string): void;
}

/** Any zod schema, classic or mini (both share zod's core). */
type Schema = core.$ZodType;

export interface Endpoint<B extends Schema = Schema, Q extends Schema = Schema, P extends Schema = Schema> {
  method: Method;
  path: string;
  /** Session kinds accepted, in the order their cookies are tried. Absent: public. */
  auth?: readonly SessionKind[];
  body?: B;
  query?: Q;
  params?: P;
  /**
   * A GET whose answer is a function of who asks alone (the session and the headers the viewer memo
   * names): kept per session and answered from memory until it changes (server/boot/viewer-memo.ts).
   */
  viewerOnly?: boolean;
  handle(ctx: Context<core.output<B>, core.output<Q>, core.output<P>>): Promise<unknown>;
}

/** Typed helper: infers the handler's argument types from the schemas. */
export const endpoint = <B extends Schema = core.$ZodUnknown, Q extends Schema = core.$ZodUnknown, P extends Schema = core.$ZodUnknown>(
  e: Endpoint<B, Q, P>,
) => e as unknown as Endpoint;

const ENVELOPES: Record<ApiBase, (payload: unknown) => unknown> = {
  plataforma: (resultado) => ({ status: 'OK', resultado }),
  bff: (dado) => ({ dado }),
  auth: (dado) => ({ dado }),
  gateway: (payload) => payload,
  pagamentos: (dado) => ({ dado }),
};

const json = (status: number, payload: unknown, headers: Headers = new Headers()) => {
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(payload), { status, headers });
};

export const errorResponse = (error: ApiError) => {
  const headers = new Headers(error.headers);
  return json(
    error.status,
    {
      status: error.status,
      message: error.message,
      ...(error.fieldErrors ? { erros: error.fieldErrors } : {}),
      ...(error.code ? { codigo: error.code } : {}),
    },
    headers,
  );
};

/** zod issues as field errors, with the first message as the summary. */
const validationError = (error: core.$ZodError, where: string): ApiError =>
  new ApiError(400, error.issues[0]?.message ?? 'Requisição inválida', fieldErrorsOf(error, '', where));

function compile(path: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = path.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { regex: new RegExp(`^${pattern}/?$`), names };
}

async function readJson(request: Request): Promise<unknown> {
  let text: string;
  try {
    text = await readBodyText(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ApiError(413, BODY_TOO_LARGE_MESSAGE, undefined, BODY_TOO_LARGE_HEADERS);
    throw error;
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Corpo da requisição inválido: envie um JSON.');
  }
}

/**
 * A string (or key) PostgreSQL cannot store — U+0000, a lone surrogate — is refused before any
 * schema or handler sees it, whatever the endpoint: field errors name where it is.
 */
function refuseUnstorable(value: unknown, where: string) {
  const paths = unstorablePaths(value);
  if (paths.length === 0) return;
  const fields = Object.fromEntries(paths.map((path) => [path.map(String).join('.') || where, [UNSTORABLE_MESSAGE]]));
  throw new ApiError(400, UNSTORABLE_MESSAGE, fields);
}

/** The same for every query pair — repeated names included, which the record handlers get keeps only once. */
function refuseUnstorableQuery(search: URLSearchParams) {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of search) {
    if (!isStorableText(name)) fields.query = [UNSTORABLE_MESSAGE];
    else if (!isStorableText(value)) fields[name] = [UNSTORABLE_MESSAGE];
  }
  if (Object.keys(fields).length > 0) throw new ApiError(400, UNSTORABLE_MESSAGE, fields);
}

/** Validates what the request sent at `where` against its schema; unstorable text was refused before. */
function parse(schema: Schema | undefined, value: unknown, where: string) {
  if (!schema) return value;
  const result = core.safeParse(schema, value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

export async function authenticate(db: DB, request: Request, kinds: readonly SessionKind[]): Promise<Authenticated> {
  const cookies = readCookies(request.headers.get('cookie'));
  const token = request.headers.get('authtoken') ?? kinds.map((k) => cookies[TOKEN_COOKIES[k]]).find(Boolean);
  if (!token) throw unauthenticated(TOKEN_MESSAGES.missing);
  const session = await resolveSession(db, token, kinds);
  // Ended by someone else: the answer's `codigo` says why, for the login to say it (issue 42).
  if (!session.ok) throw new DomainError('unauthenticated', TOKEN_MESSAGES[session.reason], undefined, undefined, session.ended);
  if (session.user.status !== 'ATIVO') throw unauthenticated(TOKEN_MESSAGES.invalid);
  return { user: session.user, session: { id: session.id, kind: session.kind, expiresAt: session.expiresAt } };
}

export interface HandleOptions {
  /** The client's address: the socket peer, or what a trusted proxy forwarded (server/proxy.ts). */
  ip: string;
  db: () => Promise<DB>;
  /** The browser reached the portal over https, so cookies are Secure. Default: the request URL's scheme. */
  https?: boolean;
  /** Origins a state-changing request may come from. Default: the request URL's own origin. */
  allowedOrigins?: readonly string[];
}

export interface Router {
  handle(request: Request, options: HandleOptions): Promise<Response>;
  endpoints: readonly { base: ApiBase; method: Method; path: string; auth?: readonly SessionKind[] }[];
}

export function createRouter(prefix: string, bases: Record<ApiBase, readonly Endpoint[]>): Router {
  const routes = (Object.entries(bases) as [ApiBase, readonly Endpoint[]][]).flatMap(([base, endpoints]) =>
    endpoints.map((e) => ({ base, endpoint: e, pattern: `${prefix}/${base}${e.path}`, ...compile(`${prefix}/${base}${e.path}`) })),
  );

  async function handle(request: Request, options: HandleOptions): Promise<Response> {
    const url = new URL(request.url);
    const candidates = routes.filter((r) => r.regex.test(url.pathname));
    if (candidates.length === 0) return errorResponse(new ApiError(404, 'Recurso não encontrado.'));
    const route = candidates.find((r) => r.endpoint.method === request.method);
    if (!route) {
      const allow = [...new Set(candidates.map((r) => r.endpoint.method))].join(', ');
      return errorResponse(new ApiError(405, 'Método não permitido.', undefined, { allow }));
    }
    const { endpoint: e, base } = route;
    noteRoute(route.pattern, { refine: true }); // the endpoint's pattern (/api/bff/v1/usuarios/:id), not /api/[...path]
    const setCookies: string[] = [];
    const secure = options.https ?? url.protocol === 'https:';
    try {
      // Refused before its cookies are looked at.
      if (isCrossSiteRequest(request, options.allowedOrigins ?? [url.origin])) throw forbidden('Requisição de outra origem recusada.');
      const rawBody = e.body ? await readJson(request) : undefined;
      // Who is asking comes before what they sent: a stranger learns nothing of the schemas.
      const db = await options.db();
      const auth = e.auth ? await authenticate(db, request, e.auth) : (undefined as unknown as Authenticated);
      noteUser(auth?.user.id);
      const match = route.regex.exec(url.pathname)!;
      const rawParams = Object.fromEntries(route.names.map((name, i) => [name, decodeParam(name, match[i + 1] ?? '')]));
      refuseUnstorable(rawParams, 'params');
      const params = parse(e.params, rawParams, 'params');
      refuseUnstorableQuery(url.searchParams);
      const query = parse(e.query, Object.fromEntries(url.searchParams), 'query');
      if (e.body) refuseUnstorable(rawBody, 'body');
      const body = e.body ? parse(e.body, rawBody, 'body') : undefined;
      const payload = await e.handle({
        request,
        url,
        ip: options.ip,
        db,
        body,
        query,
        params,
        auth,
        cookieMode: request.headers.get(COOKIE_SESSION_HEADER) === 'cookie',
        setCookie: (name, value, expiresAt) =>
          setCookies.push(
            sessionCookie(name, value, { maxAgeSeconds: Math.max(0, Math.floor((expiresAt.getTime() - nowMs()) / 1000)), secure }),
          ),
        clearCookie: (name) => setCookies.push(clearedCookie(name, secure)),
      });
      // A download answers its file as it is, outside the envelope (endpoints/documents.ts).
      if (payload instanceof Response) return payload;
      const headers = new Headers();
      for (const cookie of setCookies) headers.append('set-cookie', cookie);
      // Judged on the endpoint's own session kinds: a cookie of another kind beside them is not read.
      if (e.viewerOnly && e.auth) headers.set(VIEWER_MEMO_HEADER, e.auth.join(','));
      return json(200, ENVELOPES[base](payload), headers);
    } catch (error) {
      const refusal = apiErrorOf(error);
      if (refusal) {
        const response = errorResponse(refusal);
        // A refused token is also cleared from the browser, so the client starts clean — a v2 session
        // and its simulator token together, as one ends with the other.
        if (refusal.status === 401 && e.auth) {
          for (const kind of tokenFamily(e.auth)) response.headers.append('set-cookie', clearedCookie(TOKEN_COOKIES[kind], secure));
          // Why it ended, kept for the login the browser shows next (middleware/index.ts reads it once).
          if (isSessionEndReason(refusal.code))
            response.headers.append('set-cookie', sessionCookie(SESSION_ENDED_COOKIE, refusal.code, { maxAgeSeconds: 15 * 60, secure }));
        }
        return response;
      }
      // The path and the message may hold what the client sent: fields of one JSON line (server/log.ts).
      logError('api-falha', { metodo: request.method, caminho: url.pathname, erro: errorMessage(error) });
      return errorResponse(new ApiError(500, 'Ocorreu um erro, tente novamente.'));
    }
  }

  return {
    handle,
    endpoints: routes.map((r) => ({
      base: r.base,
      method: r.endpoint.method,
      path: r.pattern,
      auth: r.endpoint.auth,
    })),
  };
}

const tokenFamily = (kinds: readonly SessionKind[]): SessionKind[] =>
  kinds.some((k) => k !== 'v1') ? [...new Set<SessionKind>([...kinds, 'v2', 'simulador'])] : [...kinds];

/** A path parameter, percent-decoded; a malformed escape (or bytes that are not UTF-8) is a 400 naming it. */
function decodeParam(name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError(400, 'Endereço inválido: codificação de caracteres malformada.', {
      [name]: ['Codificação de caracteres malformada.'],
    });
  }
}
