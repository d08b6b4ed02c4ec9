import { sql } from 'kysely';
import type { DB } from '../../db';
import { tooManyAttempts } from '../../errors';
import { now as clockNow, sleep } from '../../clock';

/**
 * Limits on attempts, kept in the database so every instance of the server counts the same
 * (docs/decisions/027-sign-in-limits.md). Two kinds:
 *
 * - A **limit** counts attempts in a fixed window and refuses (429) past its number. The attempt is
 *   counted atomically *before* the work it guards, so a burst of parallel requests cannot all slip
 *   under the limit; a success may give its attempt back (`forgetAttempts`).
 * - A **throttle** never locks: past its free attempts, each further attempt waits for a slot, and
 *   the slots grow apart (a growing delay). An attempt whose slot is too far away is refused with the
 *   time to wait, without taking the slot, so a flood cannot push the next slot ever further.
 *
 * Keys are `rule:subject` (an address, a normalized e-mail, or both).
 */
export interface LimitRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface ThrottleRule {
  name: string;
  /** Attempts without delay, before the delay starts. */
  free: number;
  /** The first delay, doubling with each further attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** An attempt waits for its slot up to this long; a slot further away is refused (429). */
  maxWaitMs: number;
  /** Attempts are forgotten after this long without one. */
  quietSeconds: number;
}

export const RATE_RULES = {
  /** One account from one address: the guesser's own budget (a success clears it). */
  loginPerAccountAndAddress: { name: 'login-par', limit: 5, windowSeconds: 15 * 60 },
  recoveryPerAccount: { name: 'recuperacao-conta', limit: 3, windowSeconds: 15 * 60 },
  recoveryPerIp: { name: 'recuperacao-ip', limit: 20, windowSeconds: 15 * 60 },
  /**
   * New first-access codes an account may be sent from the public forms (decision 073): each new code
   * starts its own throttle, so how many there may be bounds what a guesser gets a day.
   */
  newCodesPerAccount: { name: 'codigo-novo-conta', limit: 3, windowSeconds: 60 * 60 },
  /** First-access codes typed for one account from one address: the guesser's own budget (decision 073). */
  codePerAccountAndAddress: { name: 'codigo-par', limit: 5, windowSeconds: 15 * 60 },
  /** Answers to one account's second factor from one address: the guesser's own budget (decisions 068, 073). */
  secondFactorPerAccountAndAddress: { name: 'segundo-fator-par', limit: 10, windowSeconds: 15 * 60 },
  /** Password resets hash the new password: each address gets a budget of them. */
  resetPerIp: { name: 'redefinicao-ip', limit: 20, windowSeconds: 15 * 60 },
  /** Error reports of the embedded issuance apps: a looping app must not flood the log. */
  appErrorsPerUser: { name: 'erro-aplicacao', limit: 30, windowSeconds: 5 * 60 },
} satisfies Record<string, LimitRule>;

export const THROTTLES = {
  /** Failures against one account from anywhere: 5 free, then 1 s, 2 s, 4 s … at most 30 s apart. */
  loginPerAccount: { name: 'login-conta', free: 5, baseDelayMs: 1_000, maxDelayMs: 30_000, maxWaitMs: 5_000, quietSeconds: 15 * 60 },
  /** Failures from one address (an office behind one NAT): 30 free, then ½ s … at most 5 s apart. */
  loginPerAddress: { name: 'login-ip', free: 30, baseDelayMs: 500, maxDelayMs: 5_000, maxWaitMs: 10_000, quietSeconds: 15 * 60 },
  /**
   * Wrong first-access codes against one code, from anywhere (decision 073): 3 free, then 30 s, 1 min …
   * at most 10 min apart, remembered for a day. Keyed by the code: a new one starts clean.
   */
  codePerCode: { name: 'codigo-conta', free: 3, baseDelayMs: 30_000, maxDelayMs: 600_000, maxWaitMs: 5_000, quietSeconds: 24 * 3600 },
  /** First-access codes from one address, across accounts (an office onboarding together): as the login's. */
  codePerAddress: { name: 'codigo-ip', free: 30, baseDelayMs: 500, maxDelayMs: 5_000, maxWaitMs: 10_000, quietSeconds: 15 * 60 },
  /**
   * Answers to one account's second factor from places where it was never proved (decision 073): 5
   * free, then 30 s, 1 min … at most 10 min apart, remembered for a day. The owner's own places skip it.
   */
  secondFactorPerAccount: {
    name: 'segundo-fator-conta',
    free: 5,
    baseDelayMs: 30_000,
    maxDelayMs: 600_000,
    maxWaitMs: 5_000,
    quietSeconds: 24 * 3600,
  },
  /** Second-factor answers from one address, across accounts. */
  secondFactorPerAddress: {
    name: 'segundo-fator-ip',
    free: 30,
    baseDelayMs: 500,
    maxDelayMs: 5_000,
    maxWaitMs: 10_000,
    quietSeconds: 15 * 60,
  },
} satisfies Record<string, ThrottleRule>;

