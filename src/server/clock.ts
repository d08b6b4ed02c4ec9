/**
 * The server's one clock (DESIGN §10). Rules that read the time — session expiry, one-time codes,
 * sign-in throttles — ask here, so a test moves time instead of waiting for it.
 */
interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

let current: Clock = systemClock;

export const now = (): Date => new Date(current.now());
export const nowMs = (): number => current.now();
export const sleep = (ms: number): Promise<void> => (ms > 0 ? current.sleep(ms) : Promise.resolve());

/**
 * Tests only: a clock that stands still at `start` and moves when advanced — or when slept on, so a
 * throttle's delay passes at once and the test reads where it would have ended.
 */
export function useManualClock(start = Date.now()) {
  let time = start;
  current = {
    now: () => time,
    sleep: async (ms) => {
      time += ms;
    },
  };
  return {
    advance(ms: number) {
      time += ms;
    },
    restore() {
      current = systemClock;
    },
  };
}

/**
 * Browser journeys only (config TEST_CLOCK_OFFSET_DAYS, PORTAL_ENV=TEST): the system clock moved a
 * fixed amount ahead, for a server started as it would be days later.
 */
export function runClockAhead(offsetMs: number) {
  current = { now: () => Date.now() + offsetMs, sleep: systemClock.sleep };
}
