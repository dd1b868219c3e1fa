import { lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, KeyRound, LogOut, Mail, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { PendingEmailChange } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { LazyMount } from '@web/components/lazy-mount';
import { ApiError, THROTTLED_MESSAGE } from '@web/lib/api-client';
import { describeError, failureOver, isNetworkFailure, toastFailure } from '@web/lib/change';
import { formatDateTime } from '@web/lib/dates';
import {
  cancelEmailChange,
  downloadExport,
  EMAIL_CHANGE_KEY,
  emailChangeQuery,
  otherSessionsQuery,
  resendEmailChange,
} from '../api/account';
import { PROFILE_MESSAGES } from '../messages';
import type * as Dialogs from './account-dialogs';

// The dialogs' code (their forms, react-hook-form, their schemas) is fetched on the first open, not with the page.
const lazyDialog = <Name extends keyof typeof Dialogs>(name: Name) =>
  lazy(() => import('./account-dialogs').then((dialogs) => ({ default: dialogs[name] })));
const ChangePasswordDialog = lazyDialog('ChangePasswordDialog');
const ChangeEmailDialog = lazyDialog('ChangeEmailDialog');
const DeleteAccountDialog = lazyDialog('DeleteAccountDialog');
const SignOutOthersDialog = lazyDialog('SignOutOthersDialog');

type Open = 'password' | 'email' | 'sessions' | 'delete' | null;

/** The account's own actions under the profile card (docs/product/screens.md#profile). */
export function AccountSettings({ email }: { email: string }) {
  const [open, setOpen] = useState<Open>(null);
  const [downloading, setDownloading] = useState(false);
  const others = useQuery(otherSessionsQuery()).data;
  const pending = useQuery(emailChangeQuery(email)).data?.pending;
  // A change of address that goes (cancelled here, or elsewhere) takes its buttons with it: the keyboard, if it was
  // there, goes to "Change e-mail" rather than to the page's top (decision 107).
  const changeEmail = useRef<HTMLButtonElement>(null);
  const waited = useRef(Boolean(pending));
  useEffect(() => {
    const focus = document.activeElement;
    if (waited.current && !pending && (focus === document.body || focus === null)) changeEmail.current?.focus();
    waited.current = Boolean(pending);
  }, [pending]);
  const dialog = (which: Exclude<Open, null>) => ({
    open: open === which,
    onOpenChange: (next: boolean) => setOpen(next ? which : null),
  });

  const download = async () => {
    setDownloading(true);
    try {
      await downloadExport();
      failureOver('export');
    } catch (error) {
      // Refused while one's own is on its way, or while the server sends others: its words say which.
      const refused = error instanceof ApiError && (error.status === 429 || error.status === 503);
      toastFailure(
        error,
        isNetworkFailure(error) || refused ? describeError(error) : PROFILE_MESSAGES.exportFailed,
        'export',
      );
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="account-heading" className="rounded-3xl border border-line bg-surface-raised p-6">
      <h2 id="account-heading" className="card-heading">
        Account
      </h2>
      <ul className="mt-2 divide-y divide-line">
        <Row title="Password" text="Change it here; your other devices are signed out.">
          <Button variant="secondary" size="sm" onClick={() => setOpen('password')}>
            <KeyRound aria-hidden className="h-4 w-4" /> Change password
          </Button>
        </Row>
        <Row
          title="E-mail"
          text={<span className="wrap-anywhere">{email}</span>}
          below={pending ? <WaitingEmailChange pending={pending} /> : null}
        >
          <Button ref={changeEmail} variant="secondary" size="sm" onClick={() => setOpen('email')}>
            <Mail aria-hidden className="h-4 w-4" /> Change e-mail
          </Button>
        </Row>
        <Row
          title="Signed in elsewhere"
          text={
            !others
              ? PROFILE_MESSAGES.sessionsUnknown
              : others.count === 0 || !others.latest_sign_in
                ? PROFILE_MESSAGES.sessionsNone
                : PROFILE_MESSAGES.sessionsOthers(others.count, formatDateTime(others.latest_sign_in))
          }
        >
          <Button variant="secondary" size="sm" onClick={() => setOpen('sessions')}>
            <LogOut aria-hidden className="h-4 w-4" /> Sign out everywhere else
          </Button>
        </Row>
        <Row title="Your data" text="Everything we keep about you, as a JSON file.">
          <Button variant="secondary" size="sm" onClick={() => void download()} busy={downloading}>
            <Download aria-hidden className="h-4 w-4" /> {downloading ? 'Preparing…' : 'Download my data'}
          </Button>
        </Row>
        <Row title="Delete account" text="Removes your account and everything in it, for good.">
          <Button variant="danger" size="sm" onClick={() => setOpen('delete')}>
            <Trash2 aria-hidden className="h-4 w-4" /> Delete account
          </Button>
        </Row>
      </ul>
      <LazyMount when={open === 'password'}>
        <ChangePasswordDialog {...dialog('password')} />
      </LazyMount>
      <LazyMount when={open === 'email'}>
        <ChangeEmailDialog currentEmail={email} {...dialog('email')} />
      </LazyMount>
      <LazyMount when={open === 'sessions'}>
        <SignOutOthersDialog {...dialog('sessions')} />
      </LazyMount>
      <LazyMount when={open === 'delete'}>
        <DeleteAccountDialog {...dialog('delete')} />
      </LazyMount>
    </section>
  );
}

function Row({
  title,
  text,
  below,
  children,
}: {
  title: string;
  text: ReactNode;
  /** What belongs to the row under its text and button, across its width. */
  below?: ReactNode;
  children: ReactNode;
}) {
  return (
    <li className="py-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          {/* A heading, so a screen reader's heading keys go from row to row. */}
          <h3 className="font-medium">{title}</h3>
          <p className="text-sm text-fg-muted">{text}</p>
        </div>
        <div className="shrink-0">{children}</div>
      </div>
      {below}
    </li>
  );
}

/**
 * The change of address waiting for its link (docs/product/screens.md#profile): where the link went, a new one
 * sent, or the change taken back, which makes its links refused.
 */
function WaitingEmailChange({ pending }: { pending: PendingEmailChange }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const address = pending.new_email;
  // `of` names the button (a new link, or the change taken back): its failure goes once it works (decision 150).
  const act = async (of: string, call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      failureOver(of);
      toast.success(done);
    } catch (error) {
      const taken = error instanceof ApiError && error.fieldErrors.new_email !== undefined;
      const throttled = error instanceof ApiError && error.status === 429;
      toastFailure(
        error,
        taken ? PROFILE_MESSAGES.emailChangeTaken(address) : throttled ? THROTTLED_MESSAGE : describeError(error),
        of,
      );
    } finally {
      setBusy(false);
      // Whatever happened, show the change as the server has it now (opened or cancelled elsewhere meanwhile).
      void queryClient.invalidateQueries({ queryKey: EMAIL_CHANGE_KEY });
    }
  };
  return (
    <div className="mt-3 rounded-2xl border border-line bg-surface p-4 text-sm">
      <p>
        A confirmation link was sent to{' '}
        <strong dir="auto" className="wrap-anywhere text-fg">
          {address}
        </strong>{' '}
        on {formatDateTime(pending.requested_at)}.
      </p>
      <p className="mt-1 text-fg-muted">{PROFILE_MESSAGES.emailChangePendingNote}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          busy={busy}
          onClick={() =>
            void act('resend e-mail change', resendEmailChange, PROFILE_MESSAGES.emailChangeResent(address))
          }
        >
          Send the link again
        </Button>
        <Button
          variant="secondary"
          size="sm"
          busy={busy}
          onClick={() =>
            void act('cancel e-mail change', cancelEmailChange, PROFILE_MESSAGES.emailChangeCancelled(address))
          }
        >
          Cancel the change
        </Button>
      </div>
    </div>
  );
}
