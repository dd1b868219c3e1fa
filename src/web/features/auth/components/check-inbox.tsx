import { useState } from 'react';
import { MailCheck } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/input';
import { paths, planPaths } from '@web/lib/paths';
import { AuthCard, AuthFooterLink } from './auth-card';
import { ResendActivationButton } from './resend-activation-button';
import type { AccountAddressState } from './signup-form';
import { ChosenPlanNote, useChosenPlan } from './chosen-plan-note';

/** After sign-up: where the link went, a resend, and the way to login with the address filled in. */
export function CheckInbox() {
  const state = (useLocation().state ?? {}) as AccountAddressState;
  // Opened without the sign-up's state (a reload, a bookmark): the person types the address.
  const [email, setEmail] = useState(state.email ?? '');
  const plan = useChosenPlan();
  return (
    <AuthCard
      title="Check your inbox"
      footer={
        <AuthFooterLink lead="Wrong address?" to={plan ? planPaths.signup(plan) : paths.signup}>
          Sign up again
        </AuthFooterLink>
      }
    >
      {plan ? (
        <ChosenPlanNote plan={plan} next="After you activate your account and log in, checkout is next." />
      ) : null}
      <div className="flex flex-col gap-5">
        <div className="flex items-start gap-3">
          <MailCheck aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-link" />
          {state.email ? (
            <p>
              We sent an activation link to <strong className="break-all">{state.email}</strong>. Open it to activate
              your account, then log in.
            </p>
          ) : (
            <p>We sent you an activation link. Open it to activate your account, then log in.</p>
          )}
        </div>
        <p className="text-sm text-fg-muted">
          Nothing after a few minutes? Look in your spam folder, or have a new link sent.
        </p>
        {state.email ? null : (
          <Field
            id="check-inbox-email"
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value.trim())}
          />
        )}
        <div className="flex flex-col gap-3 sm:flex-row">
          <ResendActivationButton email={email} />
          <Button asChild>
            <Link to={plan ? planPaths.login(plan) : paths.login} state={{ email } satisfies AccountAddressState}>
              Go to login
            </Link>
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
