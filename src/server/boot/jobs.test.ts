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
  it('a wake-up starts a turn at once, and one during a turn is kept for right after it', async () => {
    let wake!: () => void;
    let release!: () => void;
    const run = vi.fn(() => new Promise<void>((done) => (release = done)));
    const stop = startJobs(
      db,
      [
        {
          name: 'acordável',
          everyMs: 60_000,
          run,
          wake: (turn) => {
            wake = turn;
            return () => {};
          },
        },
      ],
      60_000,
    );
    wake();
    expect(run).toHaveBeenCalledTimes(1); // neither the first turn (a minute) nor the interval came
    wake();
    wake();
    expect(run).toHaveBeenCalledTimes(1); // not doubled while it runs
    release();
    await tick();
    expect(run).toHaveBeenCalledTimes(2); // the wake-ups during the turn: one turn right after it
    release();
    await tick();
    expect(run).toHaveBeenCalledTimes(2);
    await stop();
    wake();
    expect(run).toHaveBeenCalledTimes(2); // stopped: a wake-up starts nothing
  });
});
