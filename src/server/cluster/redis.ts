import { Redis } from 'ioredis';
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
