import type { LayerState, SoundEngine, SoundEngineState } from './sound-engine';

// The one place a listening session ends (docs/product/screens.md#your-practice): whatever started
// it (a library track, the binaural generator, a program's day) and whatever stopped it (Stop, the
// mini-player, the sleep timer, signing out), the engine goes from playing or paused to stopped once.
// This watcher turns that into one report, with the time actually listened (pauses excluded), so
// history is recorded in one place and no feature needs another.

/** What a starter may say about the session it starts (e.g. a program's day), carried to its end. */
export interface SessionTag {
  /** A short name for the history list ("Deep Sleep · Day 1"). */
  title: string;
  program?: { slug: string; day: number };
  /** The length the session was planned for, in seconds (a program day's length). */
  plannedSeconds?: number;
}

export interface EndedSession {
  /** The layers that played (the last set before the end). */
  layers: readonly LayerState[];
  /** Seconds listened, pauses excluded, by the wall clock. */
  seconds: number;
  /** 'timer': the sleep timer ran out (the session played to its end); 'stop': someone stopped it. */
  by: 'stop' | 'timer';
  startedAt: Date;
  tag: SessionTag | null;
}

type Listener = (session: EndedSession) => void;

/** Watches one engine; `tag` names the next (or current) session, `onEnd` hears every end. */
export function watchSessionEnds(
  engine: Pick<SoundEngine, 'subscribe' | 'getState' | 'now'>,
  clock = () => Date.now(),
) {
  const listeners = new Set<Listener>();
  let previous: SoundEngineState = engine.getState();
  let tag: SessionTag | null = null;
  let startedAt = 0;
  let listenedMs = 0;
  let playingSince: number | null = null;
  let layers: readonly LayerState[] = [];

  engine.subscribe(() => {
    const state = engine.getState();
    const now = clock();
    if (previous.status === 'stopped' && state.status !== 'stopped') {
      startedAt = now;
      listenedMs = 0;
      playingSince = null;
    }
    if (state.status === 'playing' && playingSince === null) playingSince = now;
    if (state.status !== 'playing' && playingSince !== null) {
      listenedMs += now - playingSince;
      playingSince = null;
    }
    if (state.layers.length > 0) layers = state.layers;
    if (previous.status !== 'stopped' && state.status === 'stopped') {
      const timer = previous.timer;
      report(timer && engine.now() >= timer.endsAt - 0.5 ? 'timer' : 'stop', now);
      tag = null;
      layers = [];
    }
    previous = state;
  });

  function report(by: EndedSession['by'], now: number) {
    const ended: EndedSession = {
      layers,
      seconds: Math.round((listenedMs + (playingSince === null ? 0 : now - playingSince)) / 1000),
      by,
      startedAt: new Date(startedAt),
      tag,
    };
    for (const listener of listeners) listener(ended);
  }

  return {
    /** Names the session about to start (call just before starting it); a plain start clears it. */
    tag(next: SessionTag | null) {
      tag = next;
    },
    /** The tag of the session playing now, if any. */
    current: () => (engine.getState().status === 'stopped' ? null : tag),
    /**
     * The page is going away (closed, reloaded, left) with a session under way: reports what was listened
     * so far as a stopped session. Should the page come back (the back-forward cache), what plays on
     * counts from then, as a session of its own.
     */
    flush() {
      if (engine.getState().status === 'stopped') return;
      const now = clock();
      report('stop', now);
      startedAt = now;
      listenedMs = 0;
      if (playingSince !== null) playingSince = now;
    },
    onEnd(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
