import cluster, { type Worker } from 'node:cluster';
import { supportAddressWarning, type Config } from './config';
import { FILE_POOL_THREADS, passwordHashingShare } from './auth/password-hashing-share';
import { openPreparedDatabase } from './db/prepare';
import { pgliteCallHandlers } from './db/pglite-owner';
import { keepStatistics } from './db/statistics';
import { serveSnapshots, snapshotTaker } from './backup/snapshot';
import { scheduleBackups, type BackupScheduler } from './backup/schedule';
import { backupStatus } from './backup/status';
import { seedPrograms } from './guidance/programs';
import { serveWorkers } from './cluster/ipc';
import { rateLimitCallHandlers } from './cluster/rate-limit-store';
import { throttledWarning } from './cluster/throttled-warning';
import { acrossServers, type Notice, type Notices } from './cluster/notices';
import { noticeBusFor } from './cluster/between-servers';
import { processLogger } from './http/logger';
import { sweepStaleUploads } from './media/store';
import { mediaDir } from './paths';
import { seedMessageCategories } from './seed/service';
import { createMediaStorage } from './media/storage';
import { createServerJobRunner, enqueueSeedAudio } from './jobs/server-jobs';

// The primary process: it prepares the data (lock, migrations, seed), owns what the workers share
// (the embedded database, rate-limit counters, the relay of notices), and keeps WEB_CONCURRENCY workers
// serving HTTP on one port. It serves no request itself, so a slow query of the embedded database
// never holds up an answer that needs none.

const STALE_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;
/** Workers that die this often are failing, not crashing: restarting them again would loop. */
const CRASH_LOOP = { restarts: 5, windowMs: 60_000 };

