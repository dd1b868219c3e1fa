import { useState } from 'react';
import { ACCOUNT_INACTIVE_CODE, type PaidPlan } from '@shared/contract/plain';
import { ApiError } from '@web/lib/api-client';
import { Link, useLocationState, useNavigate, useSearchParams } from '@web/lib/link';
import { opensLogout, paths, planPaths, safeRedirectTarget, shareReturnTarget, withRedirect } from '@web/lib/paths';
import { chosenPlan } from '@web/lib/chosen-plan';
import { sessionStore } from '@web/lib/session';
import { notify } from '@web/lib/toast';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { createToken } from '../api/create-token';
import { AUTH_MESSAGES } from '../messages';
import { useLightForm } from '../use-light-form';
import { checkLogin, type LoginValues } from '../validate';
import { EmailField, PasswordField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm, linkClass } from './auth-card';
import { SubmitButton } from '@web/components/ui/submit-button';
import { ResendActivationButton } from './resend-activation-button';
import { activatedAddress, arrivedActivated, SignedUpNotice, signedUpAddress } from './signed-up-notice';
import { ChosenPlanNote, useChosenPlan } from './chosen-plan-note';

/**
 * Where to go after login: the guard's redirect target (never back to logout), else checkout for the
 * plan picked on the pricing table, else the player.
 */
function afterLoginTarget(redirect: string | null, plan: PaidPlan | null): string {
  const target = safeRedirectTarget(redirect);
  if (target && !opensLogout(target)) return target;
  return plan ? planPaths.checkout(plan) : paths.subliminals;
}

/**
 * The login form, in the SPA and on the pre-rendered /login page (docs/decisions/020-lean-pre-rendered-auth-pages.md):
 * no router, query client or zod of its own, so that page loads light.
 */
export function LoginForm() {
  const navigate = useNavigate();
  const searchParams = useSearchParams();
  const locationState = useLocationState();
  // Arrived from a sign-up in this tab: the address the activation link went to.
  const signedUp = signedUpAddress(locationState);
  // The address filled in, when this tab or device knows it: the keyboard waits in the password then.
  const knownAddress = signedUp ?? activatedAddress(locationState);
  // Someone who has just signed up, or just activated their account, is new here.
  const greeting = arrivedActivated(locationState)
    ? 'Welcome to Innerwave: your account is active.'
    : signedUp
      ? 'Welcome to Innerwave.'
      : 'Welcome back.';
  const plan = useChosenPlan();
  // A share page to come back to goes on to a sign-up, and into a new activation link (decision 052).
  const shareTarget = shareReturnTarget(searchParams.get('redirect'));
  // The address of an account that proved its password but waits for activation.
  const [inactiveEmail, setInactiveEmail] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Why the last try failed, said at the form (not in a toast that goes) until the person types again.
  const [failure, setFailure] = useState<string | null>(null);
  const form = useLightForm(checkLogin);

  const logIn = async (values: LoginValues) => {
    setFailure(null);
    setPending(true);
    let tokens;
    try {
      tokens = await createToken(values);
    } catch (error) {
      setPending(false);
      setInactiveEmail(null);
      if (error instanceof TypeError) return setFailure(AUTH_MESSAGES.offline);
      if (error instanceof ApiError && error.status === 429) return setFailure(AUTH_MESSAGES.throttled);
      // Only a right password gets this code, so a stranger learns nothing (docs/product/accounts.md#login).
      if (error instanceof ApiError && (error.body as { code?: unknown } | undefined)?.code === ACCOUNT_INACTIVE_CODE)
        return setInactiveEmail(values.email);
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        showServerFieldErrors(error, ['email', 'password'], form.setError, form.focusFirstError)
      )
        return;
      return setFailure(AUTH_MESSAGES.loginFailed);
    }
    // Said once, here: the session works for this tab all the same (lib/browser-storage.ts).
    if (!sessionStore.setTokens(tokens, values.email)) notify.info(AUTH_MESSAGES.sessionNotKept);
    // The profile is stored before the next page opens: from this page that is a page load, which would
    // cut this request off and ask again.
    try {
      const { fetchCurrentUser } = await import('../api/current-user');
      sessionStore.setUser(await fetchCurrentUser());
    } catch {
      notify.error(AUTH_MESSAGES.userFetchFailed);
    }
    // The choice has arrived: from here the profile's URL carries it (and a later login does not repeat it).
    chosenPlan.forget();
    navigate(afterLoginTarget(searchParams.get('redirect'), plan), { replace: true });
  };

  const formProps = form.formProps((values) => void logIn(values));
  return (
    <AuthCard
      title="Log in"
      intro={`${greeting} Log in to open your subliminals, meditations and profile.`}
      footer={
        <AuthFooterLink
          lead="New to Innerwave?"
          to={withRedirect(plan ? planPaths.signup(plan) : paths.signup, shareTarget)}
        >
          Create an account
        </AuthFooterLink>
      }
    >
      {plan ? (
        <ChosenPlanNote
          plan={plan}
          next={
            signedUp ? 'After you activate your account and log in, checkout is next.' : 'Log in to go on to checkout.'
          }
        />
      ) : null}
      {/* One resend at a time: a login refused for want of activation says what the sign-up's notice said. */}
      {inactiveEmail ? (
        <div role="alert" className="mb-4 flex flex-col gap-3 rounded-2xl border border-line bg-accent/10 p-4 text-sm">
          <p>{AUTH_MESSAGES.accountInactive}</p>
          <ResendActivationButton email={inactiveEmail} redirect={shareTarget} />
        </div>
      ) : signedUp ? (
        <SignedUpNotice email={signedUp} redirect={shareTarget} />
      ) : null}
      <AuthForm
        {...formProps}
        onChange={(event) => {
          setFailure(null);
          formProps.onChange(event);
        }}
      >
        <EmailField id="login-email" name="email" defaultValue={knownAddress ?? ''} error={form.errors.email} />
        <div className="flex flex-col gap-1.5">
          <PasswordField
            id="login-password"
            name="password"
            label="Password"
            // What is left to type; the router leaves the keyboard where a page puts it (app/router-navigation.tsx).
            autoFocus={knownAddress !== null}
            error={form.errors.password}
          />
          {/* 44 px tall on a touch screen, from the field's bottom into the room under it (decision 123). */}
          <Link
            to={paths.resetPassword}
            className={`${linkClass} self-end text-sm pointer-coarse:-mt-1.5 pointer-coarse:-mb-3 pointer-coarse:py-3`}
          >
            Forgot password?
          </Link>
        </div>
        {failure ? (
          <p role="alert" className="rounded-2xl border border-danger/40 bg-danger/10 p-3 text-sm">
            {failure}
          </p>
        ) : null}
        <SubmitButton className="w-full" pending={pending} pendingLabel="Logging in">
          Log in
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
