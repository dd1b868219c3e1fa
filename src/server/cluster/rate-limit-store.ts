import { createRequire } from 'node:module';
import type { CallHandler, PrimaryChannel } from './ipc';

// Rate-limit counters shared by the workers: the primary keeps them (in @fastify/rate-limit's own
// in-memory store), so N workers allow the limit once, not N times.

interface Counter {
  current: number;
  ttl: number;
}
type Done = (error: Error | null, counter?: Counter) => void;
interface LocalStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
}
interface IncrParams {
  store: number;
  key: string;
  timeWindow: number;
  max: number;
}

const LocalStoreClass = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => LocalStore;

/** Counters kept in the primary, one set per limiter. */
export function rateLimitCallHandlers(): Record<string, CallHandler> {
  const stores = new Map<number, LocalStore>();
  const incr = ({ store, key, timeWindow, max }: IncrParams) =>
    new Promise<Counter>((resolve, reject) => {
      let local = stores.get(store);
      if (!local) stores.set(store, (local = new LocalStoreClass(false, false, 50_000)));
      local.incr(
        key,
        (error, counter) => (error || !counter ? reject(error ?? new Error('no counter')) : resolve(counter)),
        timeWindow,
        max,
      );
    });
  return { 'rateLimit.incr': incr as CallHandler };
}

/**
 * A store for @fastify/rate-limit whose counters live in the primary. Limiters are created in the same
 * order in every worker, so the n-th limiter of each worker shares the n-th set of counters.
 */
export function clusterRateLimitStore(channel: PrimaryChannel) {
  let limiters = 0;
  return class ClusterRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly id = 0,
    ) {}
    incr(key: string, done: Done, timeWindow: number, max: number) {
      channel.call<Counter>('rateLimit.incr', { store: this.id, key, timeWindow, max } satisfies IncrParams).then(
        (counter) => done(null, counter),
        (error: Error) => done(error),
      );
    }
    child() {
      return new ClusterRateLimitStore(undefined, ++limiters);
    }
  };
}
