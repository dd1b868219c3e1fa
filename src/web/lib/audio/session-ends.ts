import { newRecordKey } from '@web/lib/pending-records';
import type { LayerState, SoundEngine, SoundEngineState } from './sound-engine';

// The one place a listening session ends (docs/product/screens.md#your-practice): whatever started
// it (a library track, the binaural generator, a program's day) and whatever stopped it (Stop, the
// mini-player, the sleep timer, signing out), the engine goes from playing or paused to stopped once.
// This watcher turns that into one report, with the time actually listened (pauses excluded), so
// history is recorded in one place and no feature needs another.
//
// A session is what plays, so it also ends when the engine plays on with other sounds: a track set
// in place of another (one sound at a time), a layer added or taken away. Each sound is then credited
// with the time it played, not the whole sitting with the last one. A program day's session is named
// by the day, not by its sounds, and lasts while any of them plays.

/** What a starter may say about the session it starts (e.g. a program's day), carried to its end. */
export interface SessionTag {
  /** A short name for the history list ("Deep Sleep · Day 1"). */
  title: string;
  program?: { slug: string; day: number };
  /** The length the session was planned for, in seconds (a program day's length). */
  plannedSeconds?: number;
  /** What it was, as history's `ref` (e.g. `category:3` for messages of one library category). */
  ref?: string;
}

export interface EndedSession {
  /** The layers that played (the last set before the end). */
  layers: readonly LayerState[];
  /** Seconds listened, pauses excluded, by the engine's clock (the one the mini-player shows). */
  seconds: number;
  /**
   * 'timer': the sleep timer ran out (the session played to its end); 'stop': someone stopped it,
   * or other sounds took its place.
   */
  by: 'stop' | 'timer';
  startedAt: Date;
  tag: SessionTag | null;
  /**
   * The session's own key, the same in what is reported of it so far (`sofar`) as at its end: its record's
   * `record_key`, so the server keeps one entry of it (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
   */
  key: string;
}

type Listener = (session: EndedSession) => void;

/**
 * Which sound a layer plays: its layer, and for a track or a noise which one. A retuned beat, a new
 * level or the voice spoken again are the same sound.
 */
function soundOf(layer: LayerState): string {
  const source = layer.source;
  return source.kind === 'track'
    ? `track ${source.key}`
    : source.kind === 'noise'
      ? `noise ${source.colour}`
      : layer.id;
}

/**
 * Whether the session's sound is heard: the engine plays and some layer sounds. A track is 'loading'
 * until it is fetched and decoded, and that wait is not listening (it would credit the track with it).
 */
const heard = (state: SoundEngineState) =>
  state.status === 'playing' && state.layers.some((layer) => layer.status === 'ready');

interface Listening {
  key: string;
  tag: SessionTag | null;
  /** Wall-clock milliseconds, for the record's start: when it was first heard (until then, when it began). */
  startedAt: number;
  everHeard: boolean;
  /** The sounds that played in it (a program day's: every one that joined it). */
  sounds: Set<string>;
  layers: readonly LayerState[];
  /** Engine seconds listened before the current stretch of playing, which began at `playingSince`. */
  listened: number;
  playingSince: number | null;
}

/** Watches one engine; `tag` names the next session, `onEnd` hears every end. */
export function watchSessionEnds(
  engine: Pick<SoundEngine, 'subscribe' | 'getState' | 'now'>,
  clock = () => Date.now(),
) {
  const listeners = new Set<Listener>();
  let previous: SoundEngineState = engine.getState();
  let nextTag: SessionTag | null = null;
  let listening: Listening | null = null;

  function begin(state: SoundEngineState, tag: SessionTag | null) {
    listening = {
      key: newRecordKey(),
      tag,
      startedAt: clock(),
      everHeard: heard(state),
      sounds: new Set(state.layers.map(soundOf)),
      layers: state.layers,
      listened: 0,
      playingSince: heard(state) ? engine.now() : null,
    };
  }

  /** What the session under way would report if it ended now. */
  function report(current: Listening, by: EndedSession['by']): EndedSession {
    const playing = current.playingSince === null ? 0 : engine.now() - current.playingSince;
    return {
      layers: current.layers,
      seconds: Math.round(Math.max(0, current.listened + playing)),
      by,
      startedAt: new Date(current.startedAt),
      tag: current.tag,
      key: current.key,
    };
  }

  function end(by: EndedSession['by']) {
    const ended = listening;
    if (!ended) return;
    listening = null;
    const session = report(ended, by);
    for (const listener of listeners) listener(session);
  }

  /** Whether the engine now plays something other than this session. */
  function replaced(current: Listening, layers: readonly LayerState[]): boolean {
    const sounds = layers.map(soundOf);
    if (current.sounds.size === 0 || sounds.length === 0) return false;
    if (current.tag) return !sounds.some((sound) => current.sounds.has(sound));
    return sounds.length !== current.sounds.size || sounds.some((sound) => !current.sounds.has(sound));
  }

  engine.subscribe(() => {
    const state = engine.getState();
    if (state.status === 'stopped') {
      const timer = previous.timer;
      end(timer && engine.now() >= timer.endsAt - 0.5 ? 'timer' : 'stop');
    } else {
      if (listening && replaced(listening, state.layers)) {
        end('stop');
        begin(state, null);
      }
      if (!listening) {
        begin(state, nextTag);
        nextTag = null;
      }
      const current: Listening = listening!;
      const now = engine.now();
      if (heard(state) && current.playingSince === null) {
        current.playingSince = now;
        if (!current.everHeard) current.startedAt = clock();
        current.everHeard = true;
      }
      if (!heard(state) && current.playingSince !== null) {
        current.listened += now - current.playingSince;
        current.playingSince = null;
      }
      if (state.layers.length > 0) current.layers = state.layers;
      // A program day's sounds are all that join it (they start one after another); a session that
      // began with none yet takes its first ones.
      const joining = current.tag || current.sounds.size === 0 ? state.layers : [];
      for (const layer of joining) current.sounds.add(soundOf(layer));
    }
    previous = state;
  });

  return {
    /** Names the session about to start (call just before starting it); a plain start has none. */
    tag(next: SessionTag | null) {
      nextTag = next;
    },
    /**
     * Seconds the session under way has been heard so far, pauses excluded, by the engine's clock: what
     * its record would say if it ended now. The mini-player and the session screen show it, so their
     * clock starts again with each new session, as history does.
     */
    elapsed(): number {
      if (!listening || engine.getState().status === 'stopped') return 0;
      const { listened, playingSince } = listening;
      return Math.max(0, listened + (playingSince === null ? 0 : engine.now() - playingSince));
    },
    /**
     * The session under way as it would be reported stopped now, under the key its end will have; null
     * when none is. It goes on: the page may go away without a word (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
     */
    sofar(): EndedSession | null {
      return listening && engine.getState().status !== 'stopped' ? report(listening, 'stop') : null;
    },
    /** The tag of the session playing now, if any. */
    current: () => (engine.getState().status === 'stopped' ? null : (listening?.tag ?? null)),
    /**
     * The page is going away (closed, reloaded, left), or another tab signs out, with a session under
     * way: reports what was listened so far as a stopped session. Should the page come back (the
     * back-forward cache), or the sign-out fail, what plays on counts from then, as a session of its own.
     */
    flush() {
      const state = engine.getState();
      if (state.status === 'stopped' || !listening) return;
      const { tag, sounds } = listening;
      end('stop');
      begin(state, tag);
      listening!.sounds = sounds;
    },
    onEnd(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
