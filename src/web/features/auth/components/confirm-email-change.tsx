import { useEffect, useRef, useState } from 'react';
import type { CurrentUser } from '@shared/contract';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Spinner } from '@web/components/ui/spinner';
import { ApiError } from '@web/lib/api-client';
import { describeError } from '@web/lib/change';
import { paths } from '@web/lib/paths';
import { sessionStore, useSession } from '@web/lib/session';
import { fetchCurrentUser } from '../api/current-user';
import { confirmEmailChange } from '../api/confirm-email-change';
import { AUTH_MESSAGES } from '../messages';
import { AuthCard, linkClass } from './auth-card';

/** UTF-8 text from base64url (a link's `uid`, the address in its token), or undefined when it is not. */
function fromBase64url(encoded: string): string | undefined {
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The new address a link's token (`<new address in base64url>~<stamp>`) carries, or undefined when it carries none. */
function addressOf(token: string): string | undefined {
  const encoded = /^([A-Za-z0-9_-]{1,400})~/.exec(token)?.[1];
  return encoded === undefined ? undefined : fromBase64url(encoded);
}

/** Whether this link (`uid`, and the token's address) moves `user` to the address it has now. */
function linksTo(user: CurrentUser, uid: string, token: string): boolean {
  return fromBase64url(uid) === String(user.id) && addressOf(token)?.toLowerCase() === user.email.toLowerCase();
}

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
    // To the profile of the account that changed; signed in here as another one (a shared computer), to
    // login, which says who is signed in and offers to sign out, rather than a profile with another address.
    // Signed in as another one, the text names the address confirmed and says it is not theirs (docs/decisions/145-…).
    const changed = () => {
      const { id } = sessionStore.get();
      const known = isAuthenticated && id !== null;
      const own = known && fromBase64url(uid) === String(id);
      toast.success(
        known && !own ? AUTH_MESSAGES.emailChangedForAnother(addressOf(token)) : AUTH_MESSAGES.emailChanged,
      );
      void navigate(own ? paths.profile : paths.login, { replace: true });
    };
    confirmEmailChange({ uid, token }).then(
      async () => {
        // Signed in here, the portal's bar shows the new address too, not the one stored at login.
        if (isAuthenticated) await fetchCurrentUser().then(sessionStore.setUser, () => undefined);
        changed();
      },
      async (error: unknown) => {
        // The link opened a second time (a double click, a second tab, Back): it is used, so it is refused.
        // Signed in here, the account says whether it already has the link's address; then it worked.
        const user = isAuthenticated ? await fetchCurrentUser().catch(() => undefined) : undefined;
        if (user && linksTo(user, uid, token)) {
          sessionStore.setUser(user);
          changed();
        } else
          setFailure(
            error instanceof ApiError && error.status === 429 ? AUTH_MESSAGES.throttled : describeError(error),
          );
      },
    );
  }, [uid, token, navigate, isAuthenticated]);

  return (
    <AuthCard title="Confirm your new e-mail address">
      {failure ? (
        <div role="alert" className="flex flex-col gap-3">
          <p className="text-danger">{AUTH_MESSAGES.emailLinkDidNotChange}</p>
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
