import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { clsx } from 'clsx';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { MessageCategory } from '@shared/contract';
import { PLAYLIST_MAX } from '@shared/contract/portal-plain';
import type { ThemeChoice } from '@shared/themes';
import { AfterFirstPaint } from '@web/components/after-first-paint';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { OfflineWait, useTryAgain } from '@web/components/ui/query-state';
import { useBesideCorner, useBottomChromePart } from '@web/lib/bottom-chrome';
import { floatingSession, useFloatingSession } from '@web/lib/floating-session';
import { usePlan } from '@web/lib/plan';
import { openedCategoryId } from '@web/lib/paths';
import { messageCategoriesQuery } from '../api/message-categories';
import { describeSync, openingPlayer, usePlayerSync } from '../hooks/use-player-sync';
import {
  acceptNotice,
  clampSettings,
  noticeAccepted,
  sameSettings,
  savePlaylist,
  saveSettings,
  type PlayerSettings,
  type PlaylistItem,
  withThemeOfPlan,
} from '../lib/player-storage';
import { CategoryAccordion } from './category-accordion';
import { MyMessagesPanel } from './my-messages-panel';
import { FlashNoticeDialog } from './flash-notice-dialog';
import { FlashOverlay } from './flash-overlay';
import { PlaylistPanel, type AddedRows } from './playlist-panel';
import { SavedSubliminalsPanel } from './saved-subliminals-panel';
import { SettingsPanel } from './settings-panel';
import { SpokenPanel } from './spoken-panel';
import { toastProblem } from '@web/lib/toast-problem';
import { isolated } from '@shared/contract/plain';

export const LOAD_ERROR = 'There was an error loading the Subliminals!';
export const EMPTY_PLAYLIST = 'Please add messages to the playlist before playing.';
/** Said instead of adding past the longest playlist the account keeps, which the server would refuse to save. */
export const playlistFull = (adding: number) =>
  `A playlist holds up to ${PLAYLIST_MAX.toLocaleString('en-US')} messages. Remove some to add ${adding === 1 ? 'this one' : `these ${adding}`}.`;

/**
 * Whether every message of a category is in the playlist, from a set of what the playlist holds: checking each
 * message against each item made a thousand own messages and a full playlist a million comparisons a render.
 */
const playlistHolds = (playlist: readonly PlaylistItem[]) => {
  const held = new Set(playlist.map((item) => `${item.source}:${item.id}`));
  return (category: MessageCategory, source: PlaylistItem['source']) =>
    category.messages.every((message) => held.has(`${source}:${message.id}`));
};

/** Whether `adding` more messages still fit; when not, says so and nothing is added. */
const fits = (playlist: readonly PlaylistItem[], adding: number) => {
  if (playlist.length + adding <= PLAYLIST_MAX) return true;
  toastProblem(playlistFull(adding));
  return false;
};

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The session screen, shown under the portal's layout (lib/floating-session.ts); Stop there ends it.
 * `categories`, the library's, name the session in the practice history.
 */
const sessionScreen = (
  playlist: readonly PlaylistItem[],
  settings: PlayerSettings,
  startButton: RefObject<HTMLButtonElement | null>,
  categories: readonly MessageCategory[] | undefined,
) => (
  <FlashOverlay
    playlist={playlist}
    settings={settings}
    onStop={floatingSession.end}
    returnFocusTo={startButton}
    categories={categories}
  />
);

/**
 * From 1024 px up, the shorter of the two columns follows the page as it scrolls (docs/product/screens.md#subliminals):
 * once its end is on screen it stays there, above the Start/Stop bar, until the longer one ends, rather than leave a
 * tall empty column beside the other. Each column's height and the bar's are kept as variables on the grid itself,
 * not the document, so a change restyles only the player (lib/bottom-chrome.ts says why).
 */
function useColumnsFollow(grid: RefObject<HTMLDivElement | null>, bar: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const node = grid.current;
    const barNode = bar.current;
    if (!node || !barNode || typeof ResizeObserver === 'undefined') return;
    const columns = Array.from(node.querySelectorAll<HTMLElement>(':scope > [data-column]'));
    const observer = new ResizeObserver(() => {
      for (const column of columns) column.style.setProperty('--column-height', `${column.offsetHeight}px`);
      node.style.setProperty('--bar-height', `${barNode.offsetHeight}px`);
    });
    for (const element of [...columns, barNode]) observer.observe(element);
    return () => observer.disconnect();
  }, [grid, bar]);
}