const keyOf = (rule: { name: string }, subject: string) => `${rule.name}:${subject}`;

const windowStart = (rule: LimitRule, at: number) => new Date(Math.floor(at / (rule.windowSeconds * 1000)) * rule.windowSeconds * 1000);

/**
 * Counts one attempt against each check, then refuses (429) if any is past its limit. One atomic
 * statement per check: two parallel requests never read the same count.
 */
export async function countAttempt(db: DB, checks: [LimitRule, string][], at = clockNow()): Promise<void> {
  for (const [rule, subject] of checks) {
    const key = keyOf(rule, subject);
    const start = windowStart(rule, at.getTime());
    const { hits } = await db
      .insertInto('rate_limits')
      .values({ key, window_start: start, hits: 1 })
      .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
      .returning('hits')
      .executeTakeFirstOrThrow();
    // Old windows of this key are never read again.
    if (hits === 1) await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', start).execute();
    if (hits > rule.limit) {
      throw tooManyAttempts(Math.ceil((start.getTime() + rule.windowSeconds * 1000 - at.getTime()) / 1000));
    }
  }
}

/** Gives back one attempt of the current window: it was refused before anything was checked. */
export async function giveBackAttempt(db: DB, rule: LimitRule, subject: string, at = clockNow()): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql`hits - 1` })
    .where('key', '=', keyOf(rule, subject))
    .where('window_start', '=', windowStart(rule, at.getTime()))
    .where('hits', '>', 0)
    .execute();
}

/** Gives back the attempts of a subject (a success: the attempts were the rightful user's). */
export async function forgetAttempts(db: DB, rule: LimitRule, subject: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', keyOf(rule, subject)).execute();
}

export interface ThrottleState {
  attempts: number;
  lastAt: number;
  nextAt: number;
}

export type ThrottlePlan = { waitMs: number; state: ThrottleState } | { refuseMs: number };

/** The delay after the n-th attempt past the free ones (n ≥ 1). */
export const throttleDelay = (rule: ThrottleRule, n: number) => Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** (n - 1));

/**
 * Where one more attempt stands (pure): free, waiting for its slot, or refused because its slot is
 * further than the rule lets anyone wait. A refusal changes nothing.
 */
export function planThrottle(rule: ThrottleRule, state: ThrottleState | undefined, at: number): ThrottlePlan {
  const quiet = !state || at - state.lastAt >= rule.quietSeconds * 1000;
  const current = quiet ? { attempts: 0, lastAt: at, nextAt: at } : state;
  const attempts = current.attempts + 1;
  if (attempts <= rule.free) return { waitMs: 0, state: { attempts, lastAt: at, nextAt: Math.max(current.nextAt, at) } };
  const start = Math.max(current.nextAt, at);
  if (start - at > rule.maxWaitMs) return { refuseMs: start - at };
  return { waitMs: start - at, state: { attempts, lastAt: at, nextAt: start + throttleDelay(rule, attempts - rule.free) } };
}

/**
 * Takes one attempt's slot of a throttle and waits for it; 429 when the slot is too far away. The
 * row is locked while the slot is chosen, so parallel attempts take successive slots. Answers how
 * many attempts the subject has made in its window, this one included.
 */
