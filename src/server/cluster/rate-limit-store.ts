import { createHash } from 'node:crypto';
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

/** A counter in its fixed window, which starts at its key's first attempt. */
interface Window {
  current: number;
  endsAt: number;
}

/**
 * The kinds of key whose counters bound what all clients together may do (an account's attempts from every
 * address, an address's mails whoever asks, a person's writes from every device): each limiter's keys of
 * these kinds are held until their window ends, in a store of their own, so that no spray of other keys can
 * push one out and give its account fresh attempts or its person fresh writes
 * (docs/decisions/006-passwords-account-links-and-attempt-limits.md). A key's kind is its second field:
 * `login|account|…`, `reset|mail|…`, `history|person|…`.
 */
const HELD_KINDS = new Set(['account', 'mail', 'person']);

/** The key of a signed-in person's counter of `limiter` (their history writes, say), held as above. */
export const personKey = (limiter: string, userId: number) => `${limiter}|person|${userId}`;
/** The store a held key goes to (its limiter and kind, `login|account`), or undefined for the others. */
function heldStoreOf(key: string): string | undefined {
  const [limiter, kind] = key.split('|', 2);
  return kind !== undefined && HELD_KINDS.has(kind) ? `${limiter}|${kind}` : undefined;
}

/**
 * A held counter's name in its store: 16 bytes of the key's SHA-256, so that a million counters take about
 * 125 MB however long the addresses in their keys (254 characters each: some 480 MB).
 */
const heldName = (key: string) => createHash('sha256').update(key).digest().toString('base64url', 0, 16);

/** Takes one attempt off a counter; one back at zero is dropped, as if never counted. */
function refundOn(counters: Map<string, Window>, key: string) {
  const counter = counters.get(key);
  if (!counter) return;
  if (counter.current > 1) counter.current--;
  else counters.delete(key);
}

/**
 * How many counters a held store takes: new ones go uncounted beyond it until some end. A login's account
 * counter takes a failed password check (a million in one window is more than a dozen cores can hash); the
 * other stores can be filled by calls that cost the server little (a sign-up refused for its password, mails
 * to made-up addresses), so each is kept to 200,000, about 25 MB full, bounding the primary's memory. A
 * person's store fills only with as many signed-in accounts writing within its window (an hour).
 */
const heldCapacityOf = (store: string) => (store === 'login|account' ? 1_000_000 : 200_000);

export interface AttemptCounterLimits {
  /** Counters of clients and of the other limiters, the least recently counted dropped beyond it. */
  recent?: number;
  /** Counters of each limiter's held kind (`login|account`), in place of `heldCapacityOf`. */
  held?: number;
  /** Told when a held store is full, with its name. */
  onFull?: (store: string) => void;
}

/**
 * Attempts per key in fixed windows (as the plugin's own in-memory store counts, which cannot give one
 * back). Each client's counters and the other limiters' are dropped least recently counted first beyond
 * `recent` keys; the held kinds' counters only once their window has ended. A held store full of counters
 * still running counts no new key: the attempt is let through on that counter alone, the others still
 * count it, and `onFull` is told. Refusing instead would let whoever fills it refuse every account that
 * has no counter yet: everyone who logs in (docs/decisions/006-passwords-account-links-and-attempt-limits.md).
 */
class AttemptCounters {
  private readonly recent = new Map<string, Window>();
  /** Per store, in the order their windows began: all of one limiter's windows are as long, so they end in it. */
  private readonly held = new Map<string, Map<string, Window>>();
  private readonly recentCapacity: number;
  private readonly heldCapacity: (store: string) => number;
  private readonly onFull: (store: string) => void;

  constructor(limits: AttemptCounterLimits = {}) {
    this.recentCapacity = limits.recent ?? 50_000;
    const { held } = limits;
    this.heldCapacity = held === undefined ? heldCapacityOf : () => held;
    this.onFull = limits.onFull ?? (() => undefined);
  }

  incr({ key, timeWindow }: IncrParams): Counter {
    const now = Date.now();
    const storeName = heldStoreOf(key);
    const counter = storeName
      ? this.heldCounter(storeName, heldName(key), timeWindow, now)
      : this.recentCounter(key, timeWindow, now);
    if (!counter) return { current: 0, ttl: timeWindow };
    counter.current++;
    return { current: counter.current, ttl: counter.endsAt - now };
  }

  refund(key: string) {
    const storeName = heldStoreOf(key);
    if (!storeName) refundOn(this.recent, key);
    else {
      const counters = this.held.get(storeName);
      if (counters) refundOn(counters, heldName(key));
    }
  }

  private recentCounter(key: string, timeWindow: number, now: number): Window {
    const alive = this.recent.get(key);
    const counter = alive && alive.endsAt > now ? alive : { current: 0, endsAt: now + timeWindow };
    // Re-inserted, so the Map's first key is the least recently counted.
    this.recent.delete(key);
    this.recent.set(key, counter);
    if (this.recent.size > this.recentCapacity) this.recent.delete(this.recent.keys().next().value!);
    return counter;
  }

  private heldCounter(storeName: string, name: string, timeWindow: number, now: number): Window | undefined {
    let counters = this.held.get(storeName);
    if (!counters) this.held.set(storeName, (counters = new Map()));
    const alive = counters.get(name);
    if (alive && alive.endsAt > now) return alive;
    counters.delete(name);
    // The first ones end first: dropping those that ended costs one look at the first still running.
    for (const [ended, counter] of counters) {
      if (counter.endsAt > now) break;
      counters.delete(ended);
    }
    if (counters.size >= this.heldCapacity(storeName)) {
      this.onFull(storeName);
      return undefined;
    }
    const counter = { current: 0, endsAt: now + timeWindow };
    counters.set(name, counter);
    return counter;
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
export function localRateLimits(limits?: AttemptCounterLimits): RateLimitCounters {
  const counters = new AttemptCounters(limits);
  return {
    store: storeCounting(async (params) => counters.incr(params)),
    refund: async (key) => counters.refund(key),
  };
}

/** Counters kept in the primary: its answers to the workers' calls. */
export function rateLimitCallHandlers(limits?: AttemptCounterLimits): Record<string, CallHandler> {
  const counters = new AttemptCounters(limits);
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
/** One attempt off a counter the plugin's script keeps (its expiry untouched); one back at zero is deleted. */
const REFUND_SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1]))
if current and current > 1 then redis.call('DECR', KEYS[1]) elseif current then redis.call('DEL', KEYS[1]) end`;

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

/**
 * What to tell the operator when Redis may drop keys before they expire: past `maxmemory`, any policy but
 * `noeviction` picks keys to evict, and the counters that bound an account's attempts from all clients are
 * some of them, so a spray of keys could give an account fresh attempts. Under `noeviction` a full Redis
 * refuses the write instead, and the attempt is let through uncounted with a warning, as while it is away.
 * `info` is the answer of `INFO memory`.
 */
export function redisEvictionWarning(info: string): string | undefined {
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const policy = field('maxmemory_policy');
  if (field('maxmemory') === '0' || !policy || policy === 'noeviction') return undefined;
  return (
    `Redis evicts keys when full (maxmemory-policy ${policy}): rate-limit counters could be dropped before ` +
    'their window ends, giving accounts fresh attempts; set maxmemory-policy noeviction'
  );
}
