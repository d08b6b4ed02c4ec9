import { randomInt } from 'node:crypto';
import type { DB } from '../../db';
import type { CodePurpose } from '../../db/schema';
import { hashToken, newToken } from '../../auth/tokens';
import { now } from '../../clock';

/**
 * Single-use, expiring codes: password-reset links, first-access validation codes and SSO session
 * ids, and the AFS redirect key (chaveBroto). Only hashes are stored; issuing a new code of a purpose retires the user's earlier ones.
 */
export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  RESET: 60 * 60 * 1000,
  PRIMEIRO_ACESSO: 24 * 60 * 60 * 1000,
  SSO: 5 * 60 * 1000,
  // The browser posts the AFS key the moment it gets it: two minutes cover a slow network, not a replay.
  REDIRECT_AFS: 2 * 60 * 1000,
};

// A six-digit code is hashed with its user, so two users may hold the same digits.
const codeHash = (purpose: CodePurpose, secret: string, userId?: number) =>
  hashToken(purpose === 'PRIMEIRO_ACESSO' ? `${userId}:${secret}` : secret);

export async function issueCode(db: DB, userId: number, purpose: CodePurpose): Promise<{ secret: string; expiresAt: Date }> {
  const secret = purpose === 'PRIMEIRO_ACESSO' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : newToken();
  const expiresAt = new Date(now().getTime() + CODE_LIFETIME_MS[purpose]);
  const write = async (trx: DB) => {
    await retireCodes(trx, userId, [purpose]); // only the newest code of a purpose works
    await trx
      .insertInto('one_time_codes')
      .values({ user_id: userId, purpose, code_hash: codeHash(purpose, secret, userId), expires_at: expiresAt, created_at: now() })
      .execute();
  };
  // Inside the caller's transaction when given one (a user import's batch), else in its own.
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return { secret, expiresAt };
}

/** Marks a user's unused codes of these purposes used (a new password ends every link still out there). */
export async function retireCodes(db: DB, userId: number, purposes: readonly CodePurpose[]): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ used_at: now() })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}

export type ConsumedCode = { ok: true; userId: number } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/**
 * Marks a code used and returns its user. The single UPDATE … WHERE used_at IS NULL makes it
 * single-use even when two requests race for it.
 */
export async function consumeCode(db: DB, purpose: CodePurpose, secret: string, userId?: number): Promise<ConsumedCode> {
  const hash = codeHash(purpose, secret, userId);
  const at = now();
  const used = await db
    .updateTable('one_time_codes')
    .set({ used_at: at })
    .where('code_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst();
  if (used) return { ok: true, userId: used.user_id };
  const existing = await db
    .selectFrom('one_time_codes')
    .select(['used_at', 'expires_at'])
    .where('code_hash', '=', hash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!existing) return { ok: false, reason: 'invalid' };
  return { ok: false, reason: existing.used_at ? 'used' : 'expired' };
}

/** True while the code is unused and unexpired, without consuming it (the reset page checks its link first). */
export async function isCodeUsable(db: DB, purpose: CodePurpose, secret: string, userId?: number): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('code_hash', '=', codeHash(purpose, secret, userId))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now())
    .executeTakeFirst();
  return Boolean(row);
}

/** The id of the user's newest code of a purpose while it may still be used (issuing one retires the others). */
export async function currentCodeId(db: DB, userId: number, purpose: CodePurpose): Promise<number | undefined> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now())
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
