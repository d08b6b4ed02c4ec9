/** Where each generation signs in and lands (SPEC §2, §4). */
export const LOGIN_PATH = { v1: '/signin', v2: '/v2/login' } as const;
export const HOME_PATH = { v1: '/home', v2: '/v2/home' } as const;
/** Each generation's public home: where signing out lands, and the way home a stranger is shown. */
export const PUBLIC_HOME = { v1: '/', v2: '/v2/login' } as const;

/** The generation an address belongs to: /v2 and below is the new portal, the rest the legacy one. */
export const generationOfPath = (path: string): 'v1' | 'v2' => (path === '/v2' || path.startsWith('/v2/') ? 'v2' : 'v1');

/**
 * The `next` parameter of a login page, accepted only as a path of this site. It is read the way the
 * browser will read it — the URL parser drops tabs and line breaks and takes a backslash for '/' — so
 * '/\t/evil.example' is the other site it becomes, and refused; so is a path that normalises to
 * '//host'. Answers the normalised path (with its query and fragment), or the fallback.
 */
export function safeNextPath(next: string | null | undefined, fallback: string): string {
  if (!next?.startsWith('/')) return fallback;
  const base = 'http://portal.invalid';
  if (!URL.canParse(next, base)) return fallback;
  const url = new URL(next, base);
  if (url.origin !== base || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

export const loginRedirect = (generation: 'v1' | 'v2', requested: string): string =>
  `${LOGIN_PATH[generation]}?next=${encodeURIComponent(requested)}`;
