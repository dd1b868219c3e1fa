import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AdminBackupStatus } from '@shared/contract';
import { formatBytes } from '@shared/bytes';
import { QueryState } from '@web/components/ui/query-state';
import { formatDateTime } from '@web/lib/dates';
import { adminBackupsQuery } from '../api/backups';
import { panelClass } from './states';

/** "Every 6 hours", "Every 90 minutes": BACKUP_EVERY_SECONDS as a person reads it. */
function period(seconds: number): string {
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ] as const)
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
    }
  return `Every ${seconds} seconds`;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4">
      <dt className="shrink-0 text-fg-muted sm:w-32">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Schedule({ status }: { status: AdminBackupStatus }) {
  const failedLast =
    status.last_failure && (!status.last || status.last_failure.at > status.last.taken_at) ? status.last_failure : null;
  return (
    <dl className="mt-3 divide-y divide-line text-sm">
      <Row label="Backups">On</Row>
      <Row label="Folder">
        <span className="break-all font-mono text-xs">{status.dir}</span>
      </Row>
      <Row label="Schedule">
        {status.at ? `Daily at ${status.at} UTC` : period(status.every_seconds ?? 0)}, the newest {status.keep} kept
      </Row>
      <Row label="Last backup">
        {status.dir_error ? (
          <span className="text-danger">The folder cannot be read: {status.dir_error}</span>
        ) : status.last ? (
          <>
            {formatDateTime(status.last.taken_at)} · {formatBytes(status.last.bytes)}
            <span className="text-fg-muted"> ({status.count} kept)</span>
          </>
        ) : (
          'None yet'
        )}
      </Row>
      <Row label="Last failure">
        {status.last_failure ? (
          <>
            <span className={failedLast ? 'font-medium text-danger' : undefined}>
              {formatDateTime(status.last_failure.at)}
            </span>
            {failedLast ? null : <span className="text-fg-muted"> (a backup has been taken since)</span>}
            <span className="mt-1 block whitespace-pre-wrap break-words font-mono text-xs text-fg-muted">
              {status.last_failure.reason}
            </span>
          </>
        ) : (
          'None since the server started'
        )}
      </Row>
      <Row label="Next backup">{status.next_at ? formatDateTime(status.next_at) : 'Not planned yet'}</Row>
    </dl>
  );
}

/** Backups of the embedded database, read-only: those who act on them have the server (docs/product/operations.md). */
export function BackupsPanel() {
  const query = useQuery(adminBackupsQuery());
  const status = query.data;
  return (
    <section className={panelClass} aria-labelledby="backups-heading">
      <h2 id="backups-heading" className="card-heading">
        Backups
      </h2>
      <QueryState
        isPending={query.isPending}
        error={query.error}
        isEmpty={false}
        emptyText=""
        what="the backups"
        onRetry={() => void query.refetch()}
      >
        {!status ? null : status.database === 'postgresql' ? (
          <p className="text-sm text-fg-muted">
            The database is on PostgreSQL: back it up with pg_dump. The server takes no backups of it.
          </p>
        ) : status.scheduled ? (
          <>
            <p className="text-sm text-fg-muted">
              The server backs up its database and media files on its own. A backup is restored on the server, with npm
              run restore.
            </p>
            <Schedule status={status} />
          </>
        ) : (
          <p className="text-sm text-fg-muted">
            Off: the server takes no backups on its own (BACKUP_DIR is not set). They can be taken on the server with
            npm run backup.
          </p>
        )}
      </QueryState>
    </section>
  );
}
