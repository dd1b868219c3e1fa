import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Copy, Play } from 'lucide-react';
import { toast } from 'sonner';
import type { SharedItem } from '@shared/contract';
import type { PlanFeature } from '@shared/plans';
import { PlanLock } from '@web/components/plan-lock';
import { PlanReadFailed } from '@web/components/plan-read-failed';
import { Button } from '@web/components/ui/button';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { describeError, failureOver, toastFailure } from '@web/lib/change';
import { focusPageHeading } from '@web/lib/page-heading';
import { paths } from '@web/lib/paths';
import { portalVisit } from '@web/lib/portal-presence';
import { usePlan } from '@web/lib/plan';
import { useSession } from '@web/lib/session';
import { API } from '@shared/contract/paths';
import type { SoundEngine } from '@web/lib/audio/sound-engine';
import { appAudioContext } from '@web/lib/audio/app-context';
import { newRecordKey } from '@web/lib/pending-records';
import { copyShared } from '../api/saved-subliminals';
import { readSharedItem, releaseServedShared, servedSharedForPage, useSharedItem } from '../api/shared-item';
import {
  clampSettings,
  DEFAULT_SETTINGS,
  playlistToServer,
  withThemeOfPlan,
  type PlaylistItem,
} from '../lib/player-storage';
import { skippedNote, withheldSkipped } from '../lib/mix-text';
import { MemberSharedSound, SharedSound } from './shared-sound';
import { SHARED_GONE, SharedLoading, SharedProblem, SharedView, VisitorInvitation } from './shared-view';
import { isolated } from '@shared/contract/plain';

export { SHARED_GONE } from './shared-view';

/** The app's sound engine, whose code comes after the page's (decision 020). */
const loadEngine = () => import('@web/lib/audio/app-engine').then((module) => module.soundEngine);

/** What a shared link's messages become in the player: texts with no row of the person's. */
const sharedPlaylist = (messages: readonly string[]): PlaylistItem[] =>
  messages.map((message_text, index) => ({ id: index + 1, message_text, source: 'shared' }));

/** A shared item's copy, by its kind: the feature the server asks of the plan, the button, and the lock's dialog. */
const COPY = {
  subliminal: { feature: 'savedSubliminals', label: 'Save a copy', what: 'Saving subliminals' },
  messages: { feature: 'ownMessages', label: 'Add to my messages', what: 'Adding messages of your own' },
} as const satisfies Record<SharedItem['kind'], { feature: PlanFeature; label: string; what: string }>;

/**
 * The actions of a signed-in person: play it now (it becomes their player), or keep a copy. A copy
 * refused because the link has gone since the page read it says so, and the page reads it again
 * (`onGone`), which then shows that the link is gone, the keyboard on its heading.
 */
