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
/** Counts the portal's visits: one ends when the portal is left, or as soon as the session ends. */
let visits = 0;

function tell(how: PortalLeaving) {
  visits++;
  for (const listener of listeners) listener(how);
}

// A session ended (signed out in another tab, refused by the server) ends the visit at once, a render before
// its layout goes: a start whose wait ends in between starts nothing.
let signedIn = sessionStore.get().isAuthenticated;
sessionStore.subscribe(() => {
  const now = sessionStore.get().isAuthenticated;
  if (signedIn && !now) visits++;
  signedIn = now;
});

/** Thrown by a start whose portal visit ended while it waited (`PortalVisit.check`): no toast tells of it. */
export class PortalLeftError extends Error {
  override name = 'PortalLeftError';
  constructor() {
    super('The portal was left before the sound could start.');
  }
}

/** The visit of the portal a press was made in, carried by a start that waits (a fetch, the voice) before it plays. */
export interface PortalVisit {
  /** Whether the person has left the portal since the press: signed out, sent to log in, or gone from its pages. */
  readonly left: boolean;
  /** Throws PortalLeftError once the portal was left: called after each wait, so a start left behind starts nothing. */
  check(): void;
}

/**
 * The visit going on, taken inside a press: the sound it asks for after a wait plays only in that visit, never on
 * the login page it was sent to meanwhile (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md).
 */
export function portalVisit(): PortalVisit {
  const visit = visits;
  return {
    get left() {
      return visits !== visit;
    },
    check() {
      if (visits !== visit) throw new PortalLeftError();
    },
  };
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
