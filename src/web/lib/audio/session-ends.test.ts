import { describe, expect, it } from 'vitest';
import type { SoundEngineState } from './sound-engine';
import { watchSessionEnds, type EndedSession } from './session-ends';

const STOPPED: SoundEngineState = { status: 'stopped', volume: 0.8, layers: [], timer: null, ended: null };
const noise = { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' } as const;

/** An engine that is only its state, its listeners and its clock. */
function fakeEngine() {
  let state = STOPPED;
  let now = 0;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    now: () => now,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next: Partial<SoundEngineState>, at = now) {
      now = at;
      state = { ...state, ...next };
      for (const listener of listeners) listener();
    },
  };
}

describe('watchSessionEnds', () => {
  it('reports one end per session, with the time listened (pauses excluded) and its tag', () => {
    const engine = fakeEngine();
    let wall = 1_000_000;
    const watcher = watchSessionEnds(engine, () => wall);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    watcher.tag({ title: 'Seven Nights of Rest · Day 1', program: { slug: 'seven-nights-of-rest', day: 1 } });
    engine.set({ status: 'playing', layers: [noise] });
    wall += 30_000;
    engine.set({ status: 'paused' });
    wall += 600_000;
    engine.set({ status: 'playing' });
    wall += 12_000;
    engine.set({ volume: 0.5 });
    engine.set({ status: 'stopped', layers: [] });
    engine.set({ status: 'stopped' });

    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ seconds: 42, by: 'stop', layers: [noise] });
    expect(ended[0]!.tag?.program).toEqual({ slug: 'seven-nights-of-rest', day: 1 });
    expect(ended[0]!.startedAt.getTime()).toBe(1_000_000);

    // The tag was for that session only.
    engine.set({ status: 'playing', layers: [noise] });
    engine.set({ status: 'stopped', layers: [] });
    expect(ended[1]!.tag).toBeNull();
  });

  it('reports what was listened so far when the page goes away, and what plays on after as its own session', () => {
    const engine = fakeEngine();
    let wall = 0;
    const watcher = watchSessionEnds(engine, () => wall);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    watcher.flush();
    expect(ended).toHaveLength(0);

    watcher.tag({ title: 'Seven Nights of Rest · Day 2', program: { slug: 'seven-nights-of-rest', day: 2 } });
    engine.set({ status: 'playing', layers: [noise] });
    wall += 90_000;
    watcher.flush();
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ seconds: 90, by: 'stop', layers: [noise] });
    expect(ended[0]!.tag?.program?.day).toBe(2);

    // Back from the back-forward cache, it plays on: the rest is counted from the flush.
    wall += 20_000;
    engine.set({ status: 'stopped', layers: [] });
    expect(ended).toHaveLength(2);
    expect(ended[1]).toMatchObject({ seconds: 20, by: 'stop' });
    expect(ended[1]!.startedAt.getTime()).toBe(90_000);
  });

  it("tells the sleep timer's end from a stop", () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 0);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));
    const timer = { seconds: 600, fadeSeconds: 60, endsAt: 600, fadeStartsAt: 540 };
    engine.set({ status: 'playing', layers: [noise], timer });
    engine.set({ status: 'stopped', layers: [], timer: null }, 600.1);
    engine.set({ status: 'playing', layers: [noise], timer: { ...timer, endsAt: 1200 } });
    engine.set({ status: 'stopped', layers: [], timer: null }, 700);
    expect(ended.map((session) => session.by)).toEqual(['timer', 'stop']);
  });
});
