import { useEffect, useState, type ReactNode } from 'react';
import type { SharedItem } from '@shared/contract';
import { isolated } from '@shared/contract/plain';
import { withUnit } from '@shared/numbers';
import { findTheme } from '@shared/themes';
import { LocalDate } from '@web/components/local-date';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { ApiError, describeError } from '@web/lib/api-client';
import { Link, usePathname } from '@web/lib/link';
import { loginWithRedirect, paths, withRedirect } from '@web/lib/paths';
import { sessionLook } from '../lib/session-look';

// The shared page as anyone sees it, for the SPA's route (shared-page.tsx) and the pre-rendered page
// (app/documents/shared.tsx) alike: no router, query client, contract or toasts, so the pre-rendered
// page starts light (docs/decisions/020-lean-pre-rendered-auth-pages.md).

/** A long list shows its first messages until asked for all. */
const MESSAGES_SHOWN = 50;

export const SHARED_GONE = 'This link does not work: it was never shared, or its owner stopped sharing it.';

/** The tab's title for what a link shares, or for a link that shares nothing; the server fills it in too. */
export const sharedTitle = (heading: string) => `${heading} · Innerwave`;
/** The tab's title for a shared item: its name, a person's text, isolated as a title holds no element to do it. */
export const sharedItemTitle = (name: string) => sharedTitle(isolated(name));
export const SHARED_GONE_HEADING = 'Link not found';

function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * While the link is read: as tall as the screen, so the footer below does not jump when the page
 * arrives (layout shift).
 */
export function SharedLoading() {
  return (
    <div className="flex min-h-dvh justify-center py-24">
      <Spinner waitsForServer label="Loading" />
    </div>
  );
}

/** A revoked or unknown link, or a read that failed (which can be tried again). */
export function SharedProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const gone = error instanceof ApiError && error.status === 404;
  const heading = gone ? SHARED_GONE_HEADING : 'Something went wrong';
  useDocumentTitle(sharedTitle(heading));
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center in-portal:p-0">
      <h1 className="text-2xl font-semibold">{heading}</h1>
      <p role="alert" className="mt-3 text-fg-muted">
        {gone ? SHARED_GONE : describeError(error)}
      </p>
      {gone ? null : (
        <Button className="mt-6" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

/**
 * What a visitor who is not signed in is offered: an account or a login, each coming back here (a
 * sign-up through its activation e-mail: docs/decisions/052-a-sign-up-from-a-share-link-comes-back-to-it.md).
 */
export function VisitorInvitation() {
  const here = usePathname();
  return (
    <div className="rounded-3xl border border-line bg-surface-raised p-5">
      <p className="font-medium">Play it with Innerwave</p>
      <p className="mt-1 text-sm text-fg-muted">
        A free account flashes these affirmations on your screen and keeps your own in the cloud.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button asChild>
          <Link to={withRedirect(paths.signup, here)}>Sign up free</Link>
        </Button>
        <Button asChild variant="secondary">
          <Link to={loginWithRedirect(here)}>Log in</Link>
        </Button>
      </div>
    </div>
  );
}

/** How a shared subliminal plays: its pace and look, in words and a sample. */
function SharedSettings({ settings }: { settings: Extract<SharedItem, { kind: 'subliminal' }>['settings'] }) {
  const look = sessionLook(settings);
  return (
    <div className="flex items-center gap-4">
      <span
        aria-hidden
        className="flex h-14 w-20 shrink-0 items-center justify-center rounded-xl border border-line font-semibold"
        style={{ background: look.background, color: settings.messageColor, fontFamily: look.fontFamily }}
      >
        Aa
      </span>
      <p className="text-sm text-fg-muted">
        {findTheme(settings.theme)?.name ?? 'Custom'} theme · each message shows for{' '}
        {withUnit(settings.flashSpeed, 'ms')}, one every {withUnit(settings.displayInterval / 1000, 's')} ·{' '}
        {withUnit(settings.fontSize, 'px')}
      </p>
    </div>
  );
}

/**
 * The shared item: what it is, its name and date, for a subliminal its look and (`sound`) its sound,
 * then what the viewer can do (`actions`) and its messages. `framed`: its top only, up to its look, as
 * a signed-in visit's portal frame paints it before the app adds the rest below
 * (docs/decisions/023-a-pre-rendered-frame-for-portal-pages.md).
 */
export function SharedView({
  item,
  sound,
  actions,
  framed = false,
}: {
  item: SharedItem;
  sound?: ReactNode;
  actions?: ReactNode;
  framed?: boolean;
}) {
  const [showAll, setShowAll] = useState(false);
  useDocumentTitle(sharedItemTitle(item.name));
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-12 in-portal:p-0">
      <header>
        <p className="text-sm font-semibold uppercase tracking-[0.18em] text-link">
          {item.kind === 'subliminal' ? 'A shared subliminal' : 'A shared set of affirmations'}
        </p>
        <h1 dir="auto" className="mt-1 break-words text-3xl font-semibold">
          {item.name}
        </h1>
        <p className="mt-2 text-fg-muted">
          {item.messages.length} {item.messages.length === 1 ? 'message' : 'messages'}, shared on{' '}
          <LocalDate iso={item.shared_at} options={{ dateStyle: 'long' }} />
        </p>
      </header>
      {item.kind === 'subliminal' ? <SharedSettings settings={item.settings} /> : null}
      {framed ? null : (
        <>
          {sound}
          {actions}
          <section aria-labelledby="shared-messages-heading">
            <h2 id="shared-messages-heading" className="card-heading">
              Messages
            </h2>
            <ol className="mt-2 divide-y divide-line rounded-3xl border border-line bg-surface-raised px-5">
              {(showAll ? item.messages : item.messages.slice(0, MESSAGES_SHOWN)).map((message, index) => (
                <li key={index} dir="auto" className="break-words py-2.5">
                  {message}
                </li>
              ))}
            </ol>
            {!showAll && item.messages.length > MESSAGES_SHOWN ? (
              <Button variant="secondary" className="mt-3" onClick={() => setShowAll(true)}>
                Show all {item.messages.length} messages
              </Button>
            ) : null}
          </section>
        </>
      )}
    </div>
  );
}
