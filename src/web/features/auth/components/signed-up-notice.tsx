import { MailCheck } from 'lucide-react';
import { Unbroken } from '@web/components/ui/unbroken';
import { ResendActivationButton } from './resend-activation-button';

/**
 * The state a sign-up hands to /login (the router's location state, kept by the history entry through
 * a reload): the address the activation link went to. A plain visit to /login has none.
 */
export interface SignedUpState {
  signedUp: string;
}

/** The address a sign-up in this tab arrived with, or null. */
export function signedUpAddress(state: unknown): string | null {
  const signedUp = (state as Partial<SignedUpState> | null | undefined)?.signedUp;
  return typeof signedUp === 'string' && signedUp ? signedUp : null;
}

/**
 * The state the activation page hands to /login: `activated` once it has made the account active, and the
 * address the account signed up with when that sign-up was on this device (lib/awaited-activation.ts).
 */
export interface ActivatedState {
  activated?: true;
  email?: string;
}

/** Whether /login was reached from an activation that just worked. */
export const arrivedActivated = (state: unknown) =>
  (state as Partial<ActivatedState> | null | undefined)?.activated === true;

/** The address of the account whose activation link led to /login, when this device signed it up; else null. */
export function activatedAddress(state: unknown): string | null {
  const email = (state as Partial<ActivatedState> | null | undefined)?.email;
  return typeof email === 'string' && email ? email : null;
}

/**
 * Above the login form after a sign-up: where the activation link went, and a new one on request. The sign-up's toast
 * has just said to check the inbox (the spec's text), so this says only what it does not: the address and what follows.
 */
export function SignedUpNotice({ email, redirect }: { email: string; redirect: string | null }) {
  return (
    <div className="mb-5 flex items-start gap-3 rounded-2xl border border-line bg-accent/10 p-4 text-sm">
      <MailCheck aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-link" />
      <div className="flex min-w-0 flex-col gap-3">
        <p>
          Your activation link went to{' '}
          <Unbroken>
            <strong dir="auto">{email}</strong>.
          </Unbroken>{' '}
          Log in here once you have opened it.
        </p>
        <p className="text-fg-muted">Nothing after a few minutes? Look in your spam folder, or have a new link sent.</p>
        <ResendActivationButton email={email} redirect={redirect} />
      </div>
    </div>
  );
}
