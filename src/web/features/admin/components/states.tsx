import type { ReactNode } from 'react';
import { AlertTriangle, Inbox } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';

/** Loading, error (with retry) and empty states shared by the admin panels. */
export function QueryState({
  isPending,
  error,
  isEmpty,
  emptyText,
  onRetry,
  children,
}: {
  isPending: boolean;
  error: Error | null;
  isEmpty: boolean;
  emptyText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading" />
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-line p-8 text-center">
        <AlertTriangle aria-hidden className="h-6 w-6 text-danger" />
        <p>Could not load this list: {error.message}</p>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-line p-8 text-center text-fg-muted">
        <Inbox aria-hidden className="h-6 w-6" />
        <p>{emptyText}</p>
      </div>
    );
  }
  return <>{children}</>;
}

/** A determinate progress bar for uploads. */
export function UploadProgress({ fraction, label }: { fraction: number; label: string }) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-between text-sm text-fg-muted">
        <span>{label}</span>
        <span aria-hidden>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-black/10 dark:bg-white/10"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

export const panelClass = 'rounded-2xl border border-line bg-surface-raised p-4 sm:p-6';

export function formatSize(bytes: number | null): string {
  if (bytes === null) return 'file missing';
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
