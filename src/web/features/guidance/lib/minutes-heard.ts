import type { Practice } from '@shared/contract';

/**
 * The week's minutes in words. Sessions that came to under a minute in all read "Under a minute", not
 * "0 minutes" as if nothing was played (docs/product/screens.md#your-practice); `count` is the figure the
 * practice's card shows large, null when there is none.
 */
export function minutesHeard(week: Pick<Practice['week'], 'minutes' | 'sessions'>): {
  count: number | null;
  words: string;
} {
  if (week.minutes === 0 && week.sessions > 0) return { count: null, words: 'Under a minute' };
  return { count: week.minutes, words: week.minutes === 1 ? 'minute' : 'minutes' };
}

/** "12 minutes", "1 minute", "Under a minute". */
export const minutesHeardText = (week: Pick<Practice['week'], 'minutes' | 'sessions'>): string => {
  const { count, words } = minutesHeard(week);
  return count === null ? words : `${count} ${words}`;
};
