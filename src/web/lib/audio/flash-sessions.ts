import { newRecordKey } from '@web/lib/pending-records';
import type { EndedSession, SessionTag } from './session-ends';
import type { SoundEngine } from './sound-engine';

// Messages flashed with no sound are a listening session too (docs/product/screens.md#your-practice):
// the session screen says when its messages flash, and this watcher reports the time they flashed in
// silence, ended like a sound session (session-ends.ts) and recorded by the same recorder. A session
// is what plays (decision 036): while the engine plays, its sound is the session and is recorded by
// the sound watcher, so flashes with sound are never recorded twice. Sound starting under the flashes
// ends the silent session there; should the sound stop while they go on, what follows is a silent
// session of its own.

type Listener = (session: EndedSession) => void;

interface Flashing {
  key: string;
  tag: SessionTag;
  /** Wall-clock milliseconds it was first counted (null until then). */
  startedAt: number | null;
  /** Milliseconds counted before the current run (flashing in a shown page), which began at `since`. */
  counted: number;
  since: number | null;
}

/** Whether the page is hidden (another tab, a minimised window, a phone's locked screen), and its changes. */
export interface PageVisibility {
  hidden(): boolean;
  subscribe(listener: () => void): void;
}

const documentVisibility: PageVisibility = {
  hidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  subscribe: (listener) => {
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', listener);
  },
};

/**
 * Watches the session screen's flashes against one engine; `clock` is the wall clock in milliseconds. Silent
 * flashes count only while the page shows them, as a video counts its watch time: in a hidden tab nothing is
 * seen (and the browser stops drawing them), so that time is not practice
 * (docs/decisions/116-the-mini-player-takes-a-finger-and-history-counts-what-was-seen.md).
 */
export function watchFlashSessions(
  engine: Pick<SoundEngine, 'subscribe' | 'getState'>,
  clock = () => Date.now(),
  page: PageVisibility = documentVisibility,
) {
  const listeners = new Set<Listener>();
  const changes = new Set<() => void>();
  /** What the session screen shows now: its tag and whether its messages flash (not paused). */
  let screen: { tag: SessionTag; running: boolean } | null = null;
  let current: Flashing | null = null;
  const silent = () => engine.getState().status === 'stopped';

  /** What the silent session would report if it ended now; null before it was first counted. */
  function report(flashing: Flashing): EndedSession | null {
    if (flashing.startedAt === null) return null;
    const counted = flashing.counted + (flashing.since === null ? 0 : clock() - flashing.since);
    return {
      layers: [],
      seconds: Math.round(Math.max(0, counted) / 1000),
      by: 'stop',
      startedAt: new Date(flashing.startedAt),
      tag: flashing.tag,
      key: flashing.key,
    };
  }

  function end() {
    const ended = current;
    if (!ended) return;
    current = null;
    const session = report(ended);
    if (!session) return;
    for (const listener of listeners) listener(session);
  }

  function update() {
    follow();
    for (const listener of changes) listener();
  }

  function follow() {
    if (current && (!screen || !silent())) end();
    if (!screen || !silent()) return;
    current ??= { key: newRecordKey(), tag: screen.tag, startedAt: null, counted: 0, since: null };
    const now = clock();
    const seen = screen.running && !page.hidden();
    if (seen && current.since === null) {
      current.since = now;
      current.startedAt ??= now;
    } else if (!seen && current.since !== null) {
      current.counted += now - current.since;
      current.since = null;
    }
  }

  engine.subscribe(update);
  page.subscribe(update);

  return {
    /** The session screen's messages flash (`running`) or are paused; `tag` names them for history. */
    flashing(tag: SessionTag, running: boolean) {
      screen = { tag, running };
      update();
    },
    /** The session screen closed: what flashed in silence is reported. */
    stop() {
      screen = null;
      update();
    },
    /** Seconds the silent session under way has flashed so far, pauses and hidden time excluded. */
    elapsed(): number {
      if (!current) return 0;
      return (current.counted + (current.since === null ? 0 : clock() - current.since)) / 1000;
    },
    /**
     * The page is going away or the person signs out (here or in another tab) with messages flashing:
     * reports what flashed so far.
     * Should they flash on, what follows counts as a session of its own.
     */
    flush() {
      end();
      update();
    },
    /** The silent session under way as it would be reported now, under the key its end will have (decision 090). */
    sofar: (): EndedSession | null => current && report(current),
    /** Whether a silent session is under way (flashing or paused), which would be recorded on its end. */
    underWay: () => current !== null,
    /** Hears every change: a silent session beginning, pausing, going on or ending. */
    subscribe(listener: () => void): () => void {
      changes.add(listener);
      return () => changes.delete(listener);
    },
    onEnd(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