/**
 * A column that follows the page: stuck below the header while it fits on the screen, else with its end kept
 * 0.75 rem above the Start/Stop bar (which sits 0.75 rem above the mini-player).
 */
const FOLLOWING_COLUMN =
  'lg:sticky lg:self-start lg:top-[min(5.5rem,calc(100dvh-var(--column-height,0px)-var(--bar-height,0px)-var(--portal-mini-player,0px)-1.5rem))]';

export function SubliminalsPlayer() {
  const categories = useQuery(messageCategoriesQuery());
  const tryAgain = useTryAgain({
    isPending: categories.isPending,
    error: categories.error,
    onRetry: () => void categories.refetch(),
  });
  // Opened from a recommendation: that category's affirmations are open (docs/product/screens.md#portal-home).
  const openedCategory = openedCategoryId(useSearchParams()[0].get('category'));
  const queryClient = useQueryClient();
  // What the account holds when the route has it already, else this device's copy (usePlayerSync).
  const [opening] = useState(() => openingPlayer(queryClient));
  const [playlist, setPlaylist] = useState<PlaylistItem[]>(opening.playlist);
  const [storedSettings, setSettings] = useState<PlayerSettings>(opening.settings);
  // The session screen lives with the portal's layout, so a session in a corner goes on on other pages
  // (and is still running when the person comes back here).
  const playing = useFloatingSession() !== null;
  const plan = usePlan();
  // A theme the plan does not have gives way to the default (the server would refuse to save it),
  // except the one the account's player holds: after a downgrade it stays, shown, played and saved
  // with the other settings, until another theme is chosen (docs/product/plans.md). Until the plan is known the
  // theme held stays: the picker offers no other of a higher plan meanwhile (decision 132).
  const [keptTheme, setKeptTheme] = useState<ThemeChoice>(() => storedSettings);
  const allThemes = plan.includes('allThemes');
  const settings = useMemo(
    () => withThemeOfPlan(storedSettings, allThemes, keptTheme),
    [storedSettings, allThemes, keptTheme],
  );
  const [asking, setAsking] = useState(false);
  const startButton = useRef<HTMLButtonElement>(null);
  const emptyReason = useId();
  const controlBar = useRef<HTMLDivElement>(null);
  useBesideCorner(controlBar);
  useBottomChromePart('pageBar', controlBar, true);
  const grid = useRef<HTMLDivElement>(null);
  useColumnsFollow(grid, controlBar);
  const sync = usePlayerSync(
    playlist,
    settings,
    (savedPlaylist, savedSettings) => {
      setPlaylist(savedPlaylist);
      setSettings(savedSettings);
    },
    setKeptTheme,
  );

  useEffect(() => savePlaylist(playlist), [playlist]);
  useEffect(() => saveSettings(clampSettings(settings)), [settings]);

  const [again, setAgain] = useState<{ category: MessageCategory; source: PlaylistItem['source'] } | null>(null);
  // The handlers below read the playlist from here, so they stay the same function from one render to the next
  // and a change of the playlist or the settings does not render every row of the own messages or the playlist
  // again (a thousand of each on Pro took seconds on a phone: bench/player.mjs).
  const latestPlaylist = useRef(playlist);
  // When each item came into the playlist: an Undo of "Clear all" puts what it took back among what came since, in
  // the order all came, whichever of two such Undos is pressed first (decision 138).
  const cameIn = useRef({ order: new WeakMap<PlaylistItem, number>(), count: 0 });
  useLayoutEffect(() => {
    latestPlaylist.current = playlist;
    const { order } = cameIn.current;
    for (const item of playlist) if (!order.has(item)) order.set(item, ++cameIn.current.count);
  }, [playlist]);
  const inPlaylist = useMemo(() => playlistHolds(playlist), [playlist]);
  // What was added last, shown in the playlist even where a long one is folded (PlaylistPanel).
  const [added, setAdded] = useState<AddedRows | null>(null);
  const append = useCallback((items: PlaylistItem[]) => {
    setPlaylist((current) => [...current, ...items]);
    if (items[0]) setAdded({ first: items[0], count: items.length });
  }, []);
  const appendCategory = useCallback(
    (category: MessageCategory, source: PlaylistItem['source']) => {
      if (!fits(latestPlaylist.current, category.messages.length)) return;
      append(category.messages.map((message) => ({ ...message, source })));
      toast.success(`Added ${isolated(category.name)} messages to playlist!`);
    },
    [append],
  );
  // A category already in the playlist is added again only when asked (duplicates are allowed).
  const addCategory = useCallback(
    (category: MessageCategory, source: PlaylistItem['source']) =>
      category.messages.length > 0 && playlistHolds(latestPlaylist.current)(category, source)
        ? setAgain({ category, source })
        : appendCategory(category, source),
    [appendCategory],
  );
  const addOwnCategory = useCallback((category: MessageCategory) => addCategory(category, 'own'), [addCategory]);
  const addOwnMessage = useCallback(
    (item: PlaylistItem) => {
      if (!fits(latestPlaylist.current, 1)) return;
      append([item]);
      toast.success('Added to playlist.');
    },
    [append],
  );
  const removeFromPlaylist = useCallback(
    (item: PlaylistItem) =>
      setPlaylist((current) => {
        const index = current.indexOf(item);
        return index < 0 ? current : [...current.slice(0, index), ...current.slice(index + 1)];
      }),
    [],
  );
  const clearPlaylist = useCallback(() => {
    const cleared = latestPlaylist.current;
    setPlaylist([]);
    toast.success('Playlist cleared.', {
      action: {
        label: 'Undo',
        // What was added since stays, as does what another Undo put back: this one adds what it took, when it fits
        // (refused, the toast stays for when there is room).
        onClick: (event) => {
          const now = latestPlaylist.current;
          const held = new Set(now);
          const back = cleared.filter((item) => !held.has(item));
          if (!fits(now, back.length)) return event.preventDefault();
          const { order } = cameIn.current;
          setPlaylist([...now, ...back].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)));
        },
      },
    });
  }, []);
  const spokenMessages = useMemo(() => playlist.map((item) => item.message_text), [playlist]);
  const current = useMemo(() => ({ playlist, settings: clampSettings(settings) }), [playlist, settings]);
  const openSaved = useCallback((savedPlaylist: PlaylistItem[], savedSettings: PlayerSettings) => {
    setPlaylist(savedPlaylist);
    setSettings(savedSettings);
  }, []);

  // What the session screen was given last, so it is not given the same again (as the page's render with the
  // session running followed Start, a second render of the whole screen while it opened). Start always gives it; no
  // effect forgets it, as one of a render before Start may run after it (Start pressed before the page had settled).
  const onScreen = useRef<readonly unknown[] | null>(null);
  const showScreen = (shownPlaylist: readonly PlaylistItem[], shownSettings: PlayerSettings) => {
    onScreen.current = [shownPlaylist, shownSettings, categories.data];
    floatingSession.show(sessionScreen(shownPlaylist, shownSettings, startButton, categories.data));
  };
  // While it runs, the screen follows the playlist and settings changed here; with no message left
  // (Clear all, the last one removed) the session stops, as nothing would flash.
  useEffect(() => {
    if (!playing) return;
    if (playlist.length === 0) floatingSession.end();
    else if (![playlist, settings, categories.data].every((part, i) => part === onScreen.current?.[i]))
      showScreen(playlist, settings);
  });

  const empty = playlist.length === 0;
  const start = () => {
    // Unavailable, and says why beside it (docs/decisions/058-start-says-why-it-is-unavailable.md).
    if (empty) return;
    const clamped = clampSettings(settings);
    // Snapped to their steps only when a number typed is still in its field: settings set again unchanged rendered
    // the settings, and wrote them to this device, again as the session opened.
    const changed = !sameSettings(clamped, storedSettings);
    if (changed) setSettings(clamped);
    if (!noticeAccepted() || prefersReducedMotion()) setAsking(true);
    else showScreen(playlist, changed ? clamped : settings);
  };

  return (
    <div className="flex flex-col gap-6">
      {/* The two columns have a grid of their own, so the one that follows the page ends where the other does, above the bar. */}
      <div ref={grid} className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <section
          data-column
          aria-labelledby="categories-heading"
          className={clsx('flex flex-col gap-3', FOLLOWING_COLUMN)}
        >
          <h2 id="categories-heading" className="card-heading">
            Categories
          </h2>
          {tryAgain.error ? (
            // Pressed offline, Try again waits: said as the lists say it, muted with the Wi-Fi-off icon, not in the
            // red of the spec's error (decision 136).
            <div
              role="alert"
              className={clsx(
                'flex flex-wrap items-center gap-3 rounded-2xl border p-4',
                tryAgain.offline ? 'border-line' : 'border-danger text-danger',
              )}
            >
              {tryAgain.offline ? (
                <OfflineWait className="flex flex-1 items-center gap-3" iconClassName="h-5 w-5" />
              ) : (
                <p className="flex-1">{LOAD_ERROR}</p>
              )}
              <Button variant="secondary" size="sm" {...tryAgain.button}>
                Try again
              </Button>
            </div>
          ) : !categories.isSuccess ? (
            // About the height of the library's categories, so what is under them does not jump when they arrive
            // (CLS, issue 20).
            <div className="flex min-h-[36rem] justify-center">
              <Spinner waitsForServer label="Loading categories" className="h-fit py-10" />
            </div>
          ) : (
            <CategoryAccordion
              categories={categories.data}
              opened={openedCategory}
              isAdded={(category) => inPlaylist(category, 'library')}
              onAdd={(category) => addCategory(category, 'library')}
            />
          )}
          <div className="mt-3">
            <MyMessagesPanel
              isAdded={(category) => inPlaylist(category, 'own')}
              onAdd={addOwnCategory}
              onAddMessage={addOwnMessage}
            />
          </div>
        </section>
        <div data-column className={clsx('flex flex-col gap-6', FOLLOWING_COLUMN)}>
          {/* Under the categories on a phone, beside them on a wide screen: rendered once they are painted. */}
          <AfterFirstPaint>
            <PlaylistPanel playlist={playlist} added={added} onRemove={removeFromPlaylist} onClear={clearPlaylist} />
            {/* The picker offers, or locks, the themes once the plan is read (decision 132). */}
            <SettingsPanel settings={settings} allThemes={plan.has('allThemes')} onChange={setSettings} />
            <SpokenPanel messages={spokenMessages} />
            <SavedSubliminalsPanel current={current} onOpen={openSaved} />
          </AfterFirstPaint>
        </div>
      </div>
      {/* The primary controls stay in view however long the page grows (at the bottom of the screen, above
          the mini-player and a session in its corner: lib/bottom-chrome.ts); slim from 640 px up, where the
          three stack at the screen's bottom, and from 1024 px beside the corner instead of above it
          (docs/product/screens.md#session-screen). */}
      <div
        ref={controlBar}
        className="sticky bottom-[calc(var(--portal-bottom-chrome,0px)+0.75rem)] z-10 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-3xl border border-line bg-surface-raised/95 p-3 shadow-lg backdrop-blur sm:gap-y-2 sm:p-2 lg:bottom-[calc(var(--portal-mini-player,0px)+0.75rem)] lg:mr-[var(--portal-beside-corner,0px)]"
      >
        <div className="flex gap-2">
          <Button
            ref={startButton}
            size="lg"
            className="sm:min-h-10"
            onClick={start}
            disabled={playing}
            aria-disabled={empty || undefined}
            aria-describedby={empty ? emptyReason : undefined}
          >
            <Play aria-hidden className="h-5 w-5" /> Start
          </Button>
          <Button
            size="lg"
            variant="secondary"
            className="sm:min-h-10"
            onClick={floatingSession.end}
            disabled={!playing}
          >
            Stop
          </Button>
        </div>
        {/* Small on a phone, where the two lines share one row under the buttons. */}
        {empty ? (
          <p id={emptyReason} className="text-xs sm:text-sm">
            {EMPTY_PLAYLIST}
          </p>
        ) : (
          <p className="text-xs sm:text-sm">
            {playlist.length} {playlist.length === 1 ? 'message' : 'messages'} in the playlist
          </p>
        )}
        <p
          role="status"
          className={clsx('text-xs sm:text-sm', sync.status === 'refused' ? 'text-danger' : 'text-fg-muted')}
        >
          {describeSync(sync)}
        </p>
      </div>
      <FlashNoticeDialog
        open={asking}
        reducedMotion={asking && prefersReducedMotion()}
        onCancel={() => setAsking(false)}
        onAccept={() => {
          acceptNotice();
          setAsking(false);
          showScreen(playlist, settings);
        }}
      />
      <Dialog open={again !== null} onOpenChange={(open) => !open && setAgain(null)}>
        {again ? (
          <DialogContent
            title={
              <>
                Add <bdi>{again.category.name}</bdi> again?
              </>
            }
            description={`Its ${again.category.messages.length} messages are in the playlist already; adding them again shows each one twice as often.`}
          >
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button
                onClick={() => {
                  appendCategory(again.category, again.source);
                  setAgain(null);
                }}
              >
                Add again
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}
