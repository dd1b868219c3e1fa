import { useEffect } from 'react';
import { paths } from './paths';
import { sessionStore } from './session';

// Whether the person is in the portal, for what lives with it: the sound and its mini-player, and a
// subliminal session in its corner (docs/product/screens.md#mini-player). The portal's layout shows
// on its own pages and dresses the open pages too (portal home, the legal pages, a share link, Not
// found) for a signed-in person; moving between the two swaps one layout for the other, and the next
// may come a lazy chunk later. So the portal is left on signing out, at once, or when no layout has
// come back within PORTAL_LEFT_MS; both the sound and the session end then, and only then.

/** How long what lives with the portal waits for its layout once the last one is gone. */
export const PORTAL_LEFT_MS = 1500;

/** 'signed-out': the person signs out (or was signed out); 'left': they went to a page outside the portal. */
export type PortalLeaving = 'signed-out' | 'left';

let layoutsShown = 0;
let leaving: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<(how: PortalLeaving) => void>();

function tell(how: PortalLeaving) {
  for (const listener of listeners) listener(how);
}

/** Hears the portal being left. */
export function onPortalLeft(listener: (how: PortalLeaving) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The portal's layout shows (`live`: not the pre-rendered frame of a page, which plays nothing). */
export function usePortalShown(live: boolean): void {
  useEffect(() => {
    if (!live) return;
    layoutsShown++;
    clearTimeout(leaving);
    return () => {
      layoutsShown--;
      clearTimeout(leaving);
      // The sign-out page is outside the portal, and the layout goes before the person is signed out.
      if (!sessionStore.get().isAuthenticated || window.location.pathname === paths.logout) tell('signed-out');
      else leaving = setTimeout(() => layoutsShown === 0 && tell('left'), PORTAL_LEFT_MS);
    };
  }, [live]);
}
