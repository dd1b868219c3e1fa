import { UnbrokenAddress } from '@web/components/ui/unbroken';
import { lazy, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Pencil, UserRound, WifiOff } from 'lucide-react';
import type { SubscriptionPlan } from '@shared/constants';
import { PLAN_NAMES } from '@shared/plans';
import type { Profile } from '@shared/contract';
import { Button } from '@web/components/ui/button';
import { LazyMount } from '@web/components/lazy-mount';
import { OFFLINE_WAIT_MESSAGE, Spinner } from '@web/components/ui/spinner';
import { ConfirmDelete } from '@web/components/ui/confirm-delete';
import { useTryAgain } from '@web/components/ui/query-state';
import { useChange } from '@web/lib/change';
import { SESSION } from '@web/lib/session-keys';
import { sessionStore } from '@web/lib/session';
import { removeProfileImage } from '../api/account';
import { announceProfileSaved, profileQuery } from '../api/profile';
import { PROFILE_MESSAGES } from '../messages';
import { AccountSettings } from './account-settings';
import { BillingPanel } from './billing-panel';

// The dialogs' code (their forms, react-hook-form, their schemas) is fetched on the first open, not with the page.
const EditProfileDialog = lazy(() =>
  import('./edit-profile-dialog').then(({ EditProfileDialog }) => ({ default: EditProfileDialog })),
);

export const PROFILE_LOAD_ERROR = 'There was an error fetching your profile data!';
/** The panel's heading when the read failed (the spec's "Error Occured!", spelt right), and while it waits offline. */
export const PROFILE_ERROR_HEADING = 'Error Occurred!';
export const PROFILE_OFFLINE_HEADING = 'Waiting for the connection';

/** All three plans are recognised; anything else is shown as the basic plan. */
function shownPlanName(plan: string): string {
  return PLAN_NAMES[plan as SubscriptionPlan] ?? PLAN_NAMES.basic;
}

/**
 * Another tab that saves names or confirms a new address writes the session's user (sessionStore.setUser), and one
 * that saves or removes a picture announces it (announceProfileSaved): the profile here is read again at once, so
 * its card and an open Edit profile dialog follow, where they kept the old values until a reload. The storage event
 * comes only from other tabs; this tab's own save reloads it already.
 */
function useFollowOtherTabs() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === SESSION.storageKeys.user || event.key === SESSION.storageKeys.profileSaved)
        void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [queryClient]);
}

/**
 * The bar's badge and menu name the person from the session's user: a profile read anew with other names or
 * another address (changed on another device) renames them too, and, through the storage event, other tabs.
 */
function useSessionFollowsProfile(profile: Profile | undefined) {
  useEffect(() => {
    const user = sessionStore.get().user;
    if (!profile || !user) return;
    const { first_name, last_name, user_email: email } = profile;
    if (user.first_name !== first_name || user.last_name !== last_name || user.email !== email)
      sessionStore.setUser({ ...user, first_name, last_name, email });
  }, [profile]);
}

export function ProfileView() {
  const profile = useQuery(profileQuery());
  useFollowOtherTabs();
  useSessionFollowsProfile(profile.data);
  const [editing, setEditing] = useState(false);
  const tryAgain = useTryAgain({
    isPending: profile.isPending,
    error: profile.error,
    onRetry: () => void profile.refetch(),
  });

  if (tryAgain.error) {
    // The spec's "Error Occurred!" heads a read that failed. A Try again waiting offline is no error: a heading saying
    // one stood over "This loads by itself", so it says what it waits for, as a list does with its Wi-Fi-off icon
    // (docs/decisions/133-an-undo-keeps-to-the-limits-an-old-name-updates-offline-reads-as-waiting.md).
    const { offline } = tryAgain;
    return (
      <div
        role="alert"
        className={clsx('rounded-3xl border bg-surface-raised p-6', offline ? 'border-line' : 'border-danger')}
      >
        <h2 className={clsx('flex items-center gap-2 card-heading', !offline && 'text-danger')}>
          {offline ? <WifiOff aria-hidden className="h-5 w-5 shrink-0 text-fg-muted" /> : null}
          {offline ? PROFILE_OFFLINE_HEADING : PROFILE_ERROR_HEADING}
        </h2>
        <p className="mt-2 text-fg-muted">
          {offline ? OFFLINE_WAIT_MESSAGE : `${PROFILE_LOAD_ERROR} Please try again in a moment.`}
        </p>
        {/* Read again in place, as the other pages' lists do: a reload would stop the sound and lose the page. */}
        <Button className="mt-4" variant="secondary" {...tryAgain.button}>
          Try again
        </Button>
      </div>
    );
  }
  if (!profile.isSuccess) return <Spinner waitsForServer label="Loading your profile" className="py-16" />;
  return (
    <>
      <ProfileCard profile={profile.data} onEdit={() => setEditing(true)} />
      <LazyMount when={editing}>
        <EditProfileDialog profile={profile.data} open={editing} onOpenChange={setEditing} />
      </LazyMount>
      <BillingPanel />
      <AccountSettings email={profile.data.user_email} />
    </>
  );
}

