import { lazy, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download, KeyRound, LogOut, Mail, Trash2 } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { LazyMount } from '@web/components/lazy-mount';
import { describeError, isNetworkFailure, toastFailure } from '@web/lib/change';
import { formatDateTime } from '@web/lib/dates';
import { downloadExport, otherSessionsQuery } from '../api/account';
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
  const dialog = (which: Exclude<Open, null>) => ({
    open: open === which,
    onOpenChange: (next: boolean) => setOpen(next ? which : null),
  });

  const download = async () => {
    setDownloading(true);
    try {
      await downloadExport();
    } catch (error) {
      toastFailure(error, isNetworkFailure(error) ? describeError(error) : PROFILE_MESSAGES.exportFailed);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="account-heading" className="rounded-3xl border border-line bg-surface-raised p-6">
      <h2 id="account-heading" className="text-lg font-semibold">
        Account
      </h2>
      <ul className="mt-2 divide-y divide-line">
        <Row title="Password" text="Change it here; your other devices are signed out.">
          <Button variant="secondary" size="sm" onClick={() => setOpen('password')}>
            <KeyRound aria-hidden className="h-4 w-4" /> Change password
          </Button>
        </Row>
        <Row title="E-mail" text={<span className="wrap-anywhere">{email}</span>}>
          <Button variant="secondary" size="sm" onClick={() => setOpen('email')}>
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
          <Button variant="secondary" size="sm" onClick={() => void download()} disabled={downloading}>
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

function Row({ title, text, children }: { title: string; text: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium">{title}</p>
        <p className="text-sm text-fg-muted">{text}</p>
      </div>
      <div className="shrink-0">{children}</div>
    </li>
  );
}
