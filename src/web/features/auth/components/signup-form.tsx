import { useState } from 'react';
import { EMAIL_TAKEN, TERMS_CONFIRMATION } from '@shared/contract/plain';
import { CheckboxField } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { Link, useNavigate, useSearchParams } from '@web/lib/link';
import { paths, planPaths, shareReturnTarget, withRedirect } from '@web/lib/paths';
import { notify } from '@web/lib/toast';
import { awaitedActivation } from '@web/lib/awaited-activation';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { signup } from '../api/signup';
import { AUTH_MESSAGES } from '../messages';
import { useLightForm } from '../use-light-form';
import { checkSignup, type SignupValues } from '../validate';
import { EmailField, PasswordField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm, linkClass } from './auth-card';
import { SubmitButton } from '@web/components/ui/submit-button';
import { ChosenPlanNote, useChosenPlan } from './chosen-plan-note';
import type { ActivatedState, SignedUpState } from './signed-up-notice';

const FIELDS = ['email', 'password', 're_password', 'accept_terms'] as const;

/** The sign-up form, in the SPA and on the pre-rendered /signup page (light, as the login form). */
export function SignupForm() {
  const navigate = useNavigate();
  const plan = useChosenPlan();
  // Signed up from a share link: the activation link, and login after it, lead back to it (decision 052).
  const shareTarget = shareReturnTarget(useSearchParams().get('redirect'));
  const loginPath = withRedirect(plan ? planPaths.login(plan) : paths.login, shareTarget);
  const [pending, setPending] = useState(false);
  const form = useLightForm(checkSignup);
  const { errors } = form;
  // The address the server said has an account: the way to log in to it, filled in (decision 149).
  const [takenAddress, setTakenAddress] = useState<string | null>(null);

  const create = async (values: SignupValues) => {
    setPending(true);
    try {
      const account = await signup({
        ...values,
        accept_terms: true,
        ...(shareTarget ? { redirect: shareTarget } : {}),
      });
      notify.success(AUTH_MESSAGES.signupSucceeded);
      // The activation link may open in another tab: its login fills the address in from here.
      awaitedActivation.remember(account.id, account.email);
      form.reset();
      // Login says where the link went and offers a new one, with the address filled in.
      navigate(loginPath, {
        state: { signedUp: account.email } satisfies SignedUpState,
      });
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError && error.status === 429) {
        notify.error(AUTH_MESSAGES.throttled);
      } else if (error instanceof ApiError) {
        notify.error(AUTH_MESSAGES.signupFailed(error.status));
        setTakenAddress(error.fieldErrors.email === EMAIL_TAKEN ? values.email : null);
        showServerFieldErrors(error, FIELDS, form.setError, form.focusFirstError);
        const nonField = error.fieldErrors.non_field_errors;
        if (nonField) {
          form.setError('re_password', { message: nonField });
          form.focusFirstError();
        }
      } else {
        notify.error(
          AUTH_MESSAGES.signupError(
            error instanceof TypeError ? AUTH_MESSAGES.offline : error instanceof Error ? error.message : String(error),
          ),
        );
      }
    }
  };

  return (
    <AuthCard
      title="Create your account"
      intro="Sign up with your e-mail address; we will send you a link to activate your account."
      footer={
        <AuthFooterLink lead="Already have an account?" to={loginPath}>
          Log in
        </AuthFooterLink>
      }
    >
      {plan ? (
        <ChosenPlanNote
          plan={plan}
          next="Create your account and activate it; checkout comes right after you log in."
        />
      ) : null}
      <AuthForm {...form.formProps((values) => void create(values))}>
        <EmailField id="signup-email" name="email" error={errors.email} />
        {takenAddress !== null && errors.email === EMAIL_TAKEN ? (
          <p className="-mt-2 text-sm text-fg-muted">
            Is it yours?{' '}
            <Link
              to={loginPath}
              className={linkClass}
              onClick={(event) => {
                event.preventDefault();
                // "Signup failed…" would follow the person to the login, where it no longer says anything.
                notify.dismissAll();
                navigate(loginPath, { state: { email: takenAddress } satisfies ActivatedState });
              }}
            >
              Log in with it
            </Link>
            , or{' '}
            <Link to={paths.resetPassword} className={linkClass} onClick={notify.dismissAll}>
              reset its password
            </Link>{' '}
            if you have forgotten it.
          </p>
        ) : null}
        <PasswordField id="signup-password" name="password" label="Password" isNew showRules error={errors.password} />
        <PasswordField
          id="signup-re-password"
          name="re_password"
          label="Confirm password"
          isNew
          error={errors.re_password}
        />
        <CheckboxField
          id="signup-accept-terms"
          name="accept_terms"
          label={TERMS_CONFIRMATION}
          hint={
            <>
              Read the{' '}
              <Link to={paths.terms} target="_blank" className={linkClass}>
                terms and conditions
              </Link>{' '}
              and the{' '}
              <Link to={paths.privacy} target="_blank" className={linkClass}>
                privacy policy
              </Link>{' '}
              (each opens in a new tab).
            </>
          }
          error={errors.accept_terms}
        />
        <SubmitButton className="w-full" pending={pending} pendingLabel="Creating your account">
          Sign up
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
