import { formatBytes } from '@shared/bytes';

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

/** A file's size on the staff's screens, in the words of the one size formatter; a size not known is a file missing. */
export const formatSize = (bytes: number | null): string => (bytes === null ? 'file missing' : formatBytes(bytes));
