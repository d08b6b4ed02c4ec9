import type { DB } from '../../db';
import { notFound } from '../../errors';
import { queueFirstAccess } from '../identity/account';
import { USER_ADMIN_MESSAGES, type Actor } from '../../../lib/user-admin';
import { managedUser, requireChange } from './user-admin';
import { inUserChange, logEvent } from './user-admin-writing';

/*
 * Resending a pending user's invitation (issue 32): a new first-access code — the old one stops
 * working (identity/codes.ts issues one per user and purpose) — e-mailed by the delivery job once the
 * transaction commits, logged as who sent it to whom. Only a user the actor manages, and only while
 * pending: an active user has a password, an inactive or blocked one must be reactivated first.
 */

/** Sends a pending user a new first-access code; false (nothing sent) when they are not pending. */
export async function resendInvitation(db: DB, actor: Actor, id: number, ip: string | null): Promise<boolean> {
  requireChange(actor);
  return inUserChange(db, async (trx) => {
    const user = await managedUser(trx, actor, { id });
    if (!user) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    if (user.status !== 'PENDENTE') return false;
    await queueFirstAccess(trx, user);
    await logEvent(trx, 'CONVITE_REENVIADO', user, actor.userId, ip, 'novo código de primeiro acesso enviado');
    return true;
  });
}
