import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { signup } from '../api/signup';
import { AUTH_MESSAGES } from '../messages';
import { signupFormSchema, type SignupForm as SignupValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { EmailField, PasswordField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm } from './auth-card';
import { SubmitButton } from './submit-button';

const FIELDS = ['email', 'password', 're_password'] as const;

export function SignupForm() {
  const navigate = useNavigate();
  const form = useForm<SignupValues>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { email: '', password: '', re_password: '' },
  });
  const { errors } = form.formState;
  const mutation = useMutation({
    mutationFn: signup,
    onSuccess: () => {
      toast.success(AUTH_MESSAGES.signupSucceeded);
      form.reset();
      void navigate(paths.login);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 429) {
        toast.error(AUTH_MESSAGES.throttled);
      } else if (error instanceof ApiError) {
        toast.error(AUTH_MESSAGES.signupFailed(error.status));
        showServerFieldErrors(error, FIELDS, form.setError);
        const nonField = error.fieldErrors.non_field_errors;
        if (nonField) form.setError('re_password', { type: 'server', message: nonField });
      } else {
        toast.error(AUTH_MESSAGES.signupError(error.message));
      }
    },
  });

  return (
    <AuthCard
      title="Create your account"
      intro="Sign up with your e-mail address; we will send you a link to activate your account."
      footer={
        <AuthFooterLink lead="Already have an account?" to={paths.login}>
          Log in
        </AuthFooterLink>
      }
    >
      <AuthForm onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <EmailField id="signup-email" error={errors.email?.message} {...form.register('email')} />
        <PasswordField
          id="signup-password"
          label="Password"
          isNew
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          id="signup-re-password"
          label="Confirm password"
          isNew
          error={errors.re_password?.message}
          {...form.register('re_password')}
        />
        <p className="text-xs text-fg-muted">
          At least 8 characters, not only digits, not a common password and not like your e-mail.
        </p>
        <SubmitButton pending={mutation.isPending} pendingLabel="Creating your account">
          Sign up
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
