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
