import { config } from './config';

/**
 * The server's one clock (DESIGN §10). Rules that read the time — session expiry, one-time codes,
 * sign-in throttles, acceptance deadlines, due dates, the instants rows are written at — ask here,
 * so a test moves time instead of waiting for it. Outside production CLOCK_OFFSET_DAYS sets the
 * whole server ahead (config.ts): `now()` is the wall clock plus that offset.
 *
 * `realNow()` is the wall clock without the offset. It exists for one purpose: comparing with the
 * clock of someone outside the server — the bank signs its payment confirmations with its own,
 * real, time (decision 059). Nothing the portal decides or stores reads it.
 */
interface Clock {
  /** The wall clock, in milliseconds (the offset is added on top). */
  wall(): number;
  sleep(ms: number): Promise<void>;
}

let offsetMs: number | undefined;
const offset = () => (offsetMs ??= config().CLOCK_OFFSET_DAYS * 86_400_000);

const systemClock: Clock = {
  wall: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

let current: Clock = systemClock;

export const now = (): Date => new Date(current.wall() + offset());
export const nowMs = (): number => current.wall() + offset();
export const realNow = (): Date => new Date(current.wall());
export const sleep = (ms: number): Promise<void> => (ms > 0 ? current.sleep(ms) : Promise.resolve());

/**
 * Tests only: a wall clock that stands still at `start` and moves when advanced — or when slept on,
 * so a throttle's delay passes at once and the test reads where it would have ended. An offset
 * (CLOCK_OFFSET_DAYS) still applies on top of it, as on the system clock.
 */
export function useManualClock(start = Date.now()) {
  let time = start;
  current = {
    wall: () => time,
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
