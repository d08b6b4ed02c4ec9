import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { HASH_SLOTS, hashCostForTests, hashLoad, hashPassword, PASSWORD_COST, verifyPassword } from './passwords';

describe('password hashing', () => {
  // The cost itself, and slots held as long as a real hash holds them (the suite hashes cheaply).
  beforeAll(() => hashCostForTests(PASSWORD_COST.N));

  it('verifies the password it hashed and refuses another, and a missing or malformed hash', async () => {
    const hash = await hashPassword('Portal@2026');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('Portal@2026', hash)).toBe(true);
    expect(await verifyPassword('portal@2026', hash)).toBe(false);
    expect(await verifyPassword('Portal@2026', null)).toBe(false);
    expect(await verifyPassword('Portal@2026', 'md5$abc')).toBe(false);
  });

  it('runs at most HASH_SLOTS hashes at once; a short line waits, and beyond it a request gets 429 at once', async () => {
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, hashLoad().running);
    }, 5);
    const events: string[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: HASH_SLOTS + 16 + 3 }, () =>
        hashPassword('Portal@2026').then(
          () => {
            events.push('hashed');
          },
          (error: unknown) => {
            events.push(error instanceof DomainError && error.kind === 'too-many' ? '429' : String(error));
            throw error;
          },
        ),
      ),
    );
    clearInterval(watch);
    expect(peak).toBeLessThanOrEqual(HASH_SLOTS);
    // The three beyond the line are refused before any hash ends (a slow machine may refuse a few more later).
    expect(events.slice(0, 3)).toEqual(['429', '429', '429']);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(HASH_SLOTS);
    expect(events.every((e) => e === 'hashed' || e === '429')).toBe(true);
    expect(hashLoad()).toMatchObject({ running: 0, queued: 0 });
  }, 60_000);
});
