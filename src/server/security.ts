/**
 * A state-changing request from another site: any method but GET/HEAD/OPTIONS whose Origin is
 * another origin, or — without an Origin — that the browser marks as cross-site. Used by the page
 * middleware and by the API router, so both refuse the same requests.
 */
export function isCrossSiteRequest(request: Request, url: URL): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return false;
  const origin = request.headers.get('origin');
  if (origin) return origin !== url.origin;
  return request.headers.get('sec-fetch-site') === 'cross-site';
}
