import type { Practice } from '@shared/contract';

/** Whole minutes heard, and whether anything was heard at all (the week: a session; a day: some seconds). */
export interface Heard {
  minutes: number;
  heard: boolean;
}

/** The week's: its sessions say whether anything was heard. */
export const weekHeard = (week: Pick<Practice['week'], 'minutes' | 'sessions'>): Heard => ({
  minutes: week.minutes,
  heard: week.sessions > 0,
});

/** Day `index` (0 the oldest) of the week's: its seconds say whether anything was heard. */
export const dayHeard = (week: Pick<Practice['week'], 'daily_minutes' | 'daily_seconds'>, index: number): Heard => ({
  minutes: week.daily_minutes[index] ?? 0,
  heard: (week.daily_seconds[index] ?? 0) > 0,
});

/**
 * Minutes in words. Time heard that came to under a minute reads "Under a minute", not "0 minutes" as if nothing was
 * played (docs/product/screens.md#your-practice); `count` is the figure the practice's card shows large, null when
 * there is none.
 */
export function minutesHeard({ minutes, heard }: Heard): { count: number | null; words: string } {
  if (minutes === 0 && heard) return { count: null, words: 'Under a minute' };
  return { count: minutes, words: minutes === 1 ? 'minute' : 'minutes' };
}

/** "12 minutes", "1 minute", "Under a minute". */
export const minutesHeardText = (time: Heard): string => {
  const { count, words } = minutesHeard(time);
  return count === null ? words : `${count} ${words}`;
};
