import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { verifyPassword } from '../../auth/passwords';
import { now } from '../../clock';
import { DomainError, invalid } from '../../errors';
import { SECOND_FACTOR_MESSAGES, STEP_UP_CODE, STEP_UP_MINUTES, type StepUpProof } from '../../../lib/second-factor';
import { countAttempt, forgetAttempts, RATE_RULES } from './rate-limit';
import { appendAccessEvent } from './access-log';
import { countAnswer, hasAuthenticatorApp, logWrongAnswer, rightAnswer, takeTotpCode } from './second-factor';

/*
 * "Confirme que é você" (issue 42, decision 073): before a change to one's own second factor, its
 * recovery codes or the remembered browsers, the person at the session proves it is them again — the
 * password, or a code of the app. The proof is kept on the session row (sessions.confirmed_at), so any
 * instance reads it, and covers that session's changes for STEP_UP_MINUTES; another session of the
 * same user has proved nothing. A session alone — stolen from a browser or a log — changes nothing.
 */

const WINDOW_MS = STEP_UP_MINUTES * 60_000;

/**
 * Checks the proof and marks the session confirmed; answers until when. Wrong answers count like the
 * secrets they are: a password against the sign-in's budget of this account at this address, a code
 * against the second factor's limits (decision 073); each is logged with its address.
 */
export async function confirmIdentity(db: DB, user: User, sessionId: number, proof: StepUpProof, ip: string): Promise<Date> {
  if ('senha' in proof) {
    const pair = `${user.email}|${ip}`;
    await countAttempt(db, [[RATE_RULES.loginPerAccountAndAddress, pair]]);
    if (!(await verifyPassword(proof.senha, user.password_hash))) {
      await refused(db, user, ip, 'senha');
      throw invalid(SECOND_FACTOR_MESSAGES.stepUpWrongPassword, { senha: [SECOND_FACTOR_MESSAGES.stepUpWrongPassword] });
    }
    await forgetAttempts(db, RATE_RULES.loginPerAccountAndAddress, pair);
  } else {
    if (!(await hasAuthenticatorApp(db, user.id)))
      throw invalid(SECOND_FACTOR_MESSAGES.stepUpNoApp, { codigo: [SECOND_FACTOR_MESSAGES.stepUpNoApp] });
    const counted = await countAnswer(db, user, ip);
    if (!(await takeTotpCode(db, user.id, proof.codigo))) {
      await logWrongAnswer(db, user, user.generation, counted, 'confirmação de identidade');
      throw invalid(SECOND_FACTOR_MESSAGES.wrongCode, { codigo: [SECOND_FACTOR_MESSAGES.wrongCode] });
    }
    await rightAnswer(db, user, ip);
  }
  const at = now();
  await db.updateTable('sessions').set({ confirmed_at: at }).where('id', '=', sessionId).where('user_id', '=', user.id).execute();
  return new Date(at.getTime() + WINDOW_MS);
}

const refused = (db: DB, user: User, ip: string, what: string) =>
  appendAccessEvent(db, {
    event: 'CONFIRMACAO_RECUSADA',
    generation: user.generation,
    email: user.email,
    userId: user.id,
    ip,
    detalhe: `${what} incorreta ao confirmar uma alteração da verificação em duas etapas`,
  });

/** Until when the session's last proof covers changes; undefined when it has none that recent. */
export async function confirmedUntil(db: DB, sessionId: number): Promise<Date | undefined> {
  const row = await db.selectFrom('sessions').select('confirmed_at').where('id', '=', sessionId).executeTakeFirst();
  const until = row?.confirmed_at ? row.confirmed_at.getTime() + WINDOW_MS : 0;
  return until > now().getTime() ? new Date(until) : undefined;
}

/** The 403 a change answers without a recent proof: its `codigo` tells a client to ask for one. */
export const confirmationNeeded = () =>
  new DomainError('forbidden', SECOND_FACTOR_MESSAGES.stepUpNeeded, undefined, undefined, STEP_UP_CODE);

/** Refuses (403, CONFIRMACAO_NECESSARIA) unless the session proved it is its person in the last minutes. */
export async function requireRecentConfirmation(db: DB, sessionId: number): Promise<void> {
  if (!(await confirmedUntil(db, sessionId))) throw confirmationNeeded();
}
