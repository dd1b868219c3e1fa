import { useState, type ReactNode } from 'react';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { notify } from '@web/lib/toast';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { requestPasswordReset } from '../api/request-password-reset';
import { AUTH_MESSAGES } from '../messages';
import { useLightForm } from '../use-light-form';
import { checkResetRequest } from '../validate';
import { EmailField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm } from './auth-card';
import { SubmitButton } from '@web/components/ui/submit-button';

/**
 * Asks for a reset link; in the SPA and on the pre-rendered /resetpassword/ page (light, as the login form), and
 * where a reset link no longer works, whose `notice` then says so in place of the intro.
 */
export function ResetRequestForm({ notice, autoFocus }: { notice?: ReactNode; autoFocus?: boolean }) {
  const [pending, setPending] = useState(false);
  const form = useLightForm(checkResetRequest);

  const send = async (values: { email: string }) => {
    setPending(true);
    try {
      await requestPasswordReset(values);
      notify.success(AUTH_MESSAGES.resetRequested);
      form.reset();
    } catch (error) {
      if (error instanceof TypeError) notify.error(AUTH_MESSAGES.offline);
      else if (error instanceof ApiError && error.status === 429) notify.error(AUTH_MESSAGES.throttled);
      else notify.error(AUTH_MESSAGES.resetRequestFailed);
      showServerFieldErrors(error, ['email'], form.setError, form.focusFirstError);
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard
      title="Reset your password"
      intro={
        notice
          ? undefined
          : 'Enter the e-mail address of your account and we will send you a link to choose a new password.'
      }
      footer={
        <AuthFooterLink lead="Remembered it?" to={paths.login}>
          Back to login
        </AuthFooterLink>
      }
    >
      {notice}
      <AuthForm {...form.formProps((values) => void send(values))}>
        <EmailField id="reset-email" name="email" required autoFocus={autoFocus} error={form.errors.email} />
        <SubmitButton className="w-full" pending={pending} pendingLabel="Sending the link">
          Send reset link
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