export async function throttle(
  db: DB,
  rule: ThrottleRule,
  subject: string,
  /** What a refusal says, given the seconds to wait (the default says to wait a few minutes). */
  message?: (seconds: number) => string,
): Promise<number> {
  const key = keyOf(rule, subject);
  const at = clockNow().getTime();
  const plan = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('throttles').selectAll().where('key', '=', key).forUpdate().executeTakeFirst();
    const plan = planThrottle(rule, row && { attempts: row.attempts, lastAt: row.last_at.getTime(), nextAt: row.next_at.getTime() }, at);
    if ('state' in plan) {
      const values = { attempts: plan.state.attempts, last_at: new Date(plan.state.lastAt), next_at: new Date(plan.state.nextAt) };
      await trx
        .insertInto('throttles')
        .values({ key, ...values })
        .onConflict((oc) => oc.column('key').doUpdateSet(values))
        .execute();
    }
    return plan;
  });
  if ('refuseMs' in plan) {
    const seconds = Math.ceil(plan.refuseMs / 1000);
    throw tooManyAttempts(seconds, message?.(seconds));
  }
  await sleep(plan.waitMs);
  return plan.state.attempts;
}

/**
 * After a success: gives back this one attempt (it was no failure). The subject keeps the others — an
 * account its guessers' failures, an address other accounts' failures.
 */
export async function throttleSucceeded(db: DB, subjects: [ThrottleRule, string][]): Promise<void> {
  await db
    .updateTable('throttles')
    .set({ attempts: sql`greatest(attempts - 1, 0)` })
    .where(
      'key',
      'in',
      subjects.map(([rule, subject]) => keyOf(rule, subject)),
    )
    .execute();
}

/** How long a place an account signed in from stays known. */
const KNOWN_PLACE_DAYS = 90;

/** Remembers that the account signed in from this address. */
export async function rememberPlace(db: DB, email: string, ip: string): Promise<void> {
  const values = { email, ip, last_at: clockNow() };
  await db
    .insertInto('sign_in_places')
    .values(values)
    .onConflict((oc) => oc.columns(['email', 'ip']).doUpdateSet({ last_at: values.last_at }))
    .execute();
}

/** Did the account sign in from this address lately (its owner's office, home, phone network)? */
export async function isKnownPlace(db: DB, email: string, ip: string): Promise<boolean> {
  const since = new Date(clockNow().getTime() - KNOWN_PLACE_DAYS * 86_400_000);
  const row = await db
    .selectFrom('sign_in_places')
    .select('last_at')
    .where('email', '=', email)
    .where('ip', '=', ip)
    .where('last_at', '>', since)
    .executeTakeFirst();
  return Boolean(row);
}

/** Remembers that the account proved its second factor from this address (its owner's place from now on). */
export async function rememberSecondFactorPlace(db: DB, email: string, ip: string): Promise<void> {
  const at = clockNow();
  await db
    .insertInto('sign_in_places')
    .values({ email, ip, last_at: at, second_factor_at: at })
    .onConflict((oc) => oc.columns(['email', 'ip']).doUpdateSet({ last_at: at, second_factor_at: at }))
    .execute();
}

/**
 * Did the account prove its second factor from this address lately? A password alone does not make a
 * place known here: whoever guesses the second factor already holds the password.
 */
export async function isKnownSecondFactorPlace(db: DB, email: string, ip: string): Promise<boolean> {
  const since = new Date(clockNow().getTime() - KNOWN_PLACE_DAYS * 86_400_000);
  const row = await db
    .selectFrom('sign_in_places')
    .select('second_factor_at')
    .where('email', '=', email)
    .where('ip', '=', ip)
    .where('second_factor_at', '>', since)
    .executeTakeFirst();
  return Boolean(row);
}

/** Drops the rows nobody will read again (called now and then by the sign-in, so no job is needed). */
export async function pruneLimits(db: DB, at = clockNow()): Promise<void> {
  const before = (seconds: number) => new Date(at.getTime() - seconds * 1000);
  const quietest = Math.max(...Object.values(THROTTLES).map((r) => r.quietSeconds));
  const longestWindow = Math.max(...Object.values(RATE_RULES).map((r) => r.windowSeconds));
  await db.deleteFrom('throttles').where('last_at', '<', before(quietest)).execute();
  await db.deleteFrom('rate_limits').where('window_start', '<', before(longestWindow)).execute();
  await db
    .deleteFrom('sign_in_places')
    .where('last_at', '<', new Date(at.getTime() - KNOWN_PLACE_DAYS * 86_400_000))
    .execute();
}
