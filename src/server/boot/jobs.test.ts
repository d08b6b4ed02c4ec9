import { describe, expect, it, vi } from 'vitest';
import type { DB } from '../db';
import { startJobs } from './jobs';

const db = {} as DB;
const tick = () => new Promise((done) => setTimeout(done, 15));

describe('startJobs', () => {
  it('runs each job at its first turn and then at every interval, never two turns of one job at once', async () => {
    let release!: () => void;
    const run = vi.fn(() => new Promise<void>((done) => (release = done)));
    const stop = startJobs(db, [{ name: 'lenta', everyMs: 5, run }], 1);
    await tick();
    // The first turn has not ended: the ticks since then did not start another.
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await tick();
    expect(run.mock.calls.length).toBeGreaterThan(1);
    release();
    await stop();
  });

  it('logs a failing turn and tries again at the next; stopping waits for the turn under way', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    let finished = false;
    const run = async () => {
      calls += 1;
      if (calls === 1) throw new Error('banco indisponível');
      await new Promise((done) => setTimeout(done, 20));
      finished = true;
    };
    const stop = startJobs(db, [{ name: 'instável', everyMs: 5, run }], 1);
    await tick();
    await stop();
    expect(error).toHaveBeenCalledWith('{"evento":"tarefa-falha","tarefa":"instável","erro":"banco indisponível"}');
    expect(calls).toBeGreaterThan(1);
    expect(finished).toBe(true);
    error.mockRestore();
  });
});
