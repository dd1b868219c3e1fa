import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Config } from './config';
import { passwordHashingShare } from './auth/password-hashing-share';
import { setPasswordHashing } from './auth/passwords';
import { warmLoginStatements } from './auth/accounts';
import { fromPrimary, openPostgres } from './db/client';
import { connectToPrimary } from './cluster/ipc';
import { clusterNotices } from './cluster/notices';
import { clusterRateLimits, redisRateLimits } from './cluster/rate-limit-store';
import { redisPrefix } from './cluster/between-servers';
import { processLogger } from './http/logger';
import { remoteJobQueue } from './jobs/runner';
import { createContext } from './context';
import { buildApp } from './app';
import { closeWithDeadline } from './http/shutdown';
import { RENDER_DIST_DIR, WEB_DIST_DIR } from './paths';

/**
 * A worker process: serves HTTP; the embedded database and notices go through the primary, and the
 * rate-limit counters too unless they are in Redis (REDIS_URL: this worker's own connection).
 */
export async function runWorker(config: Config): Promise<void> {
  const primary = connectToPrimary();
  setPasswordHashing(passwordHashingShare(config.webConcurrency));
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, {
        logger: processLogger(config.logLevel),
        keepOpen: config.databasePoolSize,
        prepareConnection: warmLoginStatements,
      })
    : fromPrimary(primary);
  // The Redis client is loaded only where REDIS_URL is set.
  const { redisUrl } = config;
  const redisClient = redisUrl ? await import('./cluster/redis') : undefined;
  const redis = redisUrl && redisClient?.connectRedis(redisUrl, processLogger(config.logLevel));
  const ctx = createContext(config, database, {
    notices: clusterNotices(primary),
    // Jobs are run by the primary; after an enqueue commits, it is told to look at once.
    jobs: remoteJobQueue(() => void primary.call('jobs.wake', null).catch(() => undefined)),
    // The primary runs the backups' schedule and knows its next time and last failure.
    backups: { status: () => primary.call('backups.status', null) },
    rateLimits:
      redis && config.redisUrl
        ? redisRateLimits(redis, { prefix: redisPrefix(config.redisUrl), log: processLogger(config.logLevel) })
        : clusterRateLimits(primary),
  });
  const app = await buildApp(ctx, { webDir: WEB_DIST_DIR, renderDir: RENDER_DIST_DIR });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await closeWithDeadline(app, config.http.shutdownGraceSeconds * 1000);
      await database.close();
      if (redis) await redisClient?.closeRedis(redis);
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  // The primary gone (killed outright): nothing is left to answer for the database or the counters.
  process.once('disconnect', () => void stop());

  await app.listen({ host: config.host, port: config.port });
  reportEventLoopDelayOnSignal(app.log);
}

/**
 * How long this worker's event loop was held up: SIGUSR2 logs the longest and the 99th-percentile delay
 * since the previous report, then starts over (operators, and bench:api around its login storm). Node
 * records the whole time between two runs of its 5 ms timer, so a stall of S ms reads between S and S + 5.
 */
function reportEventLoopDelayOnSignal(log: { info(values: object, message: string): void }) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    log.info(
      { eventLoopDelay: { maxMs: ms(delay.max), p99Ms: ms(delay.percentile(99)) } },
      'event loop delay since the last report',
    );
    delay.reset();
  });
}