function SignedInActions({ token, item, onGone }: { token: string; item: SharedItem; onGone: () => void }) {
  const navigate = useNavigate();
  const plan = usePlan();
  const queryClient = useQueryClient();
  /** The button whose call runs: it waits (busy, the keyboard on it), the other is unavailable meanwhile. */
  const [running, setRunning] = useState<'play' | 'copy' | null>(null);
  /** The key of the copy not yet answered with one made, kept for a press again. */
  const copyKey = useRef<{ token: string; key: string } | null>(null);
  // The engine, for Play to prime inside the press (decision 075). Imported, not with the page (decision
  // 020): a signed-in person's portal layout has most often loaded it already.
  const engine = useRef<SoundEngine | null>(null);
  useEffect(() => {
    void loadEngine().then((loaded) => (engine.current = loaded));
  }, []);
  const run = async (which: 'play' | 'copy', action: () => Promise<string>) => {
    setRunning(which);
    // Pressed again and done, the action takes its earlier failure's toast away (decision 150).
    const of = `shared ${which} ${token}`;
    try {
      const done = await action();
      failureOver(of);
      toast.success(done);
    } catch (error) {
      const gone = error instanceof ApiError && error.status === 404;
      toastFailure(error, gone ? SHARED_GONE : describeError(error), of);
      if (gone) onGone();
    } finally {
      setRunning(null);
    }
  };
  const play = async () => {
    // Primed whatever the page read (the owner may have changed the share since), and released once the sound
    // started or will not: a share without sound, or gone, leaves the audio device asleep (decision 080). A press
    // while the engine's code is still on its way wakes the app's audio context itself, inside the press as
    // Safari asks, and the engine primes it once here (decision 085).
    let release = engine.current?.prime();
    if (!release)
      void appAudioContext()
        .resume()
        .catch(() => undefined);
    // A sign-out, or leaving the portal, while the server answers starts nothing and goes nowhere (decision 085).
    const visit = portalVisit();
    await run('play', async () => {
      release ??= (await loadEngine()).prime();
      // Read again: the page may have been open since the owner stopped sharing (or changed it).
      const current = await readSharedItem(token);
      const shared = clampSettings(current.kind === 'subliminal' ? current.settings : DEFAULT_SETTINGS);
      // The player follows the account: what it loads next is what the server holds.
      await apiRequest(API.player, {
        method: 'PUT',
        body: {
          playlist: playlistToServer(sharedPlaylist(current.messages)),
          // A theme the plan may not have is not sent while it is unknown: the server would refuse the player.
          settings: withThemeOfPlan(shared, plan.has('allThemes') === true),
        },
      });
      // Its sound starts as it was made, less what the plan does not play (named in the toast).
      const skipped = current.kind === 'subliminal' ? withheldSkipped(current) : [];
      if (current.kind === 'subliminal' && current.sound) {
        // The engine's loader comes with the first play, not with the page (decision 020).
        const { startSavedSound } = await import('../lib/saved-sound');
        const started = await startSavedSound(current.sound, {
          plan: plan.plan ?? 'pro',
          messages: current.messages,
          queryClient,
          visit,
        });
        skipped.push(...started.skipped);
      }
      const note = skippedNote(skipped);
      visit.check();
      await navigate(paths.subliminals);
      return `${isolated(current.name)} is in your player.${note ? ` ${note}` : ''}`;
    });
    // The engine's code never came (offline): the context the press woke has nothing to play.
    if (release) release();
    else void appAudioContext().suspend();
  };
  const copy = () =>
    run('copy', async () => {
      // A press whose answer never came (the network dropped, the server failed) is pressed again under its key: the
      // copy the server may have made then is the answer, not a second one. Once a copy is made, a press is a new one
      // (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md).
      if (copyKey.current?.token !== token) copyKey.current = { token, key: newRecordKey() };
      const made = await copyShared(token, copyKey.current.key);
      copyKey.current = null;
      return made.kind === 'subliminal'
        ? `Saved a copy as ${isolated(made.subliminal.name)}.`
        : `Added ${isolated(made.category.name)} to your messages.`;
    });
  // The copy, or its lock, once the plan is read: the server refuses a copy the plan does not hold (decision 124). A
  // message set needs only own messages, every member's, so its copy waits on no read (decision 132).
  const copying = COPY[item.kind];
  const canCopy = plan.has(copying.feature);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        busy={running === 'play'}
        disabled={running === 'copy'}
        onClick={() => void play()}
        aria-describedby="play-replaces"
      >
        <Play aria-hidden className="h-4 w-4" /> Play it now
      </Button>
      {/* Under the line that goes with Play, as the copy's place is taken by a whole box. */}
      <PlanReadFailed
        feature={copying.feature}
        detail={`${copying.label} shows once it is read.`}
        className="order-last w-full"
      >
        {canCopy === undefined ? null : canCopy ? (
          <Button
            variant="secondary"
            busy={running === 'copy'}
            disabled={running === 'play'}
            onClick={() => void copy()}
          >
            <Copy aria-hidden className="h-4 w-4" /> {copying.label}
          </Button>
        ) : (
          <PlanLock feature={copying.feature} what={copying.what} label={copying.label} />
        )}
      </PlanReadFailed>
      <p id="play-replaces" className="w-full text-sm text-fg-muted">
        Playing it replaces the playlist and settings in your player.
      </p>
    </div>
  );
}

/**
 * `retry`, for a control that goes with the page under it (a copy refused because the link has gone, the problem's
 * "Try again"): the page shows its spinner, with no heading, until the read settles, which takes the network's time.
 * Once it has, the keyboard goes to the heading of what the page shows, rather than staying on the page's top where it
 * fell with the control; unless the person has put it somewhere meanwhile (decision 130).
 */
function useRetryKeepingKeyboard({ status, retry }: { status: string; retry: () => void }): () => void {
  const handOver = useRef(false);
  useEffect(() => {
    if (status === 'pending' || !handOver.current) return;
    handOver.current = false;
    if (!document.activeElement || document.activeElement === document.body) focusPageHeading();
  }, [status]);
  return useCallback(() => {
    handOver.current = true;
    retry();
  }, [retry]);
}

/** The public page of a share link: anyone sees it; a signed-in person can play or copy it. */
export function SharedPage({ token }: { token: string }) {
  const session = useSession();
  // The SPA starts on a share link for someone signed in: the server read the link into the document.
  const [served] = useState(servedSharedForPage);
  useEffect(releaseServedShared, []);
  const shared = useSharedItem(token, served);
  const readAgain = useRetryKeepingKeyboard(shared);
  if (shared.status === 'pending') return <SharedLoading />;
  if (shared.status === 'error') return <SharedProblem error={shared.error} onRetry={readAgain} />;
  const item = shared.item;
  return (
    <SharedView
      item={item}
      sound={
        item.kind === 'subliminal' ? (
          session.isAuthenticated ? (
            <MemberSharedSound item={item} />
          ) : (
            <SharedSound item={item} plan={null} />
          )
        ) : null
      }
      actions={
        session.isAuthenticated ? (
          <SignedInActions token={token} item={item} onGone={readAgain} />
        ) : (
          <VisitorInvitation />
        )
      }
    />
  );
}
