import type { ProgramProgress } from '@shared/contract';
import { sessionEnds } from '@web/lib/audio/app-session-ends';
import { useSoundEngine } from '@web/lib/audio/use-sound-engine';

/** The day of this program that plays in this tab now, or null. */
export function usePlayingDay(slug: string): number | null {
  const engine = useSoundEngine();
  const program = engine.status === 'stopped' ? undefined : sessionEnds.current()?.program;
  return program?.slug === slug ? program.day : null;
}

/**
 * Whether the person has started the program: the server recorded a session of one of its days (or a day done), or
 * one of its days plays here now, whose record reaches the server within a minute or at its end
 * (docs/product/guidance.md#programs).
 */
export function useProgramStarted(progress: ProgramProgress): boolean {
  const playing = usePlayingDay(progress.slug) !== null;
  return playing || progress.started_at !== null || progress.completed_days.length > 0;
}

/** "3 of 7 days done" with a thin bar; the bar is decoration, the text says it. */
export function ProgramProgressBar({ progress, dayCount }: { progress: ProgramProgress; dayCount: number }) {
  const started = useProgramStarted(progress);
  const done = progress.completed_days.length;
  const percent = dayCount ? Math.round((done / dayCount) * 100) : 0;
  const of = `of ${dayCount} ${dayCount === 1 ? 'day' : 'days'} done`;
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm text-fg-muted">
        {!started
          ? 'Not started'
          : done === 0
            ? `Started · 0 ${of}`
            : done >= dayCount
              ? `All ${dayCount} days done`
              : `${done} ${of}`}
      </p>
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-line">
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

export const minutesRange = ({ min, max }: { min: number; max: number }) =>
  min === max ? `${min} min a day` : `${min}–${max} min a day`;
