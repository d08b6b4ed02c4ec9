import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { describeDevice, type SessionRow } from '../../../lib/devices';
import { appendAccessEvent } from './access-log';
import { endSessionOf, openSessionsOf, revokeUserSessions, type OpenSession } from './sessions';
import { hashToken } from '../../auth/tokens';

/**
 * The signed-in user's own sessions (issue 32, "Sessões ativas" of the security page and its API):
 * each with its device and place, the current one marked; ending one, or every other.
 */

/** The session making the request: its id (an API call knows it) or the token its cookie holds (a page). */
export type CurrentSession = { id: number } | { token: string | undefined };

/**
 * A user's open sessions as their lists show them; `current`, when the user is the one asking, marks
 * theirs and puts it first (issue 42: "Esta sessão" heads the list), the others by last use.
 */
export async function sessionsOf(db: DB, userId: number, current?: CurrentSession): Promise<SessionRow[]> {
  const currentHash = current && 'token' in current && current.token ? hashToken(current.token) : undefined;
  const isCurrent = (s: OpenSession) => (current && 'id' in current ? s.id === current.id : s.tokenHash === currentHash);
  const sessions = await openSessionsOf(db, userId);
  const ordered = [...sessions.filter(isCurrent), ...sessions.filter((s) => !isCurrent(s))];
  return ordered.map((s) => ({
    id: s.id,
    dispositivo: describeDevice(s.userAgent),
    ip: s.ip,
    iniciadaEm: s.createdAt,
    ultimoUso: s.lastSeenAt,
    atual: isCurrent(s),
  }));
}

/** Ends one of the user's own sessions; another user's, or one already ended, is the 404 it would be anyway. */
export async function endOwnSession(db: DB, user: User, sessionId: number, ip: string): Promise<void> {
  if (!(await endSessionOf(db, user.id, sessionId, 'encerrada'))) throw notFound('Sessão não encontrada ou já encerrada.');
  await appendAccessEvent(db, { event: 'SESSAO_ENCERRADA', generation: user.generation, email: user.email, userId: user.id, ip });
}

/** Ends every session of the user but the one making the request. */
export async function endOtherSessions(db: DB, user: User, currentId: number, ip: string): Promise<void> {
  await revokeUserSessions(db, user.id, 'encerrada', currentId);
  await appendAccessEvent(db, { event: 'SESSOES_ENCERRADAS', generation: user.generation, email: user.email, userId: user.id, ip });
}
