import type { DB } from '../../db';
import { readKeysetPage } from '../../db/keyset-page';
import { conflict, notFound } from '../../errors';
import { now } from '../../clock';
import { redactMessagesTo } from '../../mail/outbox';
import { queueFirstAccess, queuePasswordReset } from '../identity/account';
import { forgetRememberedBrowsers } from '../identity/second-factor';
import { retireCodes } from '../identity/codes';
import { worksForAny } from '../identity/users';
import { endSessionOf, revokeUserSessions } from '../identity/sessions';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import { managedCompanies, USER_ADMIN_MESSAGES, type Actor } from '../../../lib/user-admin';
import { invitationState, type InvitationState, type UserPageAction } from '../../../lib/user-page';
import { manageableIds, managedUser, requireChange, requireList } from './user-admin';
import { changed, inUserChange, logEvent, settleAccess, type SavedUser } from './user-admin-writing';

/*
 * Invitations, forced passwords and sessions (issue 32, decision 069): an administrator resends or
 * cancels a pending first access, makes a user choose a new password, or ends the user's sessions — each only on a user they may change
 * (lib/user-admin.ts mayManage; anyone else's is a 404), in the user-change transaction, logged with
 * the actor. The list of pending invitations reads the users the actor may see, oldest first.
 */

export const INVITATION_MESSAGES = {
  notPending: 'Este usuário não tem convite pendente: o primeiro acesso já foi concluído ou o usuário está inativo.',
  notActive: 'Só um usuário ativo tem senha a redefinir: reative-o antes, ou reenvie o convite se o primeiro acesso está pendente.',
  self: 'Para trocar a sua própria senha, use "Alterar senha" no seu perfil.',
  ownSessions: 'Para encerrar as suas próprias sessões, use "Sessões ativas" no seu perfil.',
  noSuchSession: 'Sessão não encontrada ou já encerrada.',
} as const;

async function managedOrNotFound(trx: DB, actor: Actor, id: number) {
  const user = await managedUser(trx, actor, { id });
  if (!user) throw notFound(USER_ADMIN_MESSAGES.notManaged);
  return user;
}

/** A new first-access code for a pending user (the earlier one stops working), e-mailed after the commit. */
export async function resendInvitation(db: DB, actor: Actor, id: number, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const user = await managedOrNotFound(trx, actor, id);
    if (user.status !== 'PENDENTE') throw conflict(INVITATION_MESSAGES.notPending);
    await queueFirstAccess(trx, user);
    await logEvent(trx, 'CONVITE_REENVIADO', user, actor.userId, ip, 'novo código de validação enviado por e-mail');
    return { id, nome: user.nome, email: user.email, status: user.status };
  });
  changed(db, id);
  return saved;
}

/**
 * Cancels a pending invitation: the code stops working (retired, and its e-mail's copy redacted) and
 * the user becomes INATIVO, so no code sent before can complete a first access (completeFirstAccess
 * asks for PENDENTE). Reactivating the user later sends a new invitation (user-admin-writing.ts).
 */
export async function cancelInvitation(db: DB, actor: Actor, id: number, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const user = await managedOrNotFound(trx, actor, id);
    if (user.status !== 'PENDENTE') throw conflict(INVITATION_MESSAGES.notPending);
    const after = await trx
      .updateTable('users')
      .set({ status: 'INATIVO' })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await settleAccess(trx, user, after);
    await logEvent(trx, 'CONVITE_CANCELADO', user, actor.userId, ip, 'situação: PENDENTE → INATIVO; código de validação invalidado');
    return after;
  });
  changed(db, id);
  return saved;
}

/**
 * "Forçar nova senha": the password stops working at once (its hash cleared: no password matches
 * none), every session of the user ends, every link or code still out there is retired, and the
 * ordinary reset e-mail goes out with a fresh link. Not for oneself (the profile changes one's own)
 * nor for a user with no password to replace (pending, inactive, blocked).
 */
export async function forcePasswordReset(db: DB, actor: Actor, id: number, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  if (id === actor.userId) throw conflict(INVITATION_MESSAGES.self);
  const saved = await inUserChange(db, async (trx) => {
    const user = await managedOrNotFound(trx, actor, id);
    if (user.status !== 'ATIVO') throw conflict(INVITATION_MESSAGES.notActive);
    await trx.updateTable('users').set({ password_hash: null, password_changed_at: now() }).where('id', '=', id).execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: now(), end_reason: 'nova-senha' })
      .where('user_id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    // Whoever sets the new password proves the second factor again on every browser (issue 42).
    await forgetRememberedBrowsers(trx, id);
    await retireCodes(trx, id, ['RESET', 'PRIMEIRO_ACESSO', 'SSO']);
    await redactMessagesTo(trx, user.email);
    await queuePasswordReset(trx, { ...user, generation: user.generation });
    await logEvent(
      trx,
      'SENHA_REDEFINICAO_FORCADA',
      user,
      actor.userId,
      ip,
      'sessões encerradas, dispositivos lembrados esquecidos, senha anulada, e-mail de redefinição enviado',
    );
    return { id, nome: user.nome, email: user.email, status: user.status };
  });
  changed(db, id);
  return saved;
}

