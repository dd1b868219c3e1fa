import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { SHORT_TOAST_MS } from '@web/lib/constants';
import { Spinner } from '@web/components/ui/spinner';
import { ApiError } from '@web/lib/api-client';
import { loginWithRedirect, paths, shareReturnTarget } from '@web/lib/paths';
import { activateAccount } from '../api/activate-account';
import { AUTH_MESSAGES } from '../messages';
import { AuthCard } from './auth-card';
import type { ActivatedState } from './signed-up-notice';
import { toastFailure } from '@web/lib/change';
import { awaitedActivation } from '@web/lib/awaited-activation';

/**
 * Runs the activation as soon as the page opens (docs/product/accounts.md#activation), then goes to login either way;
 * a link made for a sign-up from a share link (`?redirect=/s/…`) hands that page on to login, which opens
 * it once signed in, on whichever device the e-mail was opened (decision 052).
 */
export function ActivateAccount({ uid, token }: { uid: string; token: string }) {
  const navigate = useNavigate();
  const shareTarget = shareReturnTarget(useSearchParams()[0].get('redirect'));
  // The link works once: StrictMode's second effect run must not post it again.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Login greets an account made active here as new, not with "Welcome back.": the toast lasts a second.
    let activated = false;
    // Signed up on this device: login comes with the address filled in (kept until the account is active).
    const email = awaitedActivation.addressOf(uid);
    activateAccount({ uid, token })
      .then(
        () => {
          activated = true;
          awaitedActivation.forget(uid);
          toast.success(AUTH_MESSAGES.activationSucceeded, { duration: SHORT_TOAST_MS });
        },
        (error: unknown) => {
          // A link opened again after it worked: the account is active, nothing failed.
          if (error instanceof ApiError && error.status === 403) {
            awaitedActivation.forget(uid);
            toast.success(AUTH_MESSAGES.alreadyActive);
          }
          // Too many attempts for this account: the link is not broken, it works once the window has passed.
          else if (error instanceof ApiError && error.status === 429) toastFailure(error, AUTH_MESSAGES.throttled);
          else toastFailure(error, error instanceof TypeError ? AUTH_MESSAGES.offline : AUTH_MESSAGES.activationFailed);
        },
      )
      .finally(
        () =>
          void navigate(shareTarget ? loginWithRedirect(shareTarget) : paths.login, {
            replace: true,
            state: {
              ...(activated ? { activated: true } : {}),
              ...(email ? { email } : {}),
            } satisfies ActivatedState,
          }),
      );
  }, [uid, token, navigate, shareTarget]);

  return (
    <AuthCard title="Activate your account">
      <div className="flex flex-col items-center gap-3 py-6 text-center">
        <Spinner label="Verifying account" className="[&_svg]:h-10 [&_svg]:w-10" />
        <p aria-hidden className="text-fg-muted">
          Verifying account...
        </p>
      </div>
    </AuthCard>
  );
}
