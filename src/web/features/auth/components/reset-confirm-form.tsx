import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SHORT_TOAST_MS } from '@web/lib/constants';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { AUTH_MESSAGES } from '../messages';
import { resetConfirmFormSchema, type ResetConfirmForm as ResetConfirmValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { PasswordField } from './fields';
import { AuthCard, AuthForm, linkClass } from './auth-card';
import { SubmitButton } from '@web/components/ui/submit-button';
import { toastProblem } from '@web/lib/toast-problem';
import { toastFailure } from '@web/lib/change';
import { fieldProps, useFocusFirstError } from '@web/lib/form-field';

export function ResetConfirmForm({ uid, token }: { uid: string; token: string }) {
  const navigate = useNavigate();
  const [linkBroken, setLinkBroken] = useState(false);
  const form = useForm<ResetConfirmValues>({
    resolver: zodResolver(resetConfirmFormSchema),
    defaultValues: { new_password: '', re_new_password: '' },
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();
  const mutation = useMutation({
    mutationFn: (values: ResetConfirmValues) => confirmPasswordReset({ uid, token, ...values }),
    onSuccess: () => {
      toast.success(AUTH_MESSAGES.resetSucceeded, { duration: SHORT_TOAST_MS });
      void navigate(paths.login, { replace: true });
    },
    onError: (error) => {
      toastFailure(
        error,
        error instanceof TypeError
          ? AUTH_MESSAGES.offline
          : error instanceof ApiError && error.status === 429
            ? AUTH_MESSAGES.throttled
            : AUTH_MESSAGES.resetFailed,
      );
      showServerFieldErrors(error, ['new_password', 're_new_password'], form.setError, focusFirstError);
      if (error instanceof ApiError && (error.fieldErrors.uid || error.fieldErrors.token)) setLinkBroken(true);
    },
  });

  // A mismatch is a toast and nothing is sent; the message also stays under the field.
  const onInvalid = () => {
    focusFirstError();
    if (form.getValues('new_password') && form.getValues('re_new_password')) toastProblem(AUTH_MESSAGES.resetMismatch);
  };

  return (
    <AuthCard title="Choose a new password" intro="Enter your new password twice.">
      {linkBroken ? (
        <p role="alert" className="mb-4 rounded-2xl border border-danger/40 bg-danger/10 p-3 text-sm">
          {/* A login ends a reset link (decisions.md §10), which the mail says too: the likeliest reason named here. */}
          This link is no longer valid: it was used already, it expired, you logged in since it was sent, or it was
          copied incompletely.{' '}
          <Link to={paths.resetPassword} className={linkClass}>
            Request a new link
          </Link>
        </p>
      ) : null}
      <AuthForm ref={formRef} onSubmit={form.handleSubmit((values) => mutation.mutate(values), onInvalid)}>
        <PasswordField
          id="reset-new-password"
          label="New password"
          required
          isNew
          showRules
          {...fieldProps(form, 'new_password')}
        />
        <PasswordField
          id="reset-re-new-password"
          label="Confirm new password"
          required
          isNew
          {...fieldProps(form, 're_new_password')}
        />
        <SubmitButton className="w-full" pending={mutation.isPending} pendingLabel="Saving your new password">
          Set new password
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
