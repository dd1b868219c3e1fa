import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PlayerSave, PlayerState, PlayerWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { ApiError, apiRequest, isNetworkFailure, isTimeout, retryAfterMs } from '@web/lib/api-client';
import { describeError, endedTheSession } from '@web/lib/change';
import { newRecordKey } from '@web/lib/pending-records';
import { accountPlayer, answerAtOpening } from '../api/player';
import {
  clampSettings,
  loadPlaylist,
  loadSettings,
  markUnsyncedChange,
  playlistFromServer,
  playlistToServer,
  unsyncedChangeOver,
  type PlayerSettings,
  type PlaylistItem,
} from '../lib/player-storage';

// The playlist and settings follow the account: loaded from the server when the player opens (the
// last save from any device wins), saved a moment after each change. localStorage stays the cache
// the page starts from, so the player works at once and offline. A change made while the account's
// player was loading, or made over what the account still holds and not saved yet (offline, or the page
// left or reloaded within the moment), is saved over it rather than replaced by it
// (docs/product/content.md#kept-with-the-account).

export type SyncState =
  | { status: 'loading' | 'saving' | 'saved' | 'offline' | 'unreachable' | 'server-error' }
  | { status: 'refused'; reason: string };

const SAVE_DELAY_MS = 800;

// A save that failed for a passing reason is tried again by itself while the player is open: 2 s later, the wait
// doubling after each failure in a row up to a minute (or what a Retry-After asks, up to that minute), back to 2 s
// once one lands; the browser's `online` event tries at once (docs/product/content.md#kept-with-the-account).
export const SAVE_RETRY_FIRST_MS = 2000;
export const SAVE_RETRY_MAX_MS = 60_000;
export const saveRetryDelay = (failures: number) =>
  Math.min(SAVE_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), SAVE_RETRY_MAX_MS);
/**
 * A save sent as the page goes must fit fetch's keepalive budget (64 KiB, counted in bytes: a message in Chinese
 * takes three a character); a longer one waits for the next open.
 */
