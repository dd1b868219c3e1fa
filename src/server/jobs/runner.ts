import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import {
  buryAbandonedJobs,
  claimJobs,
  completeJob,
  failJob,
  insertJob,
  releaseJob,
  renewLease,
  rescheduleJob,
  sweepDoneJobs,
  type Executor,
  type JobRow,
  type NewJob,
} from './queue';

// Runs the job table's work in one process (docs/decisions/018-a-job-table-in-postgresql.md): polls
// every `pollMs`, and at once when woken after an enqueue; each job under a lease it renews while the
// job runs, so a job whose process died is claimed again once its lease runs out.

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'error'>;

/**
 * Does one job's work; throws to fail the attempt. Runs at least once per job (a crash can repeat it).
 * `stopping` is aborted when the runner stops: a long job may end early by throwing (the job is then
 * given back, its attempt not counted) instead of holding the stop for the whole grace period.
 */
export type JobHandler = (job: JobRow, stopping: AbortSignal) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  log: JobLog;
  pollMs?: number;
  leaseMs?: number;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  backoff?: Backoff;
  now?: () => Date;
  random?: () => number;
  /** How long done jobs are kept before they are swept. */
  keepDoneMs?: number;
  /**
   * Kinds that recur, each with the time between runs: one job of the kind (its kind is its unique key)
   * is queued again after each run instead of being done; the runner adds it when none is pending
   * (at start, then hourly: after its last attempt failed, or on a new database).
   */
  recurring?: Record<string, number>;
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 10_000, maxMs: 60 * 60_000 };

/**
 * The wait before attempt `attempt + 1`: doubling from `baseMs` up to `maxMs`, then "equal jitter"
 * (half of it fixed, half random) so jobs that failed together do not retry together.
 */
export function retryDelayMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface JobRunner {
  readonly id: string;
  start(): void;
  /** Looks for work now (after an enqueue committed). */
  wake(): void;
  /** Runs due jobs until none is left due now, and waits for those running (tests, the CLI). */
  settled(): Promise<void>;
  /**
   * Stops claiming; waits up to `graceMs` for running jobs, then gives back the ones still running
   * (they run again at once elsewhere, or here at the next start).
   */
  stop(graceMs?: number): Promise<void>;
}

