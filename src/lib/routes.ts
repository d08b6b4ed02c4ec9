import { generationOfPath } from './paths';

/**
 * Which session a page needs (SPEC §2, DESIGN §4): public pages need none, /v2 pages a v2 session,
 * every other page a legacy (v1) session.
 */
export type RouteArea = 'public' | 'v1' | 'v2';

export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/',
  '/signin',
  '/login',
  '/esqueci-senha',
  '/reenviar-codigo-validacao',
  '/redefinir-senha',
  '/cadastro-login',
  '/template-email',
  '/cadastro-realizado',
  '/termo-de-uso',
  '/termo-presente-proposta',
  '/mapa-dev-test',
  '/caixa-postal',
  // Like the mailbox, it decides itself who may use it (the insurer's admins of either generation).
  '/banco-demonstracao',
  '/sair',
  '/403',
  '/404',
  '/410',
  // The page a failure renders; asked for directly, it is an error page for anyone, as /404 is.
  '/500',
  '/dev/kit-ui',
  // The built-in AFS receiver stands for an external application: it trusts the posted key, not our session.
  '/afs/receptor',
  '/v2/senha',
  '/v2/reenviar-codigo-validacao',
  '/v2/cadastro-realizado',
  '/v2/template-email',
  '/v2/login',
  '/v2/esqueci-senha',
  // The second step of sign-in: no session yet, its own challenge cookie (decision 068).
  '/signin/segundo-fator',
  '/v2/login/segundo-fator',
]);
// The insured's link to a policy's PDF: the token in the path is the credential (decision 035).
// Issue 31: the insured's boleto link and the reminders' opt-out link, the same way.
const PUBLIC_PREFIXES = ['/v2/login/session/', '/template-email/', '/apolice-digital/', '/boleto-digital/', '/lembretes/'];

export function routeArea(pathname: string): RouteArea {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((p) => path.startsWith(p))) return 'public';
  return generationOfPath(path);
}