function ProfileCard({ profile, onEdit }: { profile: Profile; onEdit(): void }) {
  const name = `${profile.first_name} ${profile.last_name}`.trim();
  const change = useChange(profileQuery().queryKey);
  const edit = useRef<HTMLButtonElement>(null);
  return (
    <section
      aria-labelledby="profile-heading"
      className="flex flex-col gap-6 rounded-3xl border border-line bg-surface-raised p-6 sm:flex-row sm:items-center"
    >
      {/* Heard, not seen: the card's name and picture say what it is; a screen reader's heading keys reach it too. */}
      <h2 id="profile-heading" className="sr-only">
        Your details
      </h2>
      {profile.profile_image ? (
        <div className="relative h-24 w-24 shrink-0">
          <img
            src={profile.profile_image}
            alt="Your profile image"
            className="h-24 w-24 rounded-full object-cover ring-2 ring-accent/60"
          />
          <div className="absolute -right-2 -bottom-2 rounded-full border border-line bg-surface-raised shadow-sm">
            <ConfirmDelete
              label="Remove profile image"
              title="Remove your profile image?"
              description="The picture is deleted; a plain placeholder shows instead. You can choose a new one at any time."
              onConfirm={() =>
                change(removeProfileImage, PROFILE_MESSAGES.imageRemoved, { key: 'remove image' }).then(
                  announceProfileSaved,
                )
              }
              // No neighbour takes its place: the keyboard goes where a new picture is chosen.
              keyboardAfter={() => edit.current}
            />
          </div>
        </div>
      ) : (
        <span className="flex h-24 w-24 items-center justify-center rounded-full bg-black/5 dark:bg-white/10">
          <UserRound aria-hidden className="h-10 w-10 text-fg-muted" />
        </span>
      )}
      {/* A name may be 2 × 150 characters without a space: it wraps anywhere, within the card. Side by side, the
          columns take what their texts need before sharing the rest, so a short name leaves an address its room and
          it breaks only when the card cannot hold it whole (docs/product/screens.md#profile). */}
      <dl className="grid min-w-0 flex-1 gap-3 sm:grid-cols-[repeat(2,auto)]">
        <div>
          <dt className="text-sm text-fg-muted">Name</dt>
          <dd dir="auto" className="font-medium wrap-anywhere" data-testid="profile-name">
            {name || 'Not set yet'}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-fg-muted">E-mail</dt>
          <dd className="font-medium">
            <UnbrokenAddress email={profile.user_email} />
          </dd>
        </div>
        <div>
          <dt className="text-sm text-fg-muted">Plan</dt>
          <dd>
            <span className="inline-flex rounded-full bg-accent/15 px-3 py-1 text-sm font-medium text-fg">
              {shownPlanName(profile.subscription_plan)}
            </span>
          </dd>
        </div>
      </dl>
      <Button ref={edit} variant="secondary" onClick={onEdit} className="self-start sm:self-center">
        <Pencil aria-hidden className="h-4 w-4" /> Edit profile
      </Button>
    </section>
  );
}
