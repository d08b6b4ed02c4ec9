/** Where each generation signs in and lands (SPEC §2, §4). */
export const LOGIN_PATH = { v1: '/signin', v2: '/v2/login' } as const;
export const HOME_PATH = { v1: '/home', v2: '/v2/home' } as const;
export const LOGOUT_TARGET = { v1: '/', v2: '/v2/login' } as const;

/**
 * The `next` parameter of a login page, accepted only as a path of this site: an absolute or
 * protocol-relative address would turn the login into an open redirect.
 */
export function safeNextPath(next: string | null | undefined, fallback: string): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}

export const loginRedirect = (generation: 'v1' | 'v2', requested: string): string =>
  `${LOGIN_PATH[generation]}?next=${encodeURIComponent(requested)}`;
