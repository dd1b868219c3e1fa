import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Config } from './config';
import { setPasswordThreads } from './auth/passwords';
import { fromPrimary, openPostgres } from './db/client';
import { connectToPrimary } from './cluster/ipc';
import { clusterNotices } from './cluster/notices';
import { clusterRateLimitStore } from './cluster/rate-limit-store';
import { createContext } from './context';
import { buildApp } from './app';
import { closeWithDeadline } from './http/shutdown';
import { WEB_DIST_DIR } from './paths';

/** A worker process: serves HTTP; the embedded database, rate-limit counters and notices go through the primary. */
export async function runWorker(config: Config): Promise<void> {
  const primary = connectToPrimary();
  setPasswordThreads(Math.ceil(availableParallelism() / config.webConcurrency));
  const database = config.databaseUrl ? openPostgres(config.databaseUrl) : fromPrimary(primary);
  const ctx = createContext(config, database, {
    notices: clusterNotices(primary),
    rateLimitStore: clusterRateLimitStore(primary),
  });
  const app = await buildApp(ctx, { webDir: WEB_DIST_DIR });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await closeWithDeadline(app, config.http.shutdownGraceSeconds * 1000);
      await database.close();
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
 * since the previous report, then starts over (operators, and bench:api around its login storm).
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
