import { useEffect } from 'react';
import { floatingSession, useFloatingSession } from '@web/lib/floating-session';
import { onPortalLeft } from '@web/lib/portal-presence';
import { notify } from '@web/lib/toast';

export const LEFT_THE_PORTAL = 'The session ended when you left the portal.';

/**
 * Where the session screen started on a page shows (lib/floating-session.ts). It is rendered above the
 * routes' layouts, so one element stays mounted, state and all, while the portal's own pages and the
 * open pages it dresses (portal home, the legal pages…) swap one portal layout for another: a session
 * in a corner goes on wherever the sound in the mini-player does. Leaving the portal ends both
 * (lib/portal-presence.ts); a person still signed in is told.
 */
export function FloatingSession() {
  const screen = useFloatingSession();
  useEffect(
    () =>
      onPortalLeft((how) => {
        if (floatingSession.get() === null) return;
        floatingSession.end();
        if (how === 'left') notify.info(LEFT_THE_PORTAL);
      }),
    [],
  );
  return screen;
}
