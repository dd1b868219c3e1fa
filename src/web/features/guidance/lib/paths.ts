import { paths } from '@web/lib/paths';

/** A program's page, and one of its days. */
export const programPath = (slug: string) => `${paths.programs}/${encodeURIComponent(slug)}`;
export const programDayPath = (slug: string, day: number) => `${programPath(slug)}?day=${day}`;
