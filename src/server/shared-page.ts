import { config } from './config';
import { resolveClient } from './proxy';

/**
 * The header with which a page says it is the same for every visitor without a session: the
 * server (scripts/shared-pages.mjs, which spells it too) keeps its first rendering and answers
 * from memory after, and never sends the header on.
 */
export const SHARED_PAGE_HEADER = 'x-portal-shared';

/**
 * The header with which a signed-in answer says it is a function of who asks and nothing else, so
 * the viewer memo (boot/viewer-memo.ts, decision 044) may keep it; the server script spells it too.
 */
export const VIEWER_MEMO_HEADER = 'x-portal-memo';

interface NodeRequest {
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; encrypted?: boolean };
}

/**
 * Whether a request reached the portal over https, by the pipeline's own rule (server/proxy.ts):
 * a shared page's headers differ only by it (HSTS), so the server script keeps one copy per scheme
 * and never serves one made for a forged X-Forwarded-Proto to a browser behind the real proxy.
 */
export function requestScheme(req: NodeRequest): 'https' | 'http' {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? null);
  };
  // The answer depends on these alone; remembered, a page from memory costs no URL parsing.
  const key = `${req.socket.remoteAddress}|${req.socket.encrypted ? 's' : ''}|${header('host')}|${header('x-forwarded-proto')}`;
  const known = schemes.get(key);
  if (known) return known;
  if (schemes.size >= MAX_REMEMBERED) schemes.clear(); // whatever hosts a client makes up
  const scheme = schemeOf(req, header);
  schemes.set(key, scheme);
  return scheme;
}

const schemes = new Map<string, 'https' | 'http'>();
const MAX_REMEMBERED = 1_000;

function schemeOf(req: NodeRequest, header: (name: string) => string | null): 'https' | 'http' {
  const { PUBLIC_URL, TRUST_PROXY } = config();
  const url = URL.parse(req.url ?? '/', `${req.socket.encrypted ? 'https' : 'http'}://${header('host') ?? 'localhost'}`);
  if (!url) return 'http';
  const client = resolveClient(
    { url, headers: { get: header } as Headers, peer: req.socket.remoteAddress ?? '' },
    { publicUrl: PUBLIC_URL, trustedProxies: TRUST_PROXY },
  );
  return client.https ? 'https' : 'http';
}

// The server script lives outside the bundle: it finds the rule through this well-known hook, set
// once a shared page has been rendered (which is also when there is something to answer).
(globalThis as Record<symbol, unknown>)[Symbol.for('portal.requestScheme')] = requestScheme;
