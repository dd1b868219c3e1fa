import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SHORT_TOAST_MS } from '@web/lib/constants';
import { endSessionsForSignOut } from '@web/components/practice-recorder';
import { Spinner } from '@web/components/ui/spinner';
import { paths } from '@web/lib/paths';
import { dropDraftsOf } from '@web/lib/form-draft';
import { sessionStore } from '@web/lib/session';
import { logout } from '../api/logout';
import { AUTH_MESSAGES } from '../messages';
import { endedTheSession, failureOver, toastFailure } from '@web/lib/change';

/**
 * Ends the session as soon as the page opens; on failure back to the player (docs/product/screens.md#logout).
 * A session the server had ended already counts as logged out (api/logout.ts).
 */
export function LogoutScreen() {
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The session signed out of is the one shown now: another tab may sign someone else in while this one waits.
    const { id, isAuthenticated, refresh } = sessionStore.get();
    // What plays or flashes is recorded first, while the token that records it is still good.
    void endSessionsForSignOut()
      .then(() => logout(refresh))
      .then(
        () => {
          // Logged out on a press again, the earlier failure's toast goes (decision 150).
          failureOver('logout');
          // A session ended on the way here (a record refused, its refresh too) has said so already; one another
          // tab signed in meanwhile is not this tab's to end.
          if (isAuthenticated && sessionStore.get().refresh === refresh)
            toast.success(AUTH_MESSAGES.logoutSucceeded, { duration: SHORT_TOAST_MS });
          // What they typed goes with them, as they asked to leave; a session that merely ended keeps it (decision 077).
          if (id !== null) dropDraftsOf(id, 'logout');
          // Leave the guarded page first, so the guard does not send us to login?redirect=/logout.
          void navigate(paths.login, { replace: true });
          sessionStore.end(refresh);
        },
        (error: unknown) => {
          toastFailure(error, AUTH_MESSAGES.logoutFailed, 'logout');
          // A session the server had ended already is on its way to login (lib/session-refresh.ts), as they asked.
          if (!endedTheSession(error)) void navigate(paths.subliminals, { replace: true });
          else if (id !== null) dropDraftsOf(id, 'logout');
        },
      );
  }, [navigate]);

  return (
    <section className="flex min-h-dvh flex-col items-center justify-center gap-4 p-8 text-center">
      <Spinner label="Terminating Session" className="[&_svg]:h-10 [&_svg]:w-10" />
      <p aria-hidden className="text-lg text-fg-muted">
        Terminating Session...
      </p>
    </section>
  );
}
