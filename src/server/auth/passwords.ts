import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { tooManyAttempts } from '../errors';

/**
 * Password hashing with scrypt at OWASP's recommended cost (N=2^17, r=8, p=1). The parameters travel
 * with each hash, so a later raise of the cost still verifies old hashes.
 *
 * Each hash takes ~0.5 s and 128 MiB on a thread of libuv's pool — the pool that also compresses
 * every response. So at most HASH_SLOTS hashes run at once in a process; the others queue (briefly),
 * and beyond the queue a request is refused with 429 instead of starving page rendering
 * (docs/decisions/027-sign-in-limits.md).
 */
export const PASSWORD_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
let cost: ScryptOptions = PASSWORD_COST;

/**
 * The cost new hashes are made at, for a vitest run only (tests/fixtures/fast-hashing.ts): the suite
 * makes and checks thousands of hashes — seeds, sign-ins, imports — and at full cost they were a good
 * part of its time. A hash keeps its parameters, so checking needs nothing else; the tests of the
 * cost itself and of the hash slots put PASSWORD_COST back. Refused anywhere but a vitest worker.
 */
export function hashCostForTests(N: number): void {
  if (process.env.VITEST !== 'true') throw new Error('hashCostForTests: only inside a vitest run');
  cost = { ...PASSWORD_COST, N };
  dummyHash = undefined;
}

export const HASH_SLOTS = 2;
const MAX_QUEUED = 16;
const MAX_QUEUE_WAIT_MS = 10_000;

let running = 0;
let started = 0;
const queue: (() => void)[] = [];

const busy = () => tooManyAttempts(2, 'Muitos acessos ao mesmo tempo. Tente novamente em instantes.');

/** Runs `work` in one of the hash slots, waiting in line for one when they are all taken. */
async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) {
    if (queue.length >= MAX_QUEUED) throw busy();
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(wake), 1);
        reject(busy());
      }, MAX_QUEUE_WAIT_MS);
      queue.push(wake);
    });
  } else {
    running += 1;
  }
  try {
    started += 1;
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  }
}

/** How many hashes run and wait right now, and how many ever started (for tests and diagnostics). */
export const hashLoad = () => ({ running, queued: queue.length, started });

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // maxmem must exceed 128 * N * r bytes (128 MiB here).
  return inHashSlot(
    () =>
      new Promise((resolve, reject) =>
        scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

// Checked when there is no hash to check (unknown account, first access pending), so the answer
// takes as long as a real check and timing does not tell which accounts exist.
let dummyHash: Promise<string> | undefined;

function standInHash(): Promise<string> {
  // A refusal (all slots busy) is not kept: the next check makes it again.
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  const usable = parts[0] === 'scrypt' && Boolean(parts[4]) && Boolean(parts[5]);
  const [, n, r, p, salt, key] = usable ? parts : (await standInHash()).split('$');
  const expected = Buffer.from(key!, 'base64');
  const actual = await scrypt(password, Buffer.from(salt!, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return usable && actual.length === expected.length && timingSafeEqual(actual, expected);
}
