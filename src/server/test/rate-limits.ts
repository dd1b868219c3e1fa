import { expect } from 'vitest';
import type { RateLimitCounters } from '../cluster/rate-limit-store';

/** Counts one attempt on `key` through the plugin's store interface, as a limiter does; answers the counter. */
export function counting(counters: RateLimitCounters, defaultWindowMs: number) {
  const store = new counters.store({} as never) as unknown as {
    incr(
      key: string,
      done: (error: Error | null, counter?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void;
  };
  return (key: string, timeWindow = defaultWindowMs) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (error, counter) => (error ? reject(error) : resolve(counter!)), timeWindow),
    );
}

/**
 * A refusal's Retry-After once a window's calls are used up: the rest of the window (`windowSeconds` long) that
 * opened at `began` (a `Date.now()` taken before the window's first call) or after it, however long the calls took
 * on a busy machine. Never a fixed "over 3,500 s": 600 calls took two minutes at a load of 30, and a correct 3,490
 * failed it (cec756d; decision 098).
 */
export function expectTheRestOfAWindow(retryAfter: unknown, windowSeconds: number, began: number): void {
  const elapsedSeconds = Math.ceil((Date.now() - began) / 1000);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(windowSeconds - elapsedSeconds - 1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

/** An hourly limit's Retry-After: the rest of the hour from `began` (see expectTheRestOfAWindow). */
export const expectAnHourFrom = (began: number, retryAfter: unknown) => expectTheRestOfAWindow(retryAfter, 3600, began);
