import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ACCOUNT_INACTIVE_CODE } from '@shared/contract/plain';
import { toast } from 'sonner';
import { ApiError } from '@web/lib/api-client';
import { paths, planPaths, safeRedirectTarget } from '@web/lib/paths';
import { chosenPlan } from '@web/lib/chosen-plan';
import type { PaidPlan } from '@shared/contract';
import { sessionStore } from '@web/lib/session';
import { createToken } from '../api/create-token';
import { fetchCurrentUser } from '../api/current-user';
import { AUTH_MESSAGES } from '../messages';
import { loginFormSchema, type LoginForm as LoginValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { EmailField, PasswordField } from './fields';
import { AuthCard, AuthFooterLink, AuthForm, linkClass } from './auth-card';
import { SubmitButton } from './submit-button';
import { ResendActivationButton } from './resend-activation-button';
import type { AccountAddressState } from './signup-form';
import { fieldProps } from '@web/lib/form-field';
import { ChosenPlanNote, useChosenPlan } from './chosen-plan-note';

/**
 * Where to go after login: the guard's redirect target (never back to logout), else checkout for the
 * plan picked on the pricing table, else the player.
 */
function afterLoginTarget(redirect: string | null, plan: PaidPlan | null): string {
  const target = safeRedirectTarget(redirect);
  if (target && !target.startsWith(paths.logout)) return target;
  return plan ? planPaths.checkout(plan) : paths.subliminals;
}

export function LoginForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const arrivedWith = (useLocation().state ?? {}) as AccountAddressState;
  const plan = useChosenPlan();
  // The address of an account that proved its password but waits for activation.
  const [inactiveEmail, setInactiveEmail] = useState<string | null>(null);
  const form = useForm<LoginValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: arrivedWith.email ?? '', password: '' },
  });
  const mutation = useMutation({
    mutationFn: createToken,
    onSuccess: async (tokens) => {
      sessionStore.setTokens(tokens);
      // The choice has arrived: from here the profile's URL carries it (and a later login does not repeat it).
      chosenPlan.forget();
      void navigate(afterLoginTarget(searchParams.get('redirect'), plan), { replace: true });
      try {
        sessionStore.setUser(await fetchCurrentUser());
      } catch {
        toast.error(AUTH_MESSAGES.userFetchFailed);
      }
    },
    onError: (error, values) => {
      setInactiveEmail(null);
      if (error instanceof TypeError) {
        toast.error(AUTH_MESSAGES.offline);
        return;
      }
      if (error instanceof ApiError && error.status === 429) {
        toast.error(AUTH_MESSAGES.throttled);
        return;
      }
      // Only a right password gets this code, so a stranger learns nothing (docs/product/accounts.md#login).
      if (error instanceof ApiError && (error.body as { code?: unknown } | undefined)?.code === ACCOUNT_INACTIVE_CODE) {
        setInactiveEmail(values.email);
        return;
      }
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        showServerFieldErrors(error, ['email', 'password'], form.setError)
      )
        return;
      toast.error(AUTH_MESSAGES.loginFailed);
    },
  });

  return (
    <AuthCard
      title="Log in"
      intro="Welcome back. Log in to open your subliminals, meditations and profile."
      footer={
        <AuthFooterLink lead="New to Innerwave?" to={plan ? planPaths.signup(plan) : paths.signup}>
          Create an account
        </AuthFooterLink>
      }
    >
      {plan ? <ChosenPlanNote plan={plan} next="Log in to go on to checkout." /> : null}
      {inactiveEmail ? (
        <div role="alert" className="mb-4 flex flex-col gap-3 rounded-2xl border border-line bg-accent/10 p-4 text-sm">
          <p>{AUTH_MESSAGES.accountInactive}</p>
          <ResendActivationButton email={inactiveEmail} />
        </div>
      ) : null}
      <AuthForm onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <EmailField id="login-email" {...fieldProps(form, 'email')} />
        <div className="flex flex-col gap-1.5">
          <PasswordField id="login-password" label="Password" {...fieldProps(form, 'password')} />
          <Link to={paths.resetPassword} className={`${linkClass} self-end text-sm`}>
            Forgot password?
          </Link>
        </div>
        <SubmitButton pending={mutation.isPending} pendingLabel="Logging in">
          Log in
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
