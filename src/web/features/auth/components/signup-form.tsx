import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { TERMS_CONFIRMATION } from '@shared/contract/plain';
import { FieldError } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { paths, planPaths } from '@web/lib/paths';
import { signup } from '../api/signup';
import { AUTH_MESSAGES } from '../messages';
import { signupFormSchema, type SignupForm as SignupValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { EmailField, PasswordField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm, linkClass } from './auth-card';
import { SubmitButton } from './submit-button';
import { fieldProps } from '@web/lib/form-field';
import { ChosenPlanNote, useChosenPlan } from './chosen-plan-note';

const FIELDS = ['email', 'password', 're_password', 'accept_terms'] as const;

/** Where the check-inbox screen finds the address it was sent to (and login prefills it). */
export interface AccountAddressState {
  email?: string;
}

export function SignupForm() {
  const navigate = useNavigate();
  const plan = useChosenPlan();
  const form = useForm<SignupValues>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { email: '', password: '', re_password: '', accept_terms: false },
  });
  const { errors } = form.formState;
  const mutation = useMutation({
    mutationFn: (values: SignupValues) => signup({ ...values, accept_terms: true }),
    onSuccess: (account) => {
      toast.success(AUTH_MESSAGES.signupSucceeded);
      form.reset();
      void navigate(plan ? `${paths.checkInbox}?plan=${plan}` : paths.checkInbox, {
        state: { email: account.email } satisfies AccountAddressState,
      });
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
        toast.error(AUTH_MESSAGES.signupError(error instanceof TypeError ? AUTH_MESSAGES.offline : error.message));
      }
    },
  });

  return (
    <AuthCard
      title="Create your account"
      intro="Sign up with your e-mail address; we will send you a link to activate your account."
      footer={
        <AuthFooterLink lead="Already have an account?" to={plan ? planPaths.login(plan) : paths.login}>
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
      <AuthForm onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <EmailField id="signup-email" {...fieldProps(form, 'email')} />
        <PasswordField id="signup-password" label="Password" isNew showRules {...fieldProps(form, 'password')} />
        <PasswordField id="signup-re-password" label="Confirm password" isNew {...fieldProps(form, 're_password')} />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-start gap-3">
            <input
              id="signup-accept-terms"
              type="checkbox"
              aria-invalid={errors.accept_terms ? true : undefined}
              aria-describedby={errors.accept_terms ? 'signup-accept-terms-error' : undefined}
              className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer accent-accent"
              {...form.register('accept_terms')}
            />
            <label htmlFor="signup-accept-terms" className="text-sm">
              {TERMS_CONFIRMATION}
            </label>
          </div>
          <p className="pl-8 text-xs text-fg-muted">
            Read the{' '}
            <Link to={paths.terms} target="_blank" className={linkClass}>
              terms of service
            </Link>{' '}
            and the{' '}
            <Link to={paths.privacy} target="_blank" className={linkClass}>
              privacy policy
            </Link>{' '}
            (each opens in a new tab).
          </p>
          <FieldError id="signup-accept-terms" error={errors.accept_terms?.message} />
        </div>
        <SubmitButton pending={mutation.isPending} pendingLabel="Creating your account">
          Sign up
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
