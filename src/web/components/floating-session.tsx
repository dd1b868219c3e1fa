import { useEffect } from 'react';
import { paths } from '@web/lib/paths';
import { floatingSession, useFloatingSession } from '@web/lib/floating-session';
import { sessionStore } from '@web/lib/session';
import { notify } from '@web/lib/toast';

export const LEFT_THE_PORTAL = 'The session ended when you left the portal.';

/**
 * Where the session screen started on a page shows (lib/floating-session.ts): under the portal's
 * layout, so a session in a corner goes on from page to page. Leaving the portal (signing out, or a
 * page without the portal's layout) ends it, and a person still signed in is told.
 */
export function FloatingSession() {
  const screen = useFloatingSession();
  useEffect(
    () => () => {
      if (floatingSession.get() === null) return;
      floatingSession.end();
      // Signing out (the sign-out page is outside the portal, so the layout goes first) needs no word.
      if (sessionStore.get().isAuthenticated && window.location.pathname !== paths.logout) notify.info(LEFT_THE_PORTAL);
    },
    [],
  );
  return screen;
}
