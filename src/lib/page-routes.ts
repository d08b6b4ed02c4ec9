/**
 * Turns page file paths (as import.meta.glob gives them) into the routes Astro serves, so tools like
 * /mapa-dev-test and the authorization matrix list exactly what the source tree holds.
 */
export function routeOfPageFile(file: string): string | undefined {
  const match = /\/pages(\/.*)\.(astro|ts)$/.exec(file);
  if (!match) return undefined;
  const route = match[1]!.replace(/\/index$/, '') || '/';
  if (route.startsWith('/api/')) return undefined; // the API lists its own endpoints
  return route;
}

/** '/v2/login/session/[idSessaoSSO]' → '/v2/login/session/{idSessaoSSO}' (SPEC notation). */
export const specNotation = (route: string) => route.replace(/\[\.\.\.(\w+)\]/g, '{...$1}').replace(/\[(\w+)\]/g, '{$1}');
