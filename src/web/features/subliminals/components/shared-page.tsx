import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Copy, Play } from 'lucide-react';
import { toast } from 'sonner';
import type { SharedItem } from '@shared/contract';
import { findTheme } from '@shared/themes';
import { PlanLock } from '@web/components/plan-lock';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { describeError } from '@web/lib/change';
import { Link } from '@web/lib/link';
import { loginWithRedirect, paths } from '@web/lib/paths';
import { usePlan } from '@web/lib/plan';
import { useSession } from '@web/lib/session';
import { API } from '@shared/contract';
import { copyShared, sharedItemQuery } from '../api/saved-subliminals';
import {
  clampSettings,
  DEFAULT_SETTINGS,
  playlistToServer,
  sessionLook,
  withThemeOfPlan,
  type PlaylistItem,
} from '../lib/player-storage';

/** A long list shows its first messages until asked for all. */
const MESSAGES_SHOWN = 50;

export const SHARED_GONE = 'This link does not work: it was never shared, or its owner stopped sharing it.';

/** What a shared link's messages become in the player: texts with no row of the person's. */
const sharedPlaylist = (messages: readonly string[]): PlaylistItem[] =>
  messages.map((message_text, index) => ({ id: index + 1, message_text, source: 'shared' }));

/** The actions of a signed-in person: play it now (it becomes their player), or keep a copy. */
function SignedInActions({ token, item }: { token: string; item: SharedItem }) {
  const navigate = useNavigate();
  const plan = usePlan();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    try {
      toast.success(await action());
    } catch (error) {
      toast.error(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const play = () =>
    run(async () => {
      const shared = clampSettings(item.kind === 'subliminal' ? item.settings : DEFAULT_SETTINGS);
      // The player follows the account: what it loads next is what the server holds.
      await apiRequest(API.player, {
        method: 'PUT',
        body: {
          playlist: playlistToServer(sharedPlaylist(item.messages)),
          settings: withThemeOfPlan(shared, plan.includes('allThemes')),
        },
      });
      await navigate(paths.subliminals);
      return `${item.name} is in your player.`;
    });
  const copy = () =>
    run(async () => {
      const made = await copyShared(token);
      return made.kind === 'subliminal'
        ? `Saved a copy as ${made.subliminal.name}.`
        : `Added ${made.category.name} to your messages.`;
    });
  const canCopy = plan.includes(item.kind === 'subliminal' ? 'savedSubliminals' : 'ownMessages');
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button disabled={busy} onClick={() => void play()} aria-describedby="play-replaces">
        <Play aria-hidden className="h-4 w-4" /> Play it now
      </Button>
      {canCopy ? (
        <Button variant="secondary" disabled={busy} onClick={() => void copy()}>
          <Copy aria-hidden className="h-4 w-4" /> {item.kind === 'subliminal' ? 'Save a copy' : 'Add to my messages'}
        </Button>
      ) : (
        <PlanLock feature="savedSubliminals" what="Saving subliminals" label="Save a copy" />
      )}
      <p id="play-replaces" className="w-full text-sm text-fg-muted">
        Playing it replaces the playlist and settings in your player.
      </p>
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
        {findTheme(settings.theme)?.name ?? 'Custom'} theme · each message shows for {settings.flashSpeed} ms, one every{' '}
        {settings.displayInterval / 1000} s · {settings.fontSize} px
      </p>
    </div>
  );
}

/** The public page of a share link: anyone sees it; a signed-in person can play or copy it. */
export function SharedPage({ token }: { token: string }) {
  const session = useSession();
  const query = useQuery(sharedItemQuery(token));
  const [showAll, setShowAll] = useState(false);
  if (query.isPending) return <Spinner label="Loading" className="py-24" />;
  if (query.isError) {
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-2xl font-semibold">{gone ? 'Link not found' : 'Something went wrong'}</h1>
        <p role="alert" className="mt-3 text-fg-muted">
          {gone ? SHARED_GONE : describeError(query.error)}
        </p>
        {gone ? null : (
          <Button className="mt-6" variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
        )}
      </div>
    );
  }
  const item = query.data;
  const here = `${window.location.pathname}`;
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-12">
      <header>
        <p className="text-sm font-medium uppercase tracking-wide text-link">
          {item.kind === 'subliminal' ? 'A shared subliminal' : 'A shared set of affirmations'}
        </p>
        <h1 className="mt-1 break-words text-3xl font-semibold">{item.name}</h1>
        <p className="mt-2 text-fg-muted">
          {item.messages.length} {item.messages.length === 1 ? 'message' : 'messages'}, shared on{' '}
          {new Date(item.shared_at).toLocaleDateString(undefined, { dateStyle: 'long' })}
        </p>
      </header>
      {item.kind === 'subliminal' ? <SharedSettings settings={item.settings} /> : null}
      {session.isAuthenticated ? (
        <SignedInActions token={token} item={item} />
      ) : (
        <div className="rounded-3xl border border-line bg-surface-raised p-5">
          <p className="font-medium">Play it with Innerwave</p>
          <p className="mt-1 text-sm text-fg-muted">
            A free account flashes these affirmations on your screen and keeps your own in the cloud.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button asChild>
              <Link to={paths.signup}>Sign up free</Link>
            </Button>
            <Button asChild variant="secondary">
              <Link to={loginWithRedirect(here)}>Log in</Link>
            </Button>
          </div>
        </div>
      )}
      <section aria-labelledby="shared-messages-heading">
        <h2 id="shared-messages-heading" className="text-lg font-semibold">
          Messages
        </h2>
        <ol className="mt-2 divide-y divide-line rounded-3xl border border-line bg-surface-raised px-5">
          {(showAll ? item.messages : item.messages.slice(0, MESSAGES_SHOWN)).map((message, index) => (
            <li key={index} className="break-words py-2.5">
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
    </div>
  );
}
