import { afterEach, describe, expect, it, vi } from 'vitest';
import { historyEntryOf } from '@web/components/practice-recorder';
import { watchFlashSessions } from './flash-sessions';
import type { EndedSession } from './session-ends';
import { STOPPED_ENGINE_STATE as STOPPED, type SoundEngineState } from './sound-engine';

const noise = { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' } as const;
const START = Date.parse('2026-12-01T20:00:00.000Z');

function setUp() {
  let state = STOPPED;
  let now = START;
  const listeners = new Set<() => void>();
  const engine = {
    getState: () => state,
    subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
  };
  const watcher = watchFlashSessions(engine, () => now);
  const ended: EndedSession[] = [];
  watcher.onEnd((session) => ended.push(session));
  return {
    watcher,
    ended,
    wait: (seconds: number) => void (now += seconds * 1000),
    sound: (next: Partial<SoundEngineState>) => {
      state = { ...state, ...next };
      for (const listener of listeners) listener();
    },
  };
}

const confidence = { title: 'Confidence', ref: 'category:4' };

describe('messages flashed without sound', () => {
  it('are recorded as a subliminal session with the time they flashed, pauses excluded', () => {
    const { watcher, ended, wait } = setUp();
    watcher.flashing(confidence, true);
    wait(20);
    watcher.flashing(confidence, false);
    wait(600);
    watcher.flashing(confidence, true);
    wait(15);
    expect(watcher.elapsed()).toBe(35);
    watcher.stop();
    expect(ended).toHaveLength(1);
    expect(historyEntryOf(ended[0]!)).toEqual({
      kind: 'subliminal',
      ref: 'category:4',
      title: 'Confidence',
      seconds: 35,
      finished: false,
      started_at: new Date(START).toISOString(),
    });
  });

  it('say what flashed so far under the key their end has (decision 090)', () => {
    const { watcher, ended, wait } = setUp();
    watcher.flashing(confidence, false);
    // Shown but never flashed: nothing to say yet.
    expect(watcher.sofar()).toBeNull();
    watcher.flashing(confidence, true);
    wait(40);
    const sofar = watcher.sofar();
    expect(sofar).toMatchObject({ seconds: 40, layers: [], tag: confidence, key: expect.any(String) });
    wait(20);
    watcher.stop();
    expect(ended).toEqual([expect.objectContaining({ seconds: 60, key: sofar!.key })]);
    expect(watcher.sofar()).toBeNull();
  });

  it('are not recorded while a sound plays: the sound is the session, so nothing counts twice', () => {
    const { watcher, ended, wait, sound } = setUp();
    sound({ status: 'playing', layers: [noise] });
    watcher.flashing(confidence, true);
    wait(300);
    sound({ status: 'stopped', layers: [] });
    // The sound stopped, the messages flash on in silence: that is a session of its own.
    wait(40);
    watcher.stop();
    expect(ended.map((session) => session.seconds)).toEqual([40]);
    expect(ended[0]!.startedAt.getTime()).toBe(START + 300_000);
  });

  it('end where a sound starts under them, and follow the minimum of a sound session', () => {
    const { watcher, ended, wait, sound } = setUp();
    watcher.flashing(confidence, true);
    wait(12);
    sound({ status: 'playing', layers: [noise] });
    expect(ended.map((session) => session.seconds)).toEqual([12]);
    wait(100);
    watcher.stop();
    expect(ended).toHaveLength(1);
    // Under a second is not recorded, as for sound.
    const short = setUp();
    short.watcher.flashing(confidence, true);
    short.wait(0.4);
    short.watcher.stop();
    expect(short.ended.map((session) => historyEntryOf(session))).toEqual([null]);
  });

  it('report what flashed so far when the page goes or the person signs out, and go on as a new one', () => {
    const { watcher, ended, wait } = setUp();
    watcher.flashing(confidence, true);
    wait(30);
    watcher.flush();
    expect(ended.map((session) => session.seconds)).toEqual([30]);
    wait(5);
    watcher.stop();
    expect(ended.map((session) => session.seconds)).toEqual([30, 5]);
  });

  describe('in a hidden page', () => {
    const showPage = (state: DocumentVisibilityState) => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    afterEach(() => {
      showPage('visible');
      vi.useRealTimers();
    });

    it('count only the time the flashes were in view, as a video counts its watch time (decision 116)', () => {
      vi.useFakeTimers({ now: START });
      // The app's watcher: the wall clock and the document's own visibility.
      const watcher = watchFlashSessions({ getState: () => STOPPED, subscribe: () => () => {} });
      const ended: EndedSession[] = [];
      watcher.onEnd((session) => ended.push(session));
      watcher.flashing(confidence, true);
      vi.advanceTimersByTime(20_000);
      showPage('hidden');
      // Twenty minutes in another tab flash nothing anyone sees.
      vi.advanceTimersByTime(20 * 60_000);
      expect(watcher.elapsed()).toBe(20);
      expect(watcher.sofar()?.seconds).toBe(20);
      showPage('visible');
      vi.advanceTimersByTime(10_000);
      watcher.stop();
      expect(ended.map((session) => [session.seconds, session.startedAt.getTime()])).toEqual([[30, START]]);
    });

    it('begin when they are first seen, not while opened in a tab behind', () => {
      vi.useFakeTimers({ now: START });
      showPage('hidden');
      const watcher = watchFlashSessions({ getState: () => STOPPED, subscribe: () => () => {} });
      const ended: EndedSession[] = [];
      watcher.onEnd((session) => ended.push(session));
      watcher.flashing(confidence, true);
      vi.advanceTimersByTime(60_000);
      expect(watcher.sofar()).toBeNull();
      showPage('visible');
      vi.advanceTimersByTime(5_000);
      watcher.stop();
      expect(ended.map((session) => [session.seconds, session.startedAt.getTime()])).toEqual([[5, START + 60_000]]);
    });
  });
});
