/**
 * A state-changing request from another site: any method but GET/HEAD/OPTIONS whose Origin is none
 * of the origins the portal answers as (PUBLIC_URL, what a trusted proxy forwarded, the request's
 * own — server/proxy.ts), or — without an Origin — that the browser marks as cross-site. Used by the
 * page middleware and by the API router, so both refuse the same requests.
 */
export function isCrossSiteRequest(request: Request, allowedOrigins: readonly string[]): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return false;
  const origin = request.headers.get('origin');
  if (origin) return !allowedOrigins.includes(origin.toLowerCase());
  return request.headers.get('sec-fetch-site') === 'cross-site';
}
