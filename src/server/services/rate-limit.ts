import { sql } from 'kysely';
import type { DB } from '../db';
import { tooManyRequests } from '../api/errors';

/**
 * Fixed-window counters in the database, so every instance of the server sees the same counts.
 * A rule names what it protects; keys are `rule:subject` (an IP or a normalized e-mail).
 */
export interface RateRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

export const RATE_RULES = {
  loginFailuresPerAccount: { name: 'login-conta', limit: 5, windowSeconds: 15 * 60 },
  loginFailuresPerIp: { name: 'login-ip', limit: 30, windowSeconds: 15 * 60 },
  recoveryPerAccount: { name: 'recuperacao-conta', limit: 3, windowSeconds: 15 * 60 },
  recoveryPerIp: { name: 'recuperacao-ip', limit: 20, windowSeconds: 15 * 60 },
  codeAttemptsPerAccount: { name: 'codigo-conta', limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, RateRule>;

const windowStart = (rule: RateRule, now: number) =>
  new Date(Math.floor(now / (rule.windowSeconds * 1000)) * rule.windowSeconds * 1000);

async function count(db: DB, rule: RateRule, subject: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', `${rule.name}:${subject}`)
    .where('window_start', '=', windowStart(rule, now))
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Throws 429 when any of the subjects has used up its rule in the current window. */
export async function assertNotLimited(db: DB, checks: [RateRule, string][], now = Date.now()): Promise<void> {
  for (const [rule, subject] of checks) {
    if ((await count(db, rule, subject, now)) >= rule.limit) {
      const retryAfter = Math.ceil((windowStart(rule, now).getTime() + rule.windowSeconds * 1000 - now) / 1000);
      throw tooManyRequests(retryAfter);
    }
  }
}

export async function recordHit(db: DB, checks: [RateRule, string][], now = Date.now()): Promise<void> {
  for (const [rule, subject] of checks) {
    const key = `${rule.name}:${subject}`;
    await db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart(rule, now), hits: 1 })
      .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
      .execute();
    // Old windows of this key are never read again.
    await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', windowStart(rule, now)).execute();
  }
}

/** Counts a request and refuses it once the window is used up (for endpoints limited on every call). */
export async function consume(db: DB, checks: [RateRule, string][], now = Date.now()): Promise<void> {
  await assertNotLimited(db, checks, now);
  await recordHit(db, checks, now);
}
