import { useSyncExternalStore, type ReactNode } from 'react';

// A session screen that goes on across the portal's pages (the subliminals' session, docs/product/
// screens.md#session-screen): the page that starts it puts its screen here, and it shows whatever
// portal page is open (components/floating-session.tsx), as long as the mini-player's sound would.
// The page updates it while open (the same component, so it keeps its state) and can stop it; so can
// the screen itself. One at a time.

let current: ReactNode = null;
const listeners = new Set<() => void>();

function set(screen: ReactNode) {
  if (screen === current) return;
  current = screen;
  for (const listener of listeners) listener();
}

export const floatingSession = {
  get: (): ReactNode => current,
  /** Shows `screen`, or updates the one that shows (an element of the same component keeps its state). */
  show: (screen: NonNullable<ReactNode>) => set(screen),
  /** Ends the session: its screen goes. */
  end: () => set(null),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The session screen that shows, or null. */
export function useFloatingSession(): ReactNode {
  return useSyncExternalStore(floatingSession.subscribe, floatingSession.get, floatingSession.get);
}
