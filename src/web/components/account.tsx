import { UnbrokenAddress } from './ui/unbroken';
import { clsx } from 'clsx';
import { describeAccount, type Account } from '@web/lib/describe-account';
import { useSession } from '@web/lib/session';
import { useHydrated } from '@web/lib/use-hydrated';

/** The signed-in person, or null for a visitor (and during hydration of the pre-rendered home page). */
export function useSignedInAccount(): Account | null {
  const session = useSession();
  const hydrated = useHydrated();
  if (!hydrated || !session.isAuthenticated) return null;
  return describeAccount(session.user, session.email);
}

/**
 * The signed-in person, null for a visitor, or undefined in a pre-rendered page's HTML and during its
 * hydration, which cannot know who looks. Such a page renders both versions, the one for a signed-in
 * visit with `SHOWN_SIGNED_IN` and the other with `SHOWN_SIGNED_OUT`: CSS shows the one the head's
 * script marked the visit as before the first paint, so nothing changes when the page hydrates.
 */
export function useViewer(): Account | null | undefined {
  const hydrated = useHydrated();
  const account = useSignedInAccount();
  return hydrated ? account : undefined;
}
export const SHOWN_SIGNED_IN = 'signed-out:hidden';
export const SHOWN_SIGNED_OUT = 'signed-in:hidden';

/** Someone signed in whom a pre-rendered page does not know yet: their badge, without its initials. */
export const UNKNOWN_ACCOUNT: Account = { name: '', email: '', initials: '' };

/**
 * A round badge with the person's initials; decorative, the name is always written beside it. The
 * initials are drawn by CSS, not text, so a button's visible text stays exactly its name's start
 * (WCAG 2.5.3: tools read even hidden text as part of what a button shows).
 */
export function AccountAvatar({ account, className }: { account: Account; className?: string }) {
  return (
    <span
      aria-hidden
      data-initials={account.initials}
      className={clsx(
        'inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-indigo-700 to-teal-700 text-xs font-semibold text-white before:content-[attr(data-initials)]',
        className,
      )}
    />
  );
}

/** Avatar, name and e-mail, for the places that tell a signed-in person who they are signed in as. */
export function AccountSummary({ account }: { account: Account }) {
  // Without a name of their own, the e-mail stands in its place (describe-account.ts).
  const hasName = account.name !== account.email;
  return (
    <div className="flex min-w-0 items-center gap-3">
      <AccountAvatar account={account} className="h-10 w-10 text-sm" />
      <div className="min-w-0">
        {/* The e-mail whole, wrapping, as a phone has no hover (docs/decisions/079-a-phone-shows-the-whole-text.md);
            a name (up to 300 characters) at most two lines, whole on hover and on the profile. */}
        <p
          dir="auto"
          className={clsx('font-medium text-fg wrap-anywhere', hasName && 'line-clamp-2')}
          title={hasName ? account.name : undefined}
        >
          {hasName ? account.name : <UnbrokenAddress email={account.email} />}
        </p>
        {hasName ? (
          <p className="text-sm text-fg-muted">
            <UnbrokenAddress email={account.email} />
          </p>
        ) : null}
      </div>
    </div>
  );
}