/**
 * Ends the user's sessions from their page: one (`sessionId`) or every one. The user's next request,
 * on any instance, is refused (the change feed, as for the user's own "Encerrar"). Not one's own: the
 * profile ends those, and keeps the one in use.
 */
export async function endUserSessions(db: DB, actor: Actor, id: number, ip: string | null, sessionId?: number): Promise<SavedUser> {
  requireChange(actor);
  if (id === actor.userId) throw conflict(INVITATION_MESSAGES.ownSessions);
  const user = await managedOrNotFound(db, actor, id);
  if (sessionId === undefined) await revokeUserSessions(db, id, 'encerrada-admin');
  else if (!(await endSessionOf(db, id, sessionId, 'encerrada-admin'))) throw conflict(INVITATION_MESSAGES.noSuchSession);
  await logEvent(
    db,
    'SESSAO_ENCERRADA_ADMIN',
    user,
    actor.userId,
    ip,
    sessionId === undefined ? 'todas as sessões' : `sessão ${sessionId}`,
  );
  return { id, nome: user.nome, email: user.email, status: user.status };
}

/** Each action of the page and the list, by its form value (one session: `endUserSessions` with its id). */
export const USER_PAGE_ACTIONS: Record<Exclude<UserPageAction, 'sessao-encerrar'>, typeof resendInvitation> = {
  'reenviar-convite': resendInvitation,
  'cancelar-convite': cancelInvitation,
  'forcar-nova-senha': forcePasswordReset,
  'sessoes-encerrar': (db, actor, id, ip) => endUserSessions(db, actor, id, ip),
};

// ─── The pending invitations ─────────────────────────────────────────────────────────────────────

export interface PendingInvitation {
  id: number;
  nome: string;
  email: string;
  empresa: string | null;
  invitation: InvitationState;
  manageable: boolean;
}

type PendingRow = {
  id: number;
  nome: string;
  email: string;
  created_at: Date | string;
  razao_social: string | null;
  code_created: Date | string | null;
  code_expires: Date | string | null;
  code_used: Date | string | null;
};

/**
 * The actor's generation's users still waiting for their first access, oldest first, keyset-paged by
 * (created_at, id) through migration 045's partial index of pending users; a company administrator's
 * are those of a company they administer (the users list's scope). Each row's state comes from its
 * newest first-access code: pending while it works, expired once lapsed.
 */
export async function listPendingInvitations(
  db: DB,
  actor: Actor,
  request: PageRequest,
  pageSize: number,
): Promise<KeysetPage<PendingInvitation>> {
  requireList(actor);
  const companies = managedCompanies(actor);
  if (companies !== 'all' && companies.length === 0) return { content: [], page: 1, pageSize, more: false, total: 0 };
  const pending = db
    .selectFrom('users as u')
    .where('u.status', '=', 'PENDENTE')
    .where('u.generation', '=', actor.generation)
    .$if(companies !== 'all', (qb) => qb.where(worksForAny(companies === 'all' ? [] : companies)));
  const read = await readKeysetPage(
    db,
    {
      branches: [pending],
      time: 'u.created_at',
      id: 'u.id',
      order: 'asc',
      columns: (branch: typeof pending) =>
        branch
          .leftJoin('companies as c', 'c.id', 'u.company_id')
          // The newest first-access code alone (issuing one retires the earlier): migration 045's index.
          .leftJoinLateral(
            (eb) =>
              eb
                .selectFrom('one_time_codes as o')
                .select(['o.created_at as code_created', 'o.expires_at as code_expires', 'o.used_at as code_used'])
                .whereRef('o.user_id', '=', 'u.id')
                .where('o.purpose', '=', 'PRIMEIRO_ACESSO')
                .orderBy('o.created_at', 'desc')
                .orderBy('o.id', 'desc')
                .limit(1)
                .as('code'),
            (join) => join.onTrue(),
          )
          .select([
            'u.id',
            'u.nome',
            'u.email',
            'u.created_at',
            'c.razao_social',
            'code.code_created',
            'code.code_expires',
            'code.code_used',
          ]),
    },
    request,
    pageSize,
  );
  const rows = read.content as PendingRow[];
  const manageable = await manageableIds(
    db,
    actor,
    rows.map((r) => r.id),
  );
  const at = now();
  const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    ...read,
    content: rows.map((r) => ({
      id: r.id,
      nome: r.nome,
      email: r.email,
      empresa: r.razao_social,
      manageable: manageable.has(r.id),
      invitation: invitationState(
        {
          status: 'PENDENTE',
          createdAt: new Date(r.created_at),
          completed: false,
          latestCode: r.code_expires
            ? { createdAt: dateOf(r.code_created)!, expiresAt: dateOf(r.code_expires)!, usedAt: dateOf(r.code_used) }
            : null,
          cancelledAt: null,
        },
        at,
      ),
    })),
  };
}