const SWEEP_EVERY_MS = 60 * 60_000;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const {
    db,
    handlers,
    log,
    pollMs = 1000,
    leaseMs = 60_000,
    concurrency = 2,
    backoff = DEFAULT_BACKOFF,
    now = () => new Date(),
    random = Math.random,
    keepDoneMs = 7 * 24 * 60 * 60_000,
    recurring = {},
  } = options;
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const kinds = Object.keys(handlers);
  const active = new Map<number, Promise<void>>();
  let started = false;
  // Aborted by stop(): no more claims, and the running handlers are told.
  const stopped = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let again = false;
  let lastSweep = 0;
  let lastBurial = 0;

  const schedule = () => {
    if (!started || stopped.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pump(), pollMs);
    timer.unref();
  };

  async function run(job: JobRow): Promise<void> {
    const started = performance.now();
    // Renewed at a third of the lease: two renewals may fail before another runner may take it.
    const renew = setInterval(() => {
      void renewLease(db, job.id, id, new Date(now().getTime() + leaseMs)).catch((error: unknown) =>
        log.error({ err: error, job: job.id }, 'job lease not renewed'),
      );
    }, leaseMs / 3);
    renew.unref();
    try {
      await handlers[job.kind]!(job, stopped.signal);
      clearInterval(renew);
      const every = recurring[job.kind];
      const at = now();
      if (every === undefined) await completeJob(db, job.id, id, at);
      else await rescheduleJob(db, job.id, id, at, new Date(at.getTime() + every));
      log.info({ job: job.id, kind: job.kind, ms: Math.round(performance.now() - started) }, 'job done');
    } catch (error) {
      clearInterval(renew);
      if (stopped.signal.aborted) {
        // Cut short by the stop, not failed: it runs again at once elsewhere, or here at the next start.
        await releaseJob(db, job.id, id, now()).catch((failure: unknown) =>
          log.error({ err: failure, job: job.id }, 'job not given back; it runs again once its lease runs out'),
        );
        log.info({ job: job.id, kind: job.kind }, 'job given back: the server is stopping');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const at = now();
      const retryAt = new Date(at.getTime() + retryDelayMs(job.attempts, backoff, random));
      const status = await failJob(db, job, id, message, at, retryAt).catch((failure: unknown) => {
        // The row keeps its lease; it runs again once the lease runs out.
        log.error({ err: failure, job: job.id }, 'job failure not recorded');
        return undefined;
      });
      log.error(
        { err: error, job: job.id, kind: job.kind, attempt: job.attempts, of: job.maxAttempts, status },
        status === 'dead' ? 'job failed for the last time' : 'job failed; it will be retried',
      );
    }
  }

  /** Claims what fits in the free slots and starts it; answers how many were claimed. */
  async function claim(): Promise<number> {
    const at = now();
    if (at.getTime() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = at.getTime();
      await sweepDoneJobs(db, new Date(at.getTime() - keepDoneMs));
      for (const kind of Object.keys(recurring)) await insertJob(db, { kind, uniqueKey: kind, runAt: at });
    }
    // Once a poll at most: a cheap look, but not one for every job claimed.
    if (at.getTime() - lastBurial >= pollMs) {
      lastBurial = at.getTime();
      await buryAbandonedJobs(db, kinds, at);
    }
    const claimed = await claimJobs(db, { runner: id, kinds, limit: concurrency - active.size, leaseMs, now: at });
    for (const job of claimed) {
      const running = run(job).finally(() => {
        active.delete(job.id);
        if (!stopped.signal.aborted) void pump();
      });
      active.set(job.id, running);
    }
    return claimed.length;
  }

  function pump(): Promise<void> {
    if (stopped.signal.aborted) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        for (;;) {
          again = false;
          const claimed = await claim();
          if ((claimed === 0 && !again) || active.size >= concurrency || stopped.signal.aborted) break;
        }
      } catch (error) {
        log.error({ err: error }, 'jobs could not be claimed');
      } finally {
        pumping = undefined;
        schedule();
      }
    })();
    return pumping;
  }

  return {
    id,
    start() {
      if (started) return;
      started = true;
      void pump();
    },
    wake() {
      if (started && !stopped.signal.aborted) void pump();
    },
    async settled() {
      // A job that ends looks for more (its pump) before it leaves `active`'s promise.
      for (;;) {
        await pump();
        if (active.size === 0) return;
        await Promise.allSettled([...active.values()]);
      }
    },
    async stop(graceMs = 10_000) {
      stopped.abort();
      clearTimeout(timer);
      await pumping;
      if (active.size === 0) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...active.values()]),
        new Promise((resolve) => (timeout = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timeout);
      for (const jobId of active.keys()) {
        await releaseJob(db, jobId, id, now()).catch((error: unknown) =>
          log.error({ err: error, job: jobId }, 'job not given back; it runs again once its lease runs out'),
        );
      }
    },
  };
}

/** What the app's modules see: add a job (in their transaction), then wake whoever runs them. */
export interface JobQueue {
  enqueue(executor: Executor, job: NewJob): Promise<number | undefined>;
  /** After the enqueuing transaction committed: look for work now rather than at the next poll. */
  wake(): void;
  /** Tests: runs the due jobs and waits for them (a queue whose jobs run in another process only waits for nothing). */
  settled(): Promise<void>;
  stop(): Promise<void>;
  /** Where the jobs run here log from now on (the app's logger, once it exists). */
  useLog?(log: JobLog): void;
}

/** How long after an enqueue a process that runs its own jobs looks for them. */
const LOCAL_WAKE_DELAY_MS = 20;

/** Jobs run in this process (the test app, a single-process tool). */
export function localJobQueue(runner: JobRunner): JobQueue {
  return {
    enqueue: insertJob,
    // Woken once the request that added the job has been answered: started at once, the job would run
    // in this event loop while that answer is still on its way, and its work (a reset mail for a known
    // address, nothing for an unknown one) would show in the answer's time.
    wake: () => void setTimeout(() => runner.wake(), LOCAL_WAKE_DELAY_MS).unref(),
    settled: () => runner.settled(),
    stop: () => runner.stop(),
  };
}

/** Jobs run elsewhere (a cluster worker: its primary runs them); `wake` tells that process. */
export function remoteJobQueue(wake: () => void): JobQueue {
  return { enqueue: insertJob, wake, settled: async () => undefined, stop: async () => undefined };
}
