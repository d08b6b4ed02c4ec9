import { describe, expect, it } from 'vitest';
import { planThrottle, throttleDelay, THROTTLES, type ThrottleRule, type ThrottleState } from './rate-limit';

const rule: ThrottleRule = { name: 't', free: 2, baseDelayMs: 1_000, maxDelayMs: 4_000, maxWaitMs: 5_000, quietSeconds: 60 };

/** Plays attempts at the given times (ms), each taking the plan's slot; answers each wait or refusal. */
function play(times: number[]): (number | 'refused')[] {
  let state: ThrottleState | undefined;
  return times.map((at) => {
    const plan = planThrottle(rule, state, at);
    if ('refuseMs' in plan) return 'refused';
    state = plan.state;
    return plan.waitMs;
  });
}

describe('planThrottle', () => {
  it('lets the free attempts through at once, then spaces the others by a doubling delay up to its maximum', () => {
    expect([1, 2, 3, 4, 5].map((n) => throttleDelay(rule, n))).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
    // All at once: free, free, then slots at 0, +1 s, +3 s; +7 s is beyond the 5 s wait.
    expect(play([0, 0, 0, 0, 0, 0])).toEqual([0, 0, 0, 1_000, 3_000, 'refused']);
  });

  it('an attempt that arrives after its slot opened does not wait', () => {
    expect(play([0, 0, 0, 10_000, 20_000])).toEqual([0, 0, 0, 0, 0]);
  });

  it('a refusal takes no slot: a flood does not push the next slot further', () => {
    const first = play([0, 0, 0, 0, 0, 0, 0, 0, 0, 3_100]);
    // After slots at 0, +1 s and +3 s the next opens at +7 s; at 3.1 s it waits 3.9 s — whatever was refused before.
    expect(first.slice(-1)).toEqual([3_900]);
  });

  it('forgets the attempts after a quiet period', () => {
    expect(play([0, 0, 0, 0, 61_000])).toEqual([0, 0, 0, 1_000, 0]);
  });

  it('the sign-in throttles never refuse an attempt that comes alone, however many failures came before', () => {
    for (const throttle of Object.values(THROTTLES)) {
      let state: ThrottleState | undefined;
      let at = 0;
      for (let i = 0; i < 200; i++) {
        const plan = planThrottle(throttle, state, at);
        expect('state' in plan, `${throttle.name} attempt ${i + 1}`).toBe(true);
        if ('state' in plan) state = plan.state;
        at = state!.nextAt; // the next attempt arrives when its slot opens
      }
    }
  });
});