export async function runPrimary(config: Config): Promise<void> {
  const log = processLogger(config.logLevel);
  const supportWarning = supportAddressWarning(config);
  if (supportWarning) log.warn(supportWarning);
  const prepared = await openPreparedDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger: log,
  });
  const db = prepared.database;
  const media = createMediaStorage(config);
  try {
    // A wrong S3 setting (no such bucket, a bad key, nothing listening) stops the start here, named.
    await media.check();
    // Parts of uploads cut off by a crash; a day leaves room for an upload still under way elsewhere.
    const swept = await sweepStaleUploads(mediaDir(config.dataDir), STALE_UPLOAD_AGE_MS);
    if (swept) log.info(`removed ${swept} stale upload part(s)`);
    const categoriesAdded = await seedMessageCategories(db.db);
    if (categoriesAdded) log.info(`seed: ${categoriesAdded} message categories added`);
    const programsAdded = await seedPrograms(db.db);
    if (programsAdded) log.info(`seed: ${programsAdded} programs added`);
  } catch (error) {
    await prepared.close().catch(() => undefined);
    throw error;
  }

  const pglite = db.pglite ? pgliteCallHandlers(db.pglite) : undefined;
  // The embedded database's statistics and dead rows, as autovacuum keeps PostgreSQL's (decisions 095, 102).
  const statistics = pglite && keepStatistics(db.db, { isQuiet: pglite.isQuiet, log });
  // `npm run backup` asks this process for a copy of the embedded database: only it may open the folder (decision 128);
  // the scheduled backups take theirs here too, one at a time with those (decision 147).
  const taker = db.pglite && snapshotTaker(config.dataDir, db.pglite);
  const snapshots =
    taker &&
    (await serveSnapshots(config.dataDir, taker, log).catch((error: unknown) => {
      log.warn({ err: error }, 'backup: no socket in the data folder; "npm run backup" will need the server stopped');
      return undefined;
    }));
  const { broadcast } = serveWorkers({
    ...pglite?.handlers,
    ...rateLimitCallHandlers({
      onFull: throttledWarning(log, 'rate-limit counters full: new accounts are counted per client only'),
    }),
    'notices.publish': ((notice: Notice) => notices.publish(notice)) as never,
    // A worker committed a job: run it now rather than at the next poll.
    'jobs.wake': () => jobs.runner.wake(),
    // Staff's view of the backups (decision 154): the schedule runs here.
    'backups.status': () => backupStatus(config, db.kind, backups?.state()),
  });
  // This server's workers, and the other servers' through Redis or LISTEN/NOTIFY when there are any.
  const here: Notices = { publish: broadcast, subscribe: () => undefined };
  const bus = await noticeBusFor(config, log);
  // Counters in Redis must last until their window ends (docs/decisions/014-redis-or-listen-notify-between-servers.md).
  if (config.redisUrl)
    void import('./cluster/redis').then(({ warnIfRedisEvicts }) => warnIfRedisEvicts(config.redisUrl!, log));
  const notices = bus ? acrossServers(here, bus) : here;
  // This server's job runner: the account e-mails its workers enqueue, the seeded audio library
  // (docs/decisions/018-a-job-table-in-postgresql.md).
  const jobs = createServerJobRunner({ config, db: db.db, files: media.files, notices, log });

  let backups: BackupScheduler | undefined;
  let stopping = false;
  const listening = new Set<number>();
  const restarts: number[] = [];
  // A worker's thread pool: libuv's four for files, and one for each password it hashes at once.
  const workerEnv = {
    UV_THREADPOOL_SIZE: String(FILE_POOL_THREADS + passwordHashingShare(config.webConcurrency)),
  };
  const fork = () => {
    const worker = cluster.fork(workerEnv);
    worker.once('listening', () => listening.add(worker.id));
    return worker;
  };

  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.http.shutdownGraceSeconds * 1000;
    log.info({ signal, graceMs }, 'shutting down: workers finish their in-flight requests');
    // Should a worker or the database hang, do not wait for ever.
    setTimeout(() => {
      log.error('shutdown did not complete; exiting');
      for (const worker of liveWorkers()) worker.process.kill('SIGKILL');
      prepared.releaseLock();
      process.exit(1);
    }, graceMs + 15_000).unref();
    const exits = liveWorkers().map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    for (const worker of liveWorkers()) worker.process.kill('SIGTERM');
    // Running jobs finish within the grace, or are given back to run again at once elsewhere.
    await Promise.all([...exits, jobs.runner.stop(graceMs), statistics?.stop(), backups?.stop()]);
    // A backup under way finishes first: the database closes after it.
    await new Promise((resolve) => (snapshots ? snapshots.close(resolve) : resolve(undefined)));
    jobs.close();
    await bus?.close().catch(() => undefined);
    await prepared.close().finally(() => process.exit(exitCode));
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  cluster.on('exit', (worker, code, signal) => {
    pglite?.releaseWorker(worker.id);
    if (stopping) return;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && now - restarts[0]! > CRASH_LOOP.windowMs) restarts.shift();
    // One that never listened cannot start (a port in use, a bad setting): another would fail alike.
    if (!listening.delete(worker.id) || restarts.length > CRASH_LOOP.restarts) {
      log.fatal({ worker: worker.id, code, signal }, 'workers are failing; stopping');
      void stop('worker failure', 1);
      return;
    }
    log.error({ worker: worker.id, code, signal }, 'a worker died; starting another');
    fork();
  });

  // --heap-growing-percent: V8 lets a busy worker's heap grow about fourfold between full collections
  // (50 MB live became 300 MB resident under load); growing by half keeps a worker under 200 MB at the
  // same throughput (bench:api). --max-semi-space-size: Node 24's V8 sizes the young generation by the
  // machine's memory (64 MB semi-spaces on 24 GB, which start-up fills and no collection gives back: 230 MB
  // a worker at rest); at 8 MB a worker that has hashed a password rests near 145 MB, for the same CPU per
  // request in alternating runs (docs/decisions/037-the-project-brings-its-node.md). `npm start` gives the
  // primary the semi-space flag already: a Set passes each flag to a worker once.
  cluster.setupPrimary({
    serialization: 'advanced',
    execArgv: [...new Set([...process.execArgv, '--heap-growing-percent=50', '--max-semi-space-size=8'])],
  });
  await Promise.all(
    Array.from(
      { length: config.webConcurrency },
      () => new Promise<void>((resolve) => fork().once('listening', () => resolve())),
    ),
  );
  log.info(`Innerwave is running at ${config.publicUrl} (database: ${db.kind}, ${config.webConcurrency} workers)`);

  // After listening: jobs left by a previous run go out, and the first start synthesises the audio
  // library (tens of seconds, progress logged) in a worker thread while the app already answers;
  // later starts only check the files.
  jobs.runner.start();
  // The configuration refuses a schedule with DATABASE_URL: the embedded database is this process's alone.
  if (config.backupSchedule && taker && !stopping)
    backups = scheduleBackups({ config, schedule: config.backupSchedule, taker, log });
  await enqueueSeedAudio(db.db, media.files).then(
    () => jobs.runner.wake(),
    (error: unknown) => log.error({ err: error }, 'seed: the audio library could not be queued'),
  );
}

const liveWorkers = () =>
  Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && !worker.isDead());
