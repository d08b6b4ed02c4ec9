import { describe, expect, it, vi } from 'vitest';
import { withDeadline } from './deadline';

describe('withDeadline', () => {
  it('answers what the work answers in time, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    try {
      await expect(withDeadline(Promise.resolve(7), 1_000, () => new Error('tarde'))).resolves.toBe(7);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails with the given error once the time passes', async () => {
    vi.useFakeTimers();
    try {
      const late = withDeadline(new Promise<number>(() => {}), 1_000, () => new Error('sem resposta em 1 s'));
      const outcome = expect(late).rejects.toThrow('sem resposta em 1 s');
      await vi.advanceTimersByTimeAsync(1_000);
      await outcome;
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes on the work’s own failure', async () => {
    await expect(withDeadline(Promise.reject(new Error('recusado')), 1_000, () => new Error('tarde'))).rejects.toThrow('recusado');
  });
});
