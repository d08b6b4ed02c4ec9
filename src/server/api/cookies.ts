import type { SessionKind } from '../db/schema';
import { TOKEN_COOKIES } from '../../lib/session';

/** Reading and writing the session cookies: httpOnly, SameSite=Lax, Secure over HTTPS (DESIGN §4). */

export function readCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      // A malformed cookie is ignored, not an error.
    }
  }
  return cookies;
}

/** The session tokens a browser sent in its cookies, of the given kinds (what a new sign-in replaces). */
export function browserTokens(request: Request, kinds: readonly SessionKind[]): string[] {
  const cookies = readCookies(request.headers.get('cookie'));
  return kinds.map((kind) => cookies[TOKEN_COOKIES[kind]]).filter((token): token is string => Boolean(token));
}

export function sessionCookie(name: string, value: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${options.maxAgeSeconds}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export const clearedCookie = (name: string, secure: boolean) => sessionCookie(name, '', { maxAgeSeconds: 0, secure });

/**
 * The same attributes for Astro's cookie API (pages and middleware). `secure` is `locals.client.https`:
 * behind a TLS-terminating proxy the request URL says http, the browser does not.
 */
export const sessionCookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure });
