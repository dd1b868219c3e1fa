import { useEffect, useRef, type ReactNode } from 'react';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { subscriptionLive } from '@shared/contract/plain';
import { Unbroken } from '@web/components/ui/unbroken';
import { Button } from '@web/components/ui/button';
import { SubmitButton } from '@web/components/ui/submit-button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/input';
import { PasswordField } from '@web/components/ui/password-field';
import { ApiError, THROTTLED_MESSAGE } from '@web/lib/api-client';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { dropDraftsOf } from '@web/lib/form-draft';
import { paths } from '@web/lib/paths';
import { pendingRecords } from '@web/lib/pending-records';
import { showServerFieldErrors } from '@web/lib/server-field-errors';
import { usePlan } from '@web/lib/plan';
import { sessionStore } from '@web/lib/session';
import {
  changePassword,
  deleteAccount,
  EMAIL_CHANGE_KEY,
  otherSessionsQuery,
  requestEmailChange,
  signOutOthers,
} from '../api/account';
import { PROFILE_MESSAGES as M } from '../messages';
import { fieldProps, useFocusFirstError } from '@web/lib/form-field';

// The profile's account dialogs: each asks for the current password, shows the server's field errors
// under its fields, and closes only when the change is done (docs/product/screens.md#profile).

const current = z.string().min(1, { error: M.currentPasswordMissing });

/** A dialog around a form: closing it (Cancel, Escape, ×) discards what was typed. */
function FormDialog<T extends FieldValues>({
  title,
  description,
  form,
  open,
  onOpenChange,
  onSubmit,
  submitLabel,
  pendingLabel,
  danger = false,
  children,
}: {
  title: string;
  description: ReactNode;
  form: UseFormReturn<T>;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Sends the values; the server's field errors it shows go to `focusFirstError` (reportFailure). */
  onSubmit(values: T, focusFirstError: () => void): Promise<unknown>;
  submitLabel: string;
  /** What a screen reader hears while the request runs, in the dialog's own words ("Changing your password"). */
  pendingLabel: string;
  danger?: boolean;
  children: ReactNode;
}) {
  const busy = form.formState.isSubmitting;
  const { formRef, focusFirstError } = useFocusFirstError();
  const setOpen = (next: boolean) => {
    if (busy) return;
    if (!next) form.reset();
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent title={title} description={description}>
        <form
          ref={formRef}
          noValidate
          onSubmit={form.handleSubmit((values) => onSubmit(values, focusFirstError), focusFirstError)}
          className="flex flex-col gap-4"
        >
          {children}
          {/* A label is never broken: on a phone a button that does not fit beside Cancel goes below it,
              and each takes its line's width. */}
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <Button
              type="button"
              variant="secondary"
              onClick={() => setOpen(false)}
              busy={busy}
              className="grow whitespace-nowrap sm:grow-0"
            >
              Cancel
            </Button>
            <SubmitButton
              pending={busy}
              pendingLabel={pendingLabel}
              variant={danger ? 'danger' : 'primary'}
              className="grow whitespace-nowrap sm:grow-0"
            >
              {submitLabel}
            </SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Field errors under the fields; anything else (offline, throttled, a server error) as a toast. Too many
 * attempts say so as login does, not in the server's words, which count seconds. `of` names the dialog's submit:
 * its newer failure replaces the older toast, and one said under a field takes it away (decision 150).
 */
function reportFailure<T extends FieldValues>(
  of: string,
  form: UseFormReturn<T>,
  fields: ReadonlyArray<Path<T>>,
  error: unknown,
  focusFirstError: () => void,
) {
  const shown = showServerFieldErrors(error, fields, form.setError, focusFirstError);
  const nonField = error instanceof ApiError ? error.fieldErrors.non_field_errors : undefined;
  const last = fields.at(-1);
  if (nonField && last) {
    form.setError(last, { type: 'server', message: nonField });
    focusFirstError();
  }
  if (shown || nonField) return failureOver(of);
  toastFailure(error, error instanceof ApiError && error.status === 429 ? THROTTLED_MESSAGE : describeError(error), of);
}

const passwordSchema = z
  .object({
    current_password: current,
    new_password: z.string().min(1, { error: M.newPasswordMissing }),
    re_new_password: z.string().min(1, { error: M.confirmNewPasswordMissing }),
  })
  .refine((form) => form.new_password === form.re_new_password, {
    path: ['re_new_password'],
    error: M.passwordMismatch,
  });
type PasswordValues = z.infer<typeof passwordSchema>;
const PASSWORD_FIELDS = ['current_password', 'new_password', 're_new_password'] as const;

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const form = useForm<PasswordValues>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { current_password: '', new_password: '', re_new_password: '' },
    shouldFocusError: false,
  });
  const submit = async (values: PasswordValues, focusFirstError: () => void) => {
    let ended: number | null;
    try {
      ended = await changePassword(values);
    } catch (error) {
      reportFailure('change password', form, PASSWORD_FIELDS, error, focusFirstError);
      return;
    }
    failureOver('change password');
    toast.success(M.passwordChanged(ended));
    form.reset();
    onOpenChange(false);
  };
  return (
    <FormDialog
      title="Change password"
      description="You stay signed in here; your other devices are signed out."
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={submit}
      submitLabel="Change password"
      pendingLabel="Changing your password"
    >
      <PasswordField id="current-password" label="Current password" {...fieldProps(form, 'current_password')} />
      <PasswordField id="new-password" label="New password" isNew showRules {...fieldProps(form, 'new_password')} />
      <PasswordField id="re-new-password" label="Confirm new password" isNew {...fieldProps(form, 're_new_password')} />
    </FormDialog>
  );
}

const emailSchema = z.object({
  new_email: z
    .string()
    .trim()
    .min(1, { error: M.emailMissing })
    .pipe(z.email({ error: 'Enter a valid email address.' })),
  current_password: current,
});
type EmailValues = z.infer<typeof emailSchema>;

export function ChangeEmailDialog({
  currentEmail,
  open,
  onOpenChange,
}: {
  currentEmail: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<EmailValues>({
    resolver: zodResolver(emailSchema),
    defaultValues: { new_email: '', current_password: '' },
    shouldFocusError: false,
  });
  const submit = async (values: EmailValues, focusFirstError: () => void) => {
    try {
      await requestEmailChange(values);
    } catch (error) {
      reportFailure('change e-mail', form, ['new_email', 'current_password'], error, focusFirstError);
      return;
    }
    failureOver('change e-mail');
    toast.success(M.emailChangeSent);
    // The profile shows it waiting, in place of any change asked for before, with where the link went.
    void queryClient.invalidateQueries({ queryKey: EMAIL_CHANGE_KEY });
    form.reset();
    onOpenChange(false);
  };
  return (
    <FormDialog
      title="Change e-mail"
      description={
        <>
          Now{' '}
          <Unbroken>
            <strong className="text-fg">{currentEmail}</strong>.
          </Unbroken>{' '}
          We send a link to the new address; it becomes yours when you open it.
        </>
      }
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={submit}
      submitLabel="Send the link"
      pendingLabel="Sending the link"
    >
      <Field id="new-email" label="New e-mail" type="email" autoComplete="email" {...fieldProps(form, 'new_email')} />
      <PasswordField id="email-current-password" label="Current password" {...fieldProps(form, 'current_password')} />
    </FormDialog>
  );
}

const signOutOthersSchema = z.object({ current_password: current });
type SignOutOthersValues = z.infer<typeof signOutOthersSchema>;

/** Ends every other session of the person after their password; this one stays (docs/product/accounts.md). */
export function SignOutOthersDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const queryClient = useQueryClient();
  const form = useForm<SignOutOthersValues>({
    resolver: zodResolver(signOutOthersSchema),
    defaultValues: { current_password: '' },
    shouldFocusError: false,
  });
  const submit = async (values: SignOutOthersValues, focusFirstError: () => void) => {
    let ended: number;
    try {
      ({ ended } = await signOutOthers(values));
    } catch (error) {
      reportFailure('sign out others', form, ['current_password'], error, focusFirstError);
      return;
    }
    failureOver('sign out others');
    toast.success(M.signedOutOthers(ended));
    void queryClient.invalidateQueries({ queryKey: otherSessionsQuery().queryKey });
    form.reset();
    onOpenChange(false);
  };
  return (
    <FormDialog
      title="Sign out everywhere else?"
      description={
        <div className="flex flex-col gap-2">
          <p>{M.signOutOthersIntro}</p>
          <p>{M.signOutOthersHint}</p>
        </div>
      }
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={submit}
      submitLabel="Sign out everywhere else"
      pendingLabel="Signing out your other devices"
    >
      <PasswordField
        id="sessions-current-password"
        label="Current password"
        {...fieldProps(form, 'current_password')}
      />
    </FormDialog>
  );
}

/**
 * What deleting takes, at a glance (docs/product/screens.md#profile); a live paid subscription, which
 * the server cancels at Stripe first, is named only when there is one.
 */
function DeleteLosses() {
  const { billing } = usePlan().state ?? {};
  const subscribed = billing?.configured === true && subscriptionLive(billing.status);
  return (
    <div className="flex flex-col gap-2">
      <p>{M.deleteIntro}</p>
      <ul className="list-disc pl-5">
        {M.deleteLosses.map((loss) => (
          <li key={loss}>{loss}</li>
        ))}
      </ul>
      {subscribed ? <p className="font-semibold text-fg">{M.deleteSubscription}</p> : null}
      <p>{M.deleteFinal}</p>
    </div>
  );
}

const deleteSchema = z.object({ current_password: current });
type DeleteValues = z.infer<typeof deleteSchema>;

export function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<DeleteValues>({
    resolver: zodResolver(deleteSchema),
    defaultValues: { current_password: '' },
    shouldFocusError: false,
  });
  // Signed out once this page has gone: cleared earlier, the route guard would still see /profile and
  // send the person to login instead of home. The session ended is the one the deletion was asked in: another
  // tab may have signed someone else in while it was on its way.
  const deleted = useRef<{ id: number | null; refresh: string | null } | null>(null);
  useEffect(
    () => () => {
      if (!deleted.current) return;
      const { id, refresh } = deleted.current;
      // Sessions of theirs this browser could not record yet have no history to go to now, nor drafts a form.
      if (id !== null) {
        pendingRecords.forget(id);
        dropDraftsOf(id, 'account-deleted');
      }
      if (sessionStore.end(refresh)) queryClient.clear();
    },
    [queryClient],
  );
  const submit = async (values: DeleteValues, focusFirstError: () => void) => {
    const { id, refresh } = sessionStore.get();
    try {
      await deleteAccount(values);
    } catch (error) {
      reportFailure('delete account', form, ['current_password'], error, focusFirstError);
      return;
    }
    deleted.current = { id, refresh };
    failureOver('delete account');
    toast.success(M.accountDeleted);
    await navigate(paths.home, { replace: true });
  };
  return (
    <FormDialog
      title="Delete your account?"
      description={<DeleteLosses />}
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={submit}
      submitLabel="Delete my account"
      pendingLabel="Deleting your account"
      danger
    >
      <PasswordField
        id="delete-current-password"
        label="Current password"
        error={form.formState.errors.current_password?.message}
        {...form.register('current_password')}
      />
    </FormDialog>
  );
}
