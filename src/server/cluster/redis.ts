import { Redis } from 'ioredis';

// Connections to Redis (REDIS_URL) for the rate-limit counters and the notices between servers
// (docs/decisions/014-redis-or-listen-notify-between-servers.md). Redis going away must never fail a
// request: commands fail at once instead of queueing while it is unreachable, and ioredis keeps
// reconnecting in the background.

/** What these modules log through (pino's and Fastify's loggers both fit). */
export interface WarningLog {
  warn(values: object, message: string): void;
}

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

/** A warning logged at most once per interval, with how many like it were left out in between. */
export function throttledWarning(log: WarningLog, message: string, intervalMs = 10_000) {
  let last = 0;
  let skipped = 0;
  return (error?: unknown) => {
    const now = Date.now();
    if (now - last < intervalMs) {
      skipped++;
      return;
    }
    const reason = error instanceof Error ? error.message : error === undefined ? undefined : String(error);
    log.warn({ reason, alike: skipped }, message);
    last = now;
    skipped = 0;
  };
}
