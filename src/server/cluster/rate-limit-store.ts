import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { CallHandler, PrimaryChannel } from './ipc';
import { throttledWarning, type WarningLog } from './throttled-warning';

// Rate-limit counters: this process's (tests, a single process), the primary's for all its workers (so N
// workers allow the limit once, not N times), or Redis's with REDIS_URL (so several servers allow it
// once). Every limiter's keys name it (`login|address|…`, `shared|…`), so all limiters share one key
// space. Besides @fastify/rate-limit's store, each kind can give an attempt back (`refund`): a login with
// the right password is no failed attempt (docs/decisions/006-passwords-account-links-and-attempt-limits.md).

interface Counter {
  current: number;
  ttl: number;
}
type Done = (error: Error | null, counter?: Counter) => void;
interface IncrParams {
  key: string;
  timeWindow: number;
}

/** The plugin's store, and the way to give an attempt it counted back. */
export interface RateLimitCounters {
  store: FastifyRateLimitStoreCtor;
  /** Takes one attempt off `key`'s count in its current window (never below zero). */
  refund(key: string): Promise<void>;
}

/**
 * Attempts per key in fixed windows, each starting at its key's first attempt (as the plugin's own
 * in-memory store counts, which cannot give one back); beyond `capacity` keys the least recently
 * counted is forgotten.
 */
class AttemptCounters {
  private readonly counters = new Map<string, { current: number; endsAt: number }>();
  constructor(private readonly capacity = 50_000) {}

  incr({ key, timeWindow }: IncrParams): Counter {
    const now = Date.now();
    const alive = this.counters.get(key);
    const counter = alive && alive.endsAt > now ? alive : { current: 0, endsAt: now + timeWindow };
    counter.current++;
    // Re-inserted, so the Map's first key is the least recently counted.
    this.counters.delete(key);
    this.counters.set(key, counter);
    if (this.counters.size > this.capacity) this.counters.delete(this.counters.keys().next().value!);
    return { current: counter.current, ttl: counter.endsAt - now };
  }

  refund(key: string) {
    const counter = this.counters.get(key);
    if (counter && counter.current > 0) counter.current--;
  }
}

/** A store class for the plugin whose `incr` is `count`. */
function storeCounting(count: (params: IncrParams) => Promise<Counter>): FastifyRateLimitStoreCtor {
  return class CountingStore {
    incr(key: string, done: Done, timeWindow: number) {
      count({ key, timeWindow }).then(
        (counter) => done(null, counter),
        (error: Error) => done(error),
      );
    }
    child() {
      return new CountingStore();
    }
  };
}

/** Counters kept in this process. */
export function localRateLimits(): RateLimitCounters {
  const counters = new AttemptCounters();
  return {
    store: storeCounting(async (params) => counters.incr(params)),
    refund: async (key) => counters.refund(key),
  };
}

/** Counters kept in the primary: its answers to the workers' calls. */
export function rateLimitCallHandlers(): Record<string, CallHandler> {
  const counters = new AttemptCounters();
  return {
    'rateLimit.incr': ((params: IncrParams) => counters.incr(params)) as CallHandler,
    'rateLimit.refund': ((key: string) => counters.refund(key)) as CallHandler,
  };
}

/** A worker's counters, which live in the primary. */
export function clusterRateLimits(channel: PrimaryChannel): RateLimitCounters {
  return {
    store: storeCounting((params) => channel.call<Counter>('rateLimit.incr', params satisfies IncrParams)),
    refund: (key) => channel.call('rateLimit.refund', key),
  };
}

const require = createRequire(import.meta.url);
const RedisStoreClass = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => { incr(key: string, done: Done, timeWindow: number, max: number): void };
/** One attempt off a counter the plugin's script keeps (its expiry untouched), never below zero. */
const REFUND_SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1]))
if current and current > 0 then redis.call('DECR', KEYS[1]) end`;

/**
 * Counters kept in Redis (the plugin's own Redis store, one atomic script per attempt).
 *
 * When Redis cannot answer (down, restarting, unreachable), the attempt is let through uncounted and a
 * warning is logged: requests are served and counting resumes once ioredis has reconnected.
 */
export function redisRateLimits(redis: Redis, options: { prefix: string; log: WarningLog }): RateLimitCounters {
  const warn = throttledWarning(options.log, 'rate-limit counters unavailable (Redis): attempts are not counted');
  const keyPrefix = `${options.prefix}rate-limit:`;
  const store = new RedisStoreClass(false, false, redis, keyPrefix);
  return {
    store: storeCounting(
      ({ key, timeWindow }) =>
        new Promise((resolve) =>
          store.incr(
            key,
            (error, counter) => {
              if (error || !counter) {
                warn(error ?? undefined);
                return resolve({ current: 0, ttl: timeWindow });
              }
              resolve(counter);
            },
            timeWindow,
            0,
          ),
        ),
    ),
    refund: async (key) => {
      await redis.eval(REFUND_SCRIPT, 1, keyPrefix + key).catch((error: Error) => warn(error));
    },
  };
}
