import { startTransition, useEffect, useRef, useState } from 'react';
import type { PlayerState, PlayerWrite } from '@shared/contract';
import { API } from '@shared/contract/paths';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { describeError, endedTheSession } from '@web/lib/change';
import {
  clampSettings,
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
// player was loading, or made offline over what the account still holds, is saved over it rather than
// replaced by it (docs/product/content.md#kept-with-the-account).

export type SyncState = { status: 'loading' | 'saving' | 'saved' | 'offline' } | { status: 'refused'; reason: string };

const SAVE_DELAY_MS = 800;

const toServer = (playlist: readonly PlaylistItem[], settings: PlayerSettings): PlayerWrite => ({
  playlist: playlistToServer(playlist),
  settings,
});

const fromServer = (state: PlayerState): { playlist: PlaylistItem[]; settings: PlayerSettings } => ({
  playlist: playlistFromServer(state.playlist),
  settings: clampSettings(state.settings),
});

/** Unreachable (fetch failed) or failing on its side: the change is kept and tried again. */
const isOffline = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

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
  const [state, setState] = useState<SyncState>({ status: 'loading' });
  /** What the server holds, as JSON: a change is saved only when it differs. */
  const saved = useRef<string | undefined>(undefined);
  /** The time of the account's player as this device last knew it ("" when it held none). */
  const known = useRef<string | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const [retry, setRetry] = useState(0);
  const applyRef = useRef(apply);
  const heldRef = useRef(held);
  const local = JSON.stringify(toServer(playlist, clampSettings(settings)));
  /** What the page started from, and what it shows now: they differ once changed while loading. */
  const opened = useRef(local);
  const shown = useRef(local);
  useEffect(() => {
    applyRef.current = apply;
    heldRef.current = held;
    shown.current = local;
  });

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<PlayerState>(API.player, { signal: controller.signal }).then(
      (server) =>
        // A transition: the player's re-render with what the account holds is done in slices, not
        // one long task while the page is still starting.
        startTransition(() => {
          if (server.updated_at !== null) {
            const held = fromServer(server);
            saved.current = JSON.stringify(toServer(held.playlist, held.settings));
            // Otherwise what is shown differs from saved.current, and is saved once ready.
            const changedHere = unsyncedChangeOver() === server.updated_at || shown.current !== opened.current;
            if (!changedHere) applyRef.current(held.playlist, held.settings);
            heldRef.current?.(held.settings);
          }
          known.current = server.updated_at ?? '';
          if (unsyncedChangeOver() !== null && unsyncedChangeOver() !== known.current) markUnsyncedChange(null);
          setState({ status: 'saved' });
          setReady(true);
        }),
      (error: unknown) => {
        // A session ended meanwhile has said so already, on its way to login.
        if (controller.signal.aborted || endedTheSession(error)) return;
        setState(isOffline(error) ? { status: 'offline' } : { status: 'refused', reason: describeError(error) });
        setReady(true);
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (!ready) return;
    const body = toServer(playlist, clampSettings(settings));
    const json = JSON.stringify(body);
    if (json === saved.current) return;
    const timer = setTimeout(() => {
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
          // Unknown when the account could not be read either: then nothing is known to be older.
          if (offline && known.current !== undefined) markUnsyncedChange(known.current);
          setState(offline ? { status: 'offline' } : { status: 'refused', reason: describeError(error) });
        },
      );
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, playlist, settings, retry]);

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
