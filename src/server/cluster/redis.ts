import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { redisEvictionWarning } from './rate-limit-store';
import { throttledWarning, type WarningLog } from './throttled-warning';

// Connections to Redis (REDIS_URL) for the rate-limit counters and the notices between servers
// (docs/decisions/014-redis-or-listen-notify-between-servers.md). Redis going away must never fail a
// request: commands fail at once instead of queueing while it is unreachable, and ioredis keeps
// reconnecting in the background.

/** How long a command may take before it counts as failed (Redis hung, or a network partition). */
const COMMAND_TIMEOUT_MS = 1000;

/**
 * A connection for commands (counters, PUBLISH). `queueWhileOffline`: a subscriber's SUBSCRIBE waits for
 * the connection; a counter's command must not (the request it serves would wait with it).
 */
export function connectRedis(url: string, log: WarningLog, options: { queueWhileOffline?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: options.queueWhileOffline ?? false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.queueWhileOffline ? undefined : COMMAND_TIMEOUT_MS,
    // Keep trying for ever, at most every two seconds.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    connectionName: 'innerwave',
  });
  const warn = throttledWarning(log, 'Redis is unreachable; retrying');
  redis.on('error', (error: Error) => warn(error));
  return redis;
}

/** Closes a connection: politely if it is up, at once if not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/**
 * Logs a warning when Redis may evict the rate-limit counters before they expire (`redisEvictionWarning`);
 * an unreachable Redis is left to the counters' own warnings.
 */
export async function warnIfRedisEvicts(url: string, log: WarningLog & { warn(message: string): void }): Promise<void> {
  const redis = connectRedis(url, log, { queueWhileOffline: true });
  const stopWaiting = new AbortController();
  const unreachable = sleep(5000, undefined, { signal: stopWaiting.signal }).catch(() => undefined);
  try {
    const info = await Promise.race([redis.info('memory'), unreachable]);
    const warning = info === undefined ? undefined : redisEvictionWarning(info);
    if (warning) log.warn(warning);
  } catch {
    // Unreachable now: the counters warn while it is.
  } finally {
    stopWaiting.abort();
    await closeRedis(redis);
  }
}
