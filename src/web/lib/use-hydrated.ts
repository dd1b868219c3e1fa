import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * Whether React runs the page in the browser: false in a pre-rendered page's HTML and during its
 * hydration (React hydrates with the server's value, then renders again with true), true from then on
 * and on every page the SPA renders itself.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
