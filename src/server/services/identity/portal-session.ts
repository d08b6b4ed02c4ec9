import type { DB } from '../../db';
import type { SessionKind } from '../../db/schema';
import { TOKEN_COOKIES, type PortalSession, type SessionEndReason } from '../../../lib/session';
import { resolveSession } from './sessions';
import { loadV1User, loadV2User } from './principals';

/**
 * The session of a page request, from the three token cookies. Tokens that no longer resolve are
 * reported so the middleware clears them from the browser — with why, when someone else ended one
 * (the login page says it).
 */
export async function resolvePortalSession(
  db: DB,
  cookie: (name: string) => string | undefined,
): Promise<{ session: PortalSession; expired: string[]; ended?: SessionEndReason }> {
  const session: PortalSession = {};
  const expired: string[] = [];
  let ended: SessionEndReason | undefined;

  async function user(kind: SessionKind) {
    const token = cookie(TOKEN_COOKIES[kind]);
    if (!token) return undefined;
    const resolved = await resolveSession(db, token, [kind]);
    const found = resolved.ok ? resolved.user : undefined;
    if (!resolved.ok) ended ??= resolved.ended;
    if (found?.status !== 'ATIVO' || found.generation !== (kind === 'v1' ? 'v1' : 'v2')) {
      expired.push(TOKEN_COOKIES[kind]);
      return undefined;
    }
    return found;
  }

  const v1 = await user('v1');
  if (v1) session.v1 = await loadV1User(db, v1);
  const v2 = await user('v2');
  if (v2) {
    const simulator = await user('simulador');
    const fullyAuthenticated = v2.profile === 'admin' || simulator?.id === v2.id;
    session.v2 = await loadV2User(db, v2, { fullyAuthenticated });
  } else if (cookie(TOKEN_COOKIES.simulador)) {
    // The simulator token ends with its v2 session: its cookie goes too.
    expired.push(TOKEN_COOKIES.simulador);
  }
  return { session, expired, ...(ended ? { ended } : {}) };
}
