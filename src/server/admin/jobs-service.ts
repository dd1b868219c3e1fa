import { ADMIN_JOB_PAGE_SIZE, type AdminJob, type AdminJobList, type JobStatusName } from '@shared/contract';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { ApiError, notFound } from '../http/errors';
import { countJobs, findJob, listJobs, retryJob, type JobRow } from '../jobs/queue';

// The job queue for staff (docs/decisions/018-a-job-table-in-postgresql.md): counts, the newest jobs
// of some statuses, and a retry of one that failed. The admin API and the CLI call these.

export const toAdminJob = (row: JobRow): AdminJob => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  attempts: row.attempts,
  max_attempts: row.maxAttempts,
  payload: (row.payload ?? {}) as Record<string, unknown>,
  run_at: row.runAt.toISOString(),
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt?.toISOString() ?? null,
  last_error: row.lastError,
});

export async function jobOverview(db: Db, statuses: readonly JobStatusName[] | undefined): Promise<AdminJobList> {
  const [counts, rows] = await Promise.all([countJobs(db), listJobs(db, statuses, ADMIN_JOB_PAGE_SIZE)]);
  return { counts, results: rows.map(toAdminJob) };
}

export const parseStatuses = (value: string | undefined): JobStatusName[] | undefined =>
  value ? [...new Set(value.split(',') as JobStatusName[])] : undefined;

/**
 * Runs a failed or dead job again at once, with all its attempts; 404 without one, 400 for any other status,
 * and 400 for a dead one whose unique key another job holds now (a later audio library build, the next
 * sessions purge): it would run the same work twice.
 */
export async function retryFailedJob(db: Db, id: number): Promise<AdminJob> {
  const row = await retryJob(db, id, new Date()).catch((error: unknown) => {
    if (!isUniqueViolation(error, 'jobs_unique_key_pending')) throw error;
    throw new ApiError(400, {
      detail: `Job ${id} is not run again: another job of the same work is already waiting or running.`,
    });
  });
  if (row) return toAdminJob(row);
  const existing = await findJob(db, id);
  if (!existing) throw notFound();
  throw new ApiError(400, {
    detail: `Job ${id} is ${existing.status}: only a failed or dead job can be retried.`,
  });
}
