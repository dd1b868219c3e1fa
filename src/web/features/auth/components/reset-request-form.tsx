import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { requestPasswordReset } from '../api/request-password-reset';
import { AUTH_MESSAGES } from '../messages';
import { resetRequestFormSchema, type ResetRequestForm as ResetRequestValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { EmailField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm } from './auth-card';
import { SubmitButton } from './submit-button';
import { fieldProps } from '@web/lib/form-field';

export function ResetRequestForm() {
  const form = useForm<ResetRequestValues>({
    resolver: zodResolver(resetRequestFormSchema),
    defaultValues: { email: '' },
  });
  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: () => {
      toast.success(AUTH_MESSAGES.resetRequested);
      form.reset();
    },
    onError: (error) => {
      if (error instanceof TypeError) toast.error(AUTH_MESSAGES.offline);
      else if (error instanceof ApiError && error.status === 429) toast.error(AUTH_MESSAGES.throttled);
      else toast.error(AUTH_MESSAGES.resetRequestFailed);
      showServerFieldErrors(error, ['email'], form.setError);
    },
  });

  return (
    <AuthCard
      title="Reset your password"
      intro="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <AuthFooterLink lead="Remembered it?" to={paths.login}>
          Back to login
        </AuthFooterLink>
      }
    >
      <AuthForm onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <EmailField id="reset-email" required {...fieldProps(form, 'email')} />
        <SubmitButton pending={mutation.isPending} pendingLabel="Sending the link">
          Send reset link
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
