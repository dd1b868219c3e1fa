import { useHydrated } from '@web/lib/use-hydrated';

/**
 * A date as the visitor's browser writes it. A page the server rendered (the share page,
 * docs/decisions/024-the-server-fills-the-share-page.md) cannot know the visitor's locale or time
 * zone: the server and the first render in the browser write a fixed form (US English, UTC) so the
 * page hydrates without a mismatch, and React then renders the visitor's form. A page rendered in
 * the browser shows the visitor's form at once.
 */
export function LocalDate({ iso, options }: { iso: string; options: Intl.DateTimeFormatOptions }) {
  const inBrowser = useHydrated();
  const date = new Date(iso);
  return inBrowser
    ? date.toLocaleDateString(undefined, options)
    : date.toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });
}
