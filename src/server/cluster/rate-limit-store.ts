import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { CallHandler, PrimaryChannel } from './ipc';
import { throttledWarning, type WarningLog } from './throttled-warning';

// Rate-limit counters shared by the workers: the primary keeps them (in @fastify/rate-limit's own
// in-memory store), so N workers allow the limit once, not N times. With REDIS_URL they live in Redis
// instead, so several servers (each with its workers) allow it once.

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

const require = createRequire(import.meta.url);
const LocalStoreClass = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => LocalStore;
const RedisStoreClass = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
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

/**
 * A store for @fastify/rate-limit whose counters live in Redis (the plugin's own Redis store, one
 * atomic script per attempt). Every limiter's keys name it (`login|address|…`, `shared|…`), so all
 * limiters share one key space, the same on every server whatever its version.
 *
 * When Redis cannot answer (down, restarting, unreachable), the attempt is let through uncounted and a
 * warning is logged: requests are served and counting resumes once ioredis has reconnected.
 */
export function redisRateLimitStore(redis: Redis, options: { prefix: string; log: WarningLog }) {
  const warn = throttledWarning(options.log, 'rate-limit counters unavailable (Redis): attempts are not counted');
  const store = new RedisStoreClass(false, false, redis, `${options.prefix}rate-limit:`);
  return class RedisRateLimitStore {
    incr(key: string, done: Done, timeWindow: number, max: number) {
      store.incr(
        key,
        (error, counter) => {
          if (error || !counter) {
            warn(error ?? undefined);
            return done(null, { current: 0, ttl: timeWindow });
          }
          done(null, counter);
        },
        timeWindow,
        max,
      );
    }
    child() {
      return new RedisRateLimitStore();
    }
  };
}
