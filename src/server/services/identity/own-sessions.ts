import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { describeDevice } from '../../../lib/devices';
import { appendAccessEvent } from './access-log';
import { endSessionOf, openSessionsOf, revokeUserSessions } from './sessions';

/**
 * The signed-in user's own sessions (issue 32, "Sessões ativas" of the security page and its API):
 * each with its device and place, the current one marked; ending one, or every other.
 */

export interface SessionRow {
  id: number;
  dispositivo: string;
  ip: string | null;
  iniciadaEm: Date;
  ultimoUso: Date;
  atual: boolean;
}

export async function ownSessions(db: DB, user: User, currentId: number | undefined): Promise<SessionRow[]> {
  return (await openSessionsOf(db, user.id)).map((s) => ({
    id: s.id,
    dispositivo: describeDevice(s.userAgent),
    ip: s.ip,
    iniciadaEm: s.createdAt,
    ultimoUso: s.lastSeenAt,
    atual: s.id === currentId,
  }));
}

/** Ends one of the user's own sessions; another user's, or one already ended, is the 404 it would be anyway. */
export async function endOwnSession(db: DB, user: User, sessionId: number, ip: string): Promise<void> {
  if (!(await endSessionOf(db, user.id, sessionId))) throw notFound('Sessão não encontrada ou já encerrada.');
  await appendAccessEvent(db, { event: 'SESSAO_ENCERRADA', generation: user.generation, email: user.email, userId: user.id, ip });
}

/** Ends every session of the user but the one making the request. */
export async function endOtherSessions(db: DB, user: User, currentId: number, ip: string): Promise<void> {
  await revokeUserSessions(db, user.id, currentId);
  await appendAccessEvent(db, { event: 'SESSOES_ENCERRADAS', generation: user.generation, email: user.email, userId: user.id, ip });
}