const KEEPALIVE_MAX_BYTES = 60_000;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * This page's saves are numbered in the order they are sent: a save sent as the player or the page is left, while an
 * older one is still on its way, is kept by the server even when that older one lands after it
 * (docs/product/content.md#kept-with-the-account).
 */
const PAGE_ID = newRecordKey();
let lastSaveNumber = 0;
const numbered = (body: PlayerWrite): PlayerSave => ({ ...body, page_id: PAGE_ID, save_number: ++lastSaveNumber });

const toServer = (playlist: readonly PlaylistItem[], settings: PlayerSettings): PlayerWrite => ({
  playlist: playlistToServer(playlist),
  settings,
});

const asJson = ({ playlist, settings }: { playlist: readonly PlaylistItem[]; settings: PlayerSettings }) =>
  JSON.stringify(toServer(playlist, clampSettings(settings)));

const fromServer = (state: PlayerState): { playlist: PlaylistItem[]; settings: PlayerSettings } => ({
  playlist: playlistFromServer(state.playlist),
  settings: clampSettings(state.settings),
});

/**
 * Why a call failed when the reason passes, so that the change is kept and tried again: the browser is offline, the
 * server could not be reached while the browser says it is online, or the server failed or asked to wait (5xx, 408,
 * 429, no answer in time). null for an answer that would only repeat (400, 403, 413): the change is refused.
 */
function savePassingFailure(error: unknown): 'offline' | 'unreachable' | 'server-error' | null {
  if (isNetworkFailure(error)) return navigator.onLine ? 'unreachable' : 'offline';
  if (isTimeout(error) || !(error instanceof ApiError)) return 'server-error';
  return error.status >= 500 || error.status === 408 || error.status === 429 ? 'server-error' : null;
}

/**
 * Whether the account's player replaces what this device shows as the page opens: unless it holds none, or this
 * device holds a change made over that very save that could not be sent (it is saved over it instead).
 */
const opensWith = (server: PlayerState) => server.updated_at !== null && unsyncedChangeOver() !== server.updated_at;

/**
 * What the player shows in its first render: what the account holds when the route's answer is in already (then the
 * account's answer changes nothing and the thousand rows of a full playlist are rendered once), else this device's
 * copy until the answer comes.
 */
export function openingPlayer(queryClient: QueryClient): { playlist: PlaylistItem[]; settings: PlayerSettings } {
  const server = answerAtOpening(queryClient);
  return server && opensWith(server) ? fromServer(server) : { playlist: loadPlaylist(), settings: loadSettings() };
}

/**
 * Loads the account's player once (`apply`) and saves each change; `held` hears the settings the
 * account holds whenever they are known anew (loaded or saved).
 */
export function usePlayerSync(
  playlist: readonly PlaylistItem[],
  settings: PlayerSettings,
  apply: (playlist: PlaylistItem[], settings: PlayerSettings) => void,
  held?: (settings: PlayerSettings) => void,
): SyncState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SyncState>({ status: 'loading' });
  /** What the server holds, as JSON: a change is saved only when it differs. */
  const saved = useRef<string | undefined>(undefined);
  /** The time of the account's player as this device last knew it ("" when it held none). */
  const known = useRef<string | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const applyRef = useRef(apply);
  const heldRef = useRef(held);
  /**
   * What the page started from, and what it shows now: they differ once changed while loading. Written as JSON only
   * when the account's answer comes, not at every render: a full playlist is a hundred kilobytes of it.
   */
  const opened = useRef({ playlist, settings });
  const shown = useRef({ playlist, settings });
  useEffect(() => {
    applyRef.current = apply;
    heldRef.current = held;
    shown.current = { playlist, settings };
  });

  useEffect(() => {
    let left = false;
    accountPlayer(queryClient).then(
      (server) =>
        // A transition: the player's re-render with what the account holds is done in slices, not
        // one long task while the page is still starting.
        startTransition(() => {
          if (left) return;
          if (server.updated_at !== null) {
            const held = fromServer(server);
            saved.current = JSON.stringify(toServer(held.playlist, held.settings));
            const now = asJson(shown.current);
            // Otherwise what is shown differs from saved.current, and is saved once ready.
            const changedHere = !opensWith(server) || now !== asJson(opened.current);
            // Shown already (the page opened with it, or this device held the same): new copies of the same
            // messages would only render every row again.
            if (!changedHere && now !== saved.current) applyRef.current(held.playlist, held.settings);
            heldRef.current?.(held.settings);
          }
          known.current = server.updated_at ?? '';
          if (unsyncedChangeOver() !== null && unsyncedChangeOver() !== known.current) markUnsyncedChange(null);
          setState({ status: 'saved' });
          setReady(true);
        }),
      (error: unknown) => {
        // A session ended meanwhile has said so already, on its way to login.
        if (left || endedTheSession(error)) return;
        const passing = savePassingFailure(error);
        setState(passing ? { status: passing } : { status: 'refused', reason: describeError(error) });
        setReady(true);
      },
    );
    return () => {
      left = true;
    };
  }, [queryClient]);

  /** The newest change not saved yet: waiting for its moment, for the save in flight, or for a retry. */
  const pending = useRef<{ body: PlayerWrite; json: string } | null>(null);
  /** One save at a time: a change made meanwhile waits for its answer, then goes. */
  const inFlight = useRef(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Saves failed in a row for a passing reason: the wait before the next retry doubles with each. */
  const failures = useRef(0);
  const mounted = useRef(true);

  /**
   * Sends the pending change now, unless a save is in flight (its answer sends what was changed meanwhile) or a retry
   * waits (it takes the change at its time).
   */
  const send = useCallback(function send() {
    const change = pending.current;
    if (!change || inFlight.current || retryTimer.current !== undefined || !mounted.current) return;
    pending.current = null;
    inFlight.current = true;
    setState({ status: 'saving' });
    apiRequest<PlayerState>(API.player, { method: 'PUT', body: numbered(change.body) }).then(
      (answer) => {
        inFlight.current = false;
        failures.current = 0;
        saved.current = change.json;
        known.current = answer.updated_at ?? '';
        heldRef.current?.(change.body.settings);
        // A change made while this one was in flight is made over the save that just landed.
        markUnsyncedChange(pending.current ? known.current : null);
        if (!pending.current) return setState({ status: 'saved' });
        if (saveTimer.current === undefined) send();
      },
      (error: unknown) => {
        inFlight.current = false;
        if (endedTheSession(error) || !mounted.current) return;
        const passing = savePassingFailure(error);
        if (!passing) {
          // A change the server refuses is not tried again when the player opens: the account's state opens.
          if (!pending.current) markUnsyncedChange(null);
          setState({ status: 'refused', reason: describeError(error) });
          if (pending.current && saveTimer.current === undefined) send();
          return;
        }
        // Kept, unless a newer change replaced it meanwhile, and tried again a little later each time.
        pending.current ??= change;
        failures.current += 1;
        setState({ status: passing });
        const wait = Math.max(saveRetryDelay(failures.current), Math.min(retryAfterMs(error), SAVE_RETRY_MAX_MS));
        retryTimer.current = setTimeout(() => {
          retryTimer.current = undefined;
          send();
        }, wait);
      },
    );
  }, []);

  useEffect(() => {
    if (!ready) return;
    const body = toServer(playlist, clampSettings(settings));
    const json = JSON.stringify(body);
    if (json === saved.current && !inFlight.current) {
      // Back to what the account holds: nothing is left to save, or to try again.
      pending.current = null;
      if (retryTimer.current !== undefined) {
        clearTimeout(retryTimer.current);
        retryTimer.current = undefined;
        failures.current = 0;
        markUnsyncedChange(null);
        setState({ status: 'saved' });
      }
      return;
    }
    // Marked before it is saved: should the page be reloaded, closed or left within the moment, the next
    // opening saves it over what the account holds instead of replacing it with that older state.
    if (known.current !== undefined) markUnsyncedChange(known.current);
    pending.current = { body, json };
    // A retry that waits takes the newer change with it, at its time: changes do not hurry a failing server.
    if (retryTimer.current !== undefined) return;
    saveTimer.current = setTimeout(() => {
      saveTimer.current = undefined;
      send();
    }, SAVE_DELAY_MS);
    return () => {
      clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
    };
  }, [ready, playlist, settings, send]);

  // Leaving the player (a link) or the page (reload, closing the tab) before the moment is up saves the change
  // at once, so the account and the person's other devices have it; should that fail, the mark above keeps it
  // here. A closing page sends it with keepalive, which takes a small body only.
  useEffect(() => {
    const flush = (keepalive: boolean) => {
      const change = pending.current;
      // A change waiting for a retry, the server having just failed it, is left to the mark and the next opening.
      if (!change || retryTimer.current !== undefined || (keepalive && utf8Bytes(change.json) > KEEPALIVE_MAX_BYTES))
        return;
      pending.current = null;
      // Best effort, so a session ended meanwhile is left to whatever ended it ('throw', not a second expiry).
      apiRequest(API.player, { method: 'PUT', body: numbered(change.body), keepalive, onUnauthorized: 'throw' }).catch(
        () => undefined,
      );
    };
    const onPageHide = () => flush(true);
    window.addEventListener('pagehide', onPageHide);
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.removeEventListener('pagehide', onPageHide);
      flush(false);
      clearTimeout(retryTimer.current);
      retryTimer.current = undefined;
    };
  }, []);

  // Another tab or device may have saved since this page read the account's player: when the page shows again (or
  // its window takes the focus) with no change of its own waiting, what the account holds now replaces what it shows,
  // so a change made here next is made over it rather than saving this page's older playlist over it.
  useEffect(() => {
    if (!ready) return;
    let asking = false;
    let left = false;
    const catchUp = () => {
      if (document.visibilityState !== 'visible' || asking || pending.current || unsyncedChangeOver() !== null) return;
      asking = true;
      const before = asJson(shown.current);
      apiRequest<PlayerState>(API.player)
        .then((server) => {
          if (left || server.updated_at === null || server.updated_at === known.current) return;
          // Changed here while it was asked: that change is saved over it, the later one.
          if (pending.current || unsyncedChangeOver() !== null || asJson(shown.current) !== before) return;
          const held = fromServer(server);
          saved.current = JSON.stringify(toServer(held.playlist, held.settings));
          known.current = server.updated_at;
          applyRef.current(held.playlist, held.settings);
          heldRef.current?.(held.settings);
          setState({ status: 'saved' });
        })
        // Unreachable now: what is shown stays, and the next change is saved as before.
        .catch(() => undefined)
        .finally(() => (asking = false));
    };
    document.addEventListener('visibilitychange', catchUp);
    window.addEventListener('focus', catchUp);
    return () => {
      left = true;
      document.removeEventListener('visibilitychange', catchUp);
      window.removeEventListener('focus', catchUp);
    };
  }, [ready]);

  // Back online: what could not be saved is tried again at once, not at its retry's time.
  useEffect(() => {
    const again = () => {
      if (retryTimer.current === undefined) return;
      clearTimeout(retryTimer.current);
      retryTimer.current = undefined;
      send();
    };
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [send]);

  return state;
}

export function describeSync(state: SyncState): string {
  switch (state.status) {
    case 'loading':
      return 'Loading your playlist…';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return 'Saved to your account';
    case 'offline':
      return 'Offline — changes are kept here and will sync';
    case 'unreachable':
      return 'Could not reach the server — changes are kept here and will be saved once it answers';
    case 'server-error':
      return 'The server could not save just now — changes are kept here and will be saved once it answers';
    case 'refused':
      return `Not saved: ${state.reason}`;
  }
}
