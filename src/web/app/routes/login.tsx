import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AccountSummary, useSignedInAccount } from '@web/components/account';
import type { Account } from '@web/lib/describe-account';
import { Button } from '@web/components/ui/button';
import { opensLogout, paths, safeRedirectTarget } from '@web/lib/paths';
import { sessionStore } from '@web/lib/session';
import { AuthCard, linkClass } from '@web/features/auth/components/auth-card';
import { LoginForm } from '@web/features/auth/components/login-form';

/** Someone already signed in gets their account and the way in, not a second login. */
function SignedIn({ account }: { account: Account }) {
  const [searchParams] = useSearchParams();
  const target = safeRedirectTarget(searchParams.get('redirect'));
  return (
    <AuthCard
      title="You are signed in"
      footer={
        <>
          Not you?{' '}
          <Link to={paths.logout} className={linkClass}>
            Sign out
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <AccountSummary account={account} />
        <Button asChild>
          <Link to={target && !opensLogout(target) ? target : paths.subliminals}>Open the portal</Link>
        </Button>
      </div>
    </AuthCard>
  );
}

export function Component() {
  // Decided on arrival: a login completed on this page moves on by itself, without this card in between.
  const [signedInOnArrival] = useState(() => sessionStore.get().isAuthenticated);
  const account = useSignedInAccount();
  return signedInOnArrival && account ? <SignedIn account={account} /> : <LoginForm />;
}
