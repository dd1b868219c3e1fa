import type { Config } from '../config';
import type { NoticeBus } from './notices';
import { postgresNoticeBus } from './postgres-notices';
import type { WarningLog } from './throttled-warning';

// What several servers share beyond the database (docs/decisions/014-redis-or-listen-notify-between-servers.md).

/** This deployment's keys and channels in Redis: `innerwave:`, then REDIS_URL's database number. */
export function redisPrefix(redisUrl: string): string {
  return `innerwave:${new URL(redisUrl).pathname.slice(1) || '0'}:`;
}

/** PostgreSQL delivers a NOTIFY within its database only: one channel name serves every deployment. */
export const POSTGRES_NOTICE_CHANNEL = 'innerwave_notices';

/**
 * Notices to the other servers: over Redis, else PostgreSQL, else none (the embedded database: one
 * server). The Redis client is loaded only where REDIS_URL is set.
 */
export async function noticeBusFor(config: Config, log: WarningLog): Promise<NoticeBus | undefined> {
  if (config.redisUrl) {
    const { redisNoticeBus } = await import('./redis-notices');
    return redisNoticeBus(config.redisUrl, { prefix: redisPrefix(config.redisUrl), log });
  }
  if (config.databaseUrl) return postgresNoticeBus(config.databaseUrl, { channel: POSTGRES_NOTICE_CHANNEL, log });
  return undefined;
}
