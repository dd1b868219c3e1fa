import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AdminJob } from '@shared/contract';
import { JOB_KIND_LABELS } from '@shared/contract/jobs';
import { Button } from '@web/components/ui/button';
import { QueryState } from '@web/components/ui/query-state';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { keyboardToNeighbourOnceGone } from '@web/lib/keyboard-after-removal';
import { adminJobsQuery, useRetryJob } from '../api/jobs';
import { panelClass } from './states';
import { formatDateTime } from '@web/lib/dates';

const kindLabel = (kind: string) => JOB_KIND_LABELS[kind] ?? kind;

function JobItem({
  job,
  busy,
  onRetry,
}: {
  job: AdminJob;
  busy: boolean;
  onRetry: (control: HTMLButtonElement) => void;
}) {
  const dead = job.status === 'dead';
  return (
    <li className="flex flex-col gap-2 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <h3 className="break-words font-medium">
          <span
            className={
              dead
                ? 'mr-2 inline-block rounded-full bg-danger/15 px-2 py-0.5 align-middle text-xs font-semibold text-fg'
                : 'mr-2 inline-block rounded-full bg-black/10 px-2 py-0.5 align-middle text-xs font-semibold text-fg dark:bg-white/10'
            }
          >
            {dead ? 'Gave up' : 'Will retry'}
          </span>
          #{job.id} · {kindLabel(job.kind)}
        </h3>
        <p className="text-sm text-fg-muted">
          Attempt {job.attempts} of {job.max_attempts} ·{' '}
          {dead && job.finished_at
            ? `last tried ${formatDateTime(job.finished_at)}`
            : `next try ${formatDateTime(job.run_at)}`}
        </p>
        {job.last_error ? (
          <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs text-fg-muted">{job.last_error}</p>
        ) : null}
      </div>
      <Button
        variant="secondary"
        size="sm"
        busy={busy}
        onClick={(event) => onRetry(event.currentTarget)}
        data-retry-job
        className="shrink-0 self-start"
      >
        Retry
        <span className="sr-only"> job #{job.id}</span>
      </Button>
    </li>
  );
}

/** Background jobs (account e-mails, the audio library, the sessions' clean-up): counts, and the ones that failed, with Retry. */
export function JobsPanel() {
  const query = useQuery(adminJobsQuery());
  const retry = useRetryJob();
  const jobs = query.data?.results ?? [];
  const counts = query.data?.counts;
  return (
    <section className={panelClass} aria-labelledby="jobs-heading">
      <h2 id="jobs-heading" className="card-heading">
        Background jobs
      </h2>
      <p className="text-sm text-fg-muted">
        Account e-mails, the audio library and an hourly clean-up of ended sign-ins run in the background, and are
        retried when they fail.
      </p>
      {counts ? (
        <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {(
            [
              ['Waiting', counts.queued],
              ['Running', counts.running],
              ['Will retry', counts.failed],
              ['Gave up', counts.dead],
              ['Done (last 7 days)', counts.done],
            ] as const
          ).map(([label, n]) => (
            <div key={label} className="flex gap-1.5">
              <dt className="text-fg-muted">{label}</dt>
              <dd className="font-medium tabular-nums">{n}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="mt-4">
        <QueryState
          isPending={query.isPending}
          error={query.error}
          isEmpty={jobs.length === 0}
          emptyText="No failed jobs."
          onRetry={() => void query.refetch()}
        >
          <ul className="divide-y divide-line">
            {jobs.map((job) => (
              <JobItem
                key={job.id}
                job={job}
                busy={retry.isPending && retry.variables === job.id}
                onRetry={(control) => {
                  // A job run again leaves the list of failed ones: the keyboard goes to the Retry of the row in
                  // its place, or to the page's heading once no failed job is left.
                  const moveKeyboard = keyboardToNeighbourOnceGone(control, '[data-retry-job]');
                  retry.mutate(job.id, {
                    onSuccess: () => {
                      moveKeyboard();
                      failureOver(`retry job ${job.id}`);
                      toast.success(`Job #${job.id} will run again now.`);
                    },
                    onError: (error) => toastFailure(error, describeError(error), `retry job ${job.id}`),
                  });
                }}
              />
            ))}
          </ul>
        </QueryState>
      </div>
    </section>
  );
}
