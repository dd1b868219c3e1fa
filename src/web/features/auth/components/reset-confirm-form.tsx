import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SHORT_TOAST_MS } from '@web/lib/constants';
import { ApiError } from '@web/lib/api-client';
import { paths } from '@web/lib/paths';
import { checkPasswordResetLink } from '../api/check-password-reset-link';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { AUTH_MESSAGES } from '../messages';
import { resetConfirmFormSchema, type ResetConfirmForm as ResetConfirmValues } from '../schemas';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { PasswordField } from './fields';
import { AuthCard, AuthForm } from './auth-card';
import { ResetRequestForm } from './reset-request-form';
import { Spinner } from '@web/components/ui/spinner';
import { SubmitButton } from '@web/components/ui/submit-button';
import { toastProblem } from '@web/lib/toast-problem';
import { failureOver, toastFailure } from '@web/lib/change';
import { fieldProps, useFocusFirstError } from '@web/lib/form-field';

/** The confirm's failures, by toastFailure: one toast at a time, taken away once it works or the link dies. */
const RESET_CONFIRM = 'reset confirm';

/** What the server says of a reset link's `uid` or `token` when the link no longer works. */
const refusesLink = (error: unknown) =>
  error instanceof ApiError && !!(error.fieldErrors.uid || error.fieldErrors.token);

/**
 * Asks the server whether the link still works as the page opens, so a dead one says so before anyone types
 * (docs/decisions/145-…): meanwhile "Checking your link…", then the form, or the request for a new link. A check
 * that gets no verdict (offline, the server failing, too many attempts) shows the form: the confirm will say.
 */
export function ResetConfirmForm({ uid, token }: { uid: string; token: string }) {
  // 'died': the link died under the form, on its Set new password.
  const [link, setLink] = useState<'checking' | 'live' | 'dead' | 'died'>('checking');
  // One check a page: StrictMode's second effect run asks nothing more.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    checkPasswordResetLink({ uid, token }).then(
      () => setLink('live'),
      (error: unknown) => setLink(refusesLink(error) ? 'dead' : 'live'),
    );
  }, [uid, token]);

  if (link === 'dead' || link === 'died') return <DeadResetLink takesKeyboard={link === 'died'} />;
  if (link === 'checking')
    return (
      <AuthCard title="Choose a new password">
        <div className="flex flex-col items-center gap-3 py-6 text-center">
          <Spinner label="Checking your link" className="[&_svg]:h-10 [&_svg]:w-10" />
          <p aria-hidden className="text-fg-muted">
            Checking your link...
          </p>
        </div>
      </AuthCard>
    );
  return <NewPasswordForm uid={uid} token={token} onLinkDead={() => setLink('died')} />;
}

/**
 * A link that no longer works: why, and the request for a new one in its place. `takesKeyboard` when it replaces the
 * form whose button had the keyboard, which would fall to the page's top: its E-mail field takes it, the notice above
 * read out as it shows (docs/product/screens.md#password-reset).
 */
function DeadResetLink({ takesKeyboard }: { takesKeyboard: boolean }) {
  return (
    <ResetRequestForm
      autoFocus={takesKeyboard}
      notice={
        <p role="alert" className="mb-4 rounded-2xl border border-danger/40 bg-danger/10 p-3 text-sm">
          {/* A login ends a reset link (decisions.md §10), which the mail says too: the likeliest reason named here. */}
          This link is no longer valid: it was used already, it expired, you logged in since it was sent, or it was
          copied incompletely. Enter the e-mail address of your account for a new link.
        </p>
      }
    />
  );
}

function NewPasswordForm({ uid, token, onLinkDead }: { uid: string; token: string; onLinkDead: () => void }) {
  const navigate = useNavigate();
  const form = useForm<ResetConfirmValues>({
    resolver: zodResolver(resetConfirmFormSchema),
    defaultValues: { new_password: '', re_new_password: '' },
    shouldFocusError: false,
  });
  const { formRef, focusFirstError } = useFocusFirstError();
  const mutation = useMutation({
    mutationFn: (values: ResetConfirmValues) => confirmPasswordReset({ uid, token, ...values }),
    onSuccess: () => {
      failureOver(RESET_CONFIRM);
      toast.success(AUTH_MESSAGES.resetSucceeded, { duration: SHORT_TOAST_MS });
      void navigate(paths.login, { replace: true });
    },
    onError: (error) => {
      // The link died since the page checked it (used in another tab, a login meanwhile): the page turns into the
      // request for a new link, whose notice says why; a toast beside it, or an earlier failure's, would say it twice
      // (docs/decisions/150-a-retry-leaves-only-what-is-still-true.md).
      if (refusesLink(error)) {
        failureOver(RESET_CONFIRM);
        return onLinkDead();
      }
      toastFailure(
        error,
        error instanceof TypeError
          ? AUTH_MESSAGES.offline
          : error instanceof ApiError && error.status === 429
            ? AUTH_MESSAGES.throttled
            : AUTH_MESSAGES.resetFailed,
        RESET_CONFIRM,
      );
      showServerFieldErrors(error, ['new_password', 're_new_password'], form.setError, focusFirstError);
    },
  });

  // A mismatch is a toast and nothing is sent; the message also stays under the field.
  const onInvalid = () => {
    focusFirstError();
    if (form.getValues('new_password') && form.getValues('re_new_password')) toastProblem(AUTH_MESSAGES.resetMismatch);
  };

  return (
    <AuthCard title="Choose a new password" intro="Enter your new password twice.">
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
