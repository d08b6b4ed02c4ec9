/**
 * The record of the request being answered, kept by the server script (scripts/ops.mjs) in an
 * AsyncLocalStorage it puts at `globalThis[Symbol.for('portal.request')]`: its id, and what only the
 * pipeline learns — the route's pattern and the signed-in user — written here for its log line and
 * its metrics. Outside a request (a job, a test without the server script) there is no record and
 * every call is a no-op.
 */
export interface RequestRecord {
  /** The id on the answer's X-Request-Id, on its log line and on the 500 page. */
  readonly id: string;
  /** The route's pattern (`/v2/apolices/[id]`, `/api/bff/v1/usuario/:id`), never the address asked for. */
  route?: string;
  /** The signed-in user's numeric id, nothing else of them. */
  userId?: number;
}

interface RecordStore {
  getStore(): RequestRecord | undefined;
}

const store = () => (globalThis as Record<symbol, RecordStore | undefined>)[Symbol.for('portal.request')];

export const currentRequest = (): RequestRecord | undefined => store()?.getStore();

/**
 * Names the route of the current request. The first name stays — the page asked for, not the /403 or
 * /404 a refusal rewrites to (the pipeline runs again for the rewrite) — unless `refine`: the API
 * router names its endpoint inside Astro's catch-all /api/[...path].
 */
export function noteRoute(route: string | undefined, { refine = false } = {}): void {
  const record = currentRequest();
  if (record && route && (refine || record.route === undefined)) record.route = route;
}

/** Notes who is signed in for the current request. */
export function noteUser(userId: number | undefined): void {
  const record = currentRequest();
  if (record && Number.isSafeInteger(userId)) record.userId = userId;
}
