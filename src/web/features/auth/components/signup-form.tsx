import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Field } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { signup } from '../api/signup';
import { AUTH_MESSAGES } from '../messages';
import { signupFormSchema, type SignupForm as SignupValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { AuthCard, linkClass } from './auth-card';
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
      if (error instanceof ApiError) {
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
        <>
          Already have an account?{' '}
          <Link to={paths.login} className={linkClass}>
            Log in
          </Link>
        </>
      }
    >
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
        className="flex flex-col gap-4"
      >
        <Field
          id="signup-email"
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <Field
          id="signup-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Field
          id="signup-re-password"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.re_password?.message}
          {...form.register('re_password')}
        />
        <p className="text-xs text-[var(--fg-muted)]">
          At least 8 characters, not only digits, not a common password and not like your e-mail.
        </p>
        <SubmitButton pending={mutation.isPending} pendingLabel="Creating your account">
          Sign up
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
