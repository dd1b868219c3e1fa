import { startTransition, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PlayerState, PlayerWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { describeError, endedTheSession } from '@web/lib/change';
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

export type SyncState = { status: 'loading' | 'saving' | 'saved' | 'offline' } | { status: 'refused'; reason: string };

const SAVE_DELAY_MS = 800;
/**
 * A save sent as the page goes must fit fetch's keepalive budget (64 KiB, counted in bytes: a message in Chinese
 * takes three a character); a longer one waits for the next open.
 */
const KEEPALIVE_MAX_BYTES = 60_000;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

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

/** Unreachable (fetch failed) or failing on its side: the change is kept and tried again. */
const isOffline = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

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
  const [retry, setRetry] = useState(0);
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
        setState(isOffline(error) ? { status: 'offline' } : { status: 'refused', reason: describeError(error) });
        setReady(true);
      },
    );
    return () => {
      left = true;
    };
  }, [queryClient]);

  /** The change waiting for its moment to be saved, if any. */
  const pending = useRef<{ body: PlayerWrite; json: string } | null>(null);

  useEffect(() => {
    if (!ready) return;
    const body = toServer(playlist, clampSettings(settings));
    const json = JSON.stringify(body);
    if (json === saved.current) return void (pending.current = null);
    // Marked before it is saved: should the page be reloaded, closed or left within the moment, the next
    // opening saves it over what the account holds instead of replacing it with that older state.
    if (known.current !== undefined) markUnsyncedChange(known.current);
    pending.current = { body, json };
    const timer = setTimeout(() => {
      pending.current = null;
      setState({ status: 'saving' });
      apiRequest<PlayerState>(API.player, { method: 'PUT', body }).then(
        (answer) => {
          saved.current = json;
          known.current = answer.updated_at ?? '';
          markUnsyncedChange(null);
          heldRef.current?.(body.settings);
          setState({ status: 'saved' });
        },
        (error: unknown) => {
          if (endedTheSession(error)) return;
          const offline = isOffline(error);
          // A change the server refuses is not tried again when the player opens: the account's state opens.
          if (!offline) markUnsyncedChange(null);
          setState(offline ? { status: 'offline' } : { status: 'refused', reason: describeError(error) });
        },
      );
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, playlist, settings, retry]);

  // Leaving the player (a link) or the page (reload, closing the tab) before the moment is up saves the change
  // at once, so the account and the person's other devices have it; should that fail, the mark above keeps it
  // here. A closing page sends it with keepalive, which takes a small body only.
  useEffect(() => {
    const flush = (keepalive: boolean) => {
      const change = pending.current;
      if (!change || (keepalive && utf8Bytes(change.json) > KEEPALIVE_MAX_BYTES)) return;
      pending.current = null;
      // Best effort, so a session ended meanwhile is left to whatever ended it ('throw', not a second expiry).
      apiRequest(API.player, { method: 'PUT', body: change.body, keepalive, onUnauthorized: 'throw' }).catch(
        () => undefined,
      );
    };
    const onPageHide = () => flush(true);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      flush(false);
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

  // Back online: try again what could not be saved.
  useEffect(() => {
    const again = () => setRetry((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, []);

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
    case 'refused':
      return `Not saved: ${state.reason}`;
  }
}
