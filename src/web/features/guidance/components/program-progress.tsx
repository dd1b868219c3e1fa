import type { ProgramProgress } from '@shared/contract';

/** "3 of 7 days done" with a thin bar; the bar is decoration, the text says it. */
export function ProgramProgressBar({ progress, dayCount }: { progress: ProgramProgress; dayCount: number }) {
  const done = progress.completed_days.length;
  const percent = dayCount ? Math.round((done / dayCount) * 100) : 0;
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm text-fg-muted">
        {done === 0
          ? 'Not started'
          : done >= dayCount
            ? `All ${dayCount} days done`
            : `${done} of ${dayCount} days done`}
      </p>
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-line">
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

export const minutesRange = ({ min, max }: { min: number; max: number }) =>
  min === max ? `${min} min a day` : `${min}–${max} min a day`;
