import { and, asc, count, desc, eq, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import { leadingCharacters } from '@shared/contract/plain';
import type { Db } from '../db/client';
import { jobs, type JobStatus } from './table';

// The job table's statements (docs/decisions/018-a-job-table-in-postgresql.md). Every one is a single
// statement, so it needs no transaction of its own and runs alike on PostgreSQL and on PGlite (where
// one connection makes each trivially exclusive). Times come from the caller's clock, so tests can
// move it on instead of sleeping.

export type JobRow = typeof jobs.$inferSelect;

export interface NewJob {
  kind: string;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
  /** At most one queued, failed or running job per key: a second one is not added. */
  uniqueKey?: string;
  /** Not before (default: at once). */
  runAt?: Date;
}

/** A database or an open transaction: a job is written in the same transaction as the row behind it. */
export type Executor = Pick<Db, 'insert' | 'update' | 'select' | 'delete'>;

/** Adds a job; answers its id, or undefined when one with the same `uniqueKey` is already pending. */
export async function insertJob(executor: Executor, job: NewJob): Promise<number | undefined> {
  const [row] = await executor
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload ?? {},
      ...(job.maxAttempts !== undefined && { maxAttempts: job.maxAttempts }),
      ...(job.uniqueKey !== undefined && { uniqueKey: job.uniqueKey }),
      // Stamped by the app's clock, the one a claim compares with: the database's now() has microseconds
      // and a claim's Date only milliseconds, so a job enqueued in the millisecond of a claim was not
      // yet due to it and waited for the next poll (and a test's settled() went without it).
      runAt: job.runAt ?? new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return row?.id;
}

/**
 * Jobs whose runner died (their lease ran out) on their last attempt are dead, not run once more.
 * Answers how many.
 */
export async function buryAbandonedJobs(db: Db, kinds: readonly string[], now: Date): Promise<number> {
  if (kinds.length === 0) return 0;
  const rows = await db
    .update(jobs)
    .set({
      status: 'dead',
      finishedAt: now,
      lockedBy: null,
      lockedUntil: null,
      lastError: sql`coalesce(${jobs.lastError} || E'\n', '') || 'The process running it stopped before it finished.'`,
    })
    .where(
      and(
        eq(jobs.status, 'running'),
        lt(jobs.lockedUntil, now),
        sql`${jobs.attempts} >= ${jobs.maxAttempts}`,
        inArray(jobs.kind, [...kinds]),
      ),
    )
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * Claims up to `limit` jobs of `kinds` that are due: queued, failed and due for another attempt, or
 * running under a lease that ran out (their runner died) with attempts left. Each attempt counts when
 * claimed. `FOR UPDATE SKIP LOCKED`: runners of several processes never claim one job twice.
 */
export async function claimJobs(
  db: Db,
  options: { runner: string; kinds: readonly string[]; limit: number; leaseMs: number; now: Date },
): Promise<JobRow[]> {
  if (options.limit <= 0 || options.kinds.length === 0) return [];
  const { now } = options;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, [...options.kinds]),
        or(
          and(inArray(jobs.status, ['queued', 'failed']), lte(jobs.runAt, now)),
          and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now), sql`${jobs.attempts} < ${jobs.maxAttempts}`),
        ),
      ),
    )
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: options.runner,
      lockedUntil: new Date(now.getTime() + options.leaseMs),
    })
    .where(inArray(jobs.id, due))
    .returning();
}

const heldBy = (id: number, runner: string) =>
  and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.lockedBy, runner));

/** Extends a running job's lease; false when the runner no longer holds it. */
export async function renewLease(db: Db, id: number, runner: string, until: Date): Promise<boolean> {
  const rows = await db.update(jobs).set({ lockedUntil: until }).where(heldBy(id, runner)).returning({ id: jobs.id });
  return rows.length > 0;
}

export async function completeJob(db: Db, id: number, runner: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: now, lockedBy: null, lockedUntil: null })
    .where(heldBy(id, runner));
}

/**
 * A recurring job that ran: the same row is queued again for `runAt` with all its attempts, so one row
 * per kind keeps the schedule across restarts and servers (`finished_at`: when it last ran).
 */
export async function rescheduleJob(db: Db, id: number, runner: string, now: Date, runAt: Date): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: 0,
      runAt,
      finishedAt: now,
      lastError: null,
      lockedBy: null,
      lockedUntil: null,
    })
    .where(heldBy(id, runner));
}

/** How much of a failed attempt's error a job keeps, in characters. */
export const LAST_ERROR_MAX = 2000;

/** One attempt failed: another at `retryAt`, or dead once every attempt is used. */
export async function failJob(
  db: Db,
  job: Pick<JobRow, 'id' | 'attempts' | 'maxAttempts'>,
  runner: string,
  error: string,
  now: Date,
  retryAt: Date,
): Promise<JobStatus> {
  const dead = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set({
      status: dead ? 'dead' : 'failed',
      // Cut between characters: a cut inside an emoji would store half of it (a lone surrogate).
      lastError: leadingCharacters(error, LAST_ERROR_MAX),
      lockedBy: null,
      lockedUntil: null,
      ...(dead ? { finishedAt: now } : { runAt: retryAt }),
    })
    .where(heldBy(job.id, runner));
  return dead ? 'dead' : 'failed';
}

/** Gives a job back unfinished (the process is stopping): it runs again at once elsewhere, the attempt not counted. */
export async function releaseJob(db: Db, id: number, runner: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'queued', lockedBy: null, lockedUntil: null, runAt: now, attempts: sql`${jobs.attempts} - 1` })
    .where(heldBy(id, runner));
}

/** Staff: a dead or failed job runs again at once with all its attempts. Answers false for any other. */
export async function retryJob(db: Db, id: number, now: Date): Promise<JobRow | undefined> {
  const [row] = await db
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAt: now, finishedAt: null })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['dead', 'failed'])))
    .returning();
  return row;
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** How many jobs are in each status. */
export async function countJobs(db: Db): Promise<Record<JobStatus, number>> {
  const rows = await db.select({ status: jobs.status, n: count() }).from(jobs).groupBy(jobs.status);
  const counts: Record<JobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0, dead: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Jobs, newest first; of some statuses only when given. */
export async function listJobs(db: Db, statuses: readonly JobStatus[] | undefined, limit: number): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(statuses && statuses.length > 0 ? inArray(jobs.status, [...statuses]) : undefined)
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(limit);
}

/** Done jobs finished before `before` are removed (dead ones stay for staff). */
export async function sweepDoneJobs(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.status, 'done'), isNotNull(jobs.finishedAt), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return rows.length;
}
