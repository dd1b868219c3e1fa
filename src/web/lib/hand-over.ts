import { useSyncExternalStore } from 'react';

// A pre-rendered page's hand-over to the SPA whose code could not be fetched (offline, or the connection dropped
// after the document came): lean-page.tsx asks for it again and sets here how to ask now, for the page on screen to
// say so and offer (docs/decisions/093-a-hand-over-waits-for-the-connection.md).

/**
 * The class the server gives the document of a share page that will hand over (render-shared.tsx), for its loader
 * to ask for the app's code from the first paint, as it does for a signed-in visit (build/vite-plugins.ts, which
 * reads this file too; docs/decisions/097-the-app-comes-sooner-builds-when-needed-and-sizes-read-well.md).
 */
export const HANDS_OVER_CLASS = 'hands-over';

let retry: (() => void) | null = null;
const listeners = new Set<() => void>();

/** Sets how to ask again for the app's code, or null once it has come (or is not waited for). */
export function setHandOverRetry(next: (() => void) | null): void {
  retry = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** How to ask again for the app's code a hand-over waits for, or null when none waits. */
export const useHandOverRetry = () =>
  useSyncExternalStore(
    subscribe,
    () => retry,
    () => null,
  );
