import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/change';
import { paths } from '@web/lib/paths';
import { sessionStore, useSession } from '@web/lib/session';
import { fetchCurrentUser } from '../api/current-user';
import { confirmEmailChange } from '../api/confirm-email-change';
import { AUTH_MESSAGES } from '../messages';
import { AuthCard, linkClass } from './auth-card';

/**
 * Confirms a new e-mail address as soon as the page opens (docs/product/accounts.md#changing-the-e-mail):
 * on success to the profile (or login), on failure the reason stays on the page.
 */
export function ConfirmEmailChange({ uid, token }: { uid: string; token: string }) {
  const navigate = useNavigate();
  const { isAuthenticated } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  // The link works once: StrictMode's second effect run must not post it again.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    confirmEmailChange({ uid, token }).then(
      async () => {
        // Signed in here, the portal's bar shows the new address too, not the one stored at login.
        if (isAuthenticated) await fetchCurrentUser().then(sessionStore.setUser, () => undefined);
        toast.success(AUTH_MESSAGES.emailChanged);
        void navigate(isAuthenticated ? paths.profile : paths.login, { replace: true });
      },
      (error: unknown) => setFailure(describeError(error)),
    );
  }, [uid, token, navigate, isAuthenticated]);

  return (
    <AuthCard title="Confirm your new e-mail address">
      {failure ? (
        <div role="alert" className="flex flex-col gap-3">
          <p className="text-danger">Your e-mail address was not changed.</p>
          <p className="text-sm text-fg-muted">{failure}</p>
          <p className="text-sm">
            You can ask for a new link in your{' '}
            <Link to={paths.profile} className={linkClass}>
              profile
            </Link>
            .
          </p>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-3 py-6 text-center">
          <Spinner label="Confirming your new address" className="[&_svg]:h-10 [&_svg]:w-10" />
          <p aria-hidden className="text-fg-muted">
            Confirming your new address...
          </p>
        </div>
      )}
    </AuthCard>
  );
}
