import { describe, expect, it } from 'vitest';
import { STOPPED_ENGINE_STATE as STOPPED, type SoundEngineState } from './sound-engine';
import { watchSessionEnds, type EndedSession } from './session-ends';

const noise = { id: 'noise', source: { kind: 'noise', colour: 'pink' }, gain: 0.5, status: 'ready' } as const;
const track = (key: string, title: string) =>
  ({ id: 'track', source: { kind: 'track', key, title, url: `/media/${key}` }, gain: 1, status: 'ready' }) as const;
const calm = track('solfeggio:12', '432 Hz calm');
const rain = track('bonus:3', 'Rain');
const binaural = (rightHz: number) =>
  ({ id: 'binaural', source: { kind: 'binaural', leftHz: 200, rightHz }, gain: 0.5, status: 'ready' }) as const;

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
  it('reports one end per session, with the time listened by the engine’s clock (pauses excluded) and its tag', () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 1_000_000);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    watcher.tag({ title: 'Seven Nights of Rest · Day 1', program: { slug: 'seven-nights-of-rest', day: 1 } });
    engine.set({ status: 'playing', layers: [noise] }, 5);
    engine.set({ status: 'paused' }, 35);
    engine.set({ status: 'playing' }, 635);
    engine.set({ volume: 0.5 }, 640);
    engine.set({ status: 'stopped', layers: [] }, 647);
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
    engine.set({}, 90);
    watcher.flush();
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ seconds: 90, by: 'stop', layers: [noise] });
    expect(ended[0]!.tag?.program?.day).toBe(2);

    // Back from the back-forward cache, it plays on: the rest is counted from the flush.
    wall += 20_000;
    engine.set({ status: 'stopped', layers: [] }, 110);
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

  it('gives each sound the time it played when a track replaces another (one sound at a time)', () => {
    const engine = fakeEngine();
    let wall = 1_000_000;
    const watcher = watchSessionEnds(engine, () => wall);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    engine.set({ status: 'playing', layers: [calm] }, 10);
    engine.set({ status: 'paused' }, 70);
    engine.set({ status: 'playing' }, 400);
    wall += 400_000;
    // Rain, set exclusively: the engine plays on, with another sound.
    engine.set({ layers: [{ ...rain, status: 'loading' }] }, 420);
    engine.set({ layers: [rain] }, 421);
    wall += 300_000;
    engine.set({ status: 'stopped', layers: [] }, 720);

    expect(
      ended.map(({ layers, seconds, by }) => ({
        titles: layers.map((l) => l.source.kind === 'track' && l.source.title),
        seconds,
        by,
      })),
    ).toEqual([
      { titles: ['432 Hz calm'], seconds: 80, by: 'stop' },
      // Heard from 421, once loaded (decision 038).
      { titles: ['Rain'], seconds: 299, by: 'stop' },
    ]);
    expect(ended.map((session) => session.startedAt.getTime())).toEqual([1_000_000, 1_400_000]);
  });

  it('starts a new session whenever the sounds change, but not when one is retuned, made louder or has loaded', () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 0);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    engine.set({ status: 'playing', layers: [{ ...calm, status: 'loading' }] }, 0);
    engine.set({ layers: [calm] }, 1);
    engine.set({ layers: [{ ...calm, gain: 0.4 }] }, 30);
    engine.set({ layers: [calm, binaural(204)] }, 60);
    engine.set({ layers: [calm, binaural(206)] }, 90);
    engine.set({ layers: [binaural(206)] }, 100);
    engine.set({ layers: [binaural(206), { ...noise, source: { kind: 'noise', colour: 'brown' } }] }, 130);
    engine.set({ layers: [binaural(206), noise] }, 150);
    engine.set({ status: 'stopped', layers: [] }, 160);

    expect(ended.map(({ layers, seconds }) => ({ sounds: layers.map((l) => l.id), seconds }))).toEqual([
      // Heard from 1, once loaded (decision 038).
      { sounds: ['track'], seconds: 59 },
      // Named by what played last: the beat as retuned.
      { sounds: ['track', 'binaural'], seconds: 40 },
      { sounds: ['binaural'], seconds: 30 },
      { sounds: ['binaural', 'noise'], seconds: 20 },
      { sounds: ['binaural', 'noise'], seconds: 10 },
    ]);
    expect(ended[1]!.layers[1]!.source).toMatchObject({ rightHz: 206 });
    expect(ended[3]!.layers[1]!.source).toMatchObject({ colour: 'brown' });
  });

  it('keeps a program day one session while any of its sounds plays, and ends it when others replace them', () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 0);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));
    const day = { title: 'Seven Nights of Rest · Day 3', program: { slug: 'seven-nights-of-rest', day: 3 } };

    watcher.tag(day);
    // The day's sounds start one after the other, then someone adds a noise and takes the beat away.
    engine.set({ status: 'playing', layers: [calm] }, 0);
    engine.set({ layers: [calm, binaural(204)] }, 0);
    engine.set({ layers: [calm, binaural(204), noise] }, 60);
    engine.set({ layers: [calm, noise] }, 120);
    expect(watcher.current()).toEqual(day);
    // Rain, started on its own, replaces what played: the day is over, what plays on is Rain's.
    engine.set({ layers: [rain] }, 200);
    expect(watcher.current()).toBeNull();
    const timer = { seconds: 600, fadeSeconds: 60, endsAt: 600, fadeStartsAt: 540 };
    engine.set({ timer }, 250);
    engine.set({ status: 'stopped', layers: [], timer: null }, 600);

    expect(ended.map(({ tag, seconds, by }) => ({ tag, seconds, by }))).toEqual([
      { tag: day, seconds: 200, by: 'stop' },
      { tag: null, seconds: 400, by: 'timer' },
    ]);
  });

  it('counts a track from when it is heard, not while it loads, here and after another takes its place', () => {
    const engine = fakeEngine();
    let wall = 1_000_000;
    const watcher = watchSessionEnds(engine, () => wall);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));
    const loading = <T extends object>(layer: T) => ({ ...layer, status: 'loading' as const });

    engine.set({ status: 'playing', layers: [loading(calm)] }, 0);
    wall += 3000;
    engine.set({ layers: [calm] }, 3);
    // Rain is chosen in its place; it takes two seconds to load, then plays ten.
    engine.set({ layers: [loading(rain)] }, 63);
    wall += 62_000;
    engine.set({ layers: [rain] }, 65);
    engine.set({ status: 'stopped', layers: [] }, 75);
    // A track that never loads was never heard: nothing to record.
    engine.set({ status: 'playing', layers: [loading(calm)] }, 80);
    engine.set({ status: 'stopped', layers: [] }, 90);

    expect(ended.map(({ seconds, startedAt }) => ({ seconds, startedAt: startedAt.getTime() }))).toEqual([
      { seconds: 60, startedAt: 1_003_000 },
      { seconds: 10, startedAt: 1_065_000 },
      { seconds: 0, startedAt: 1_065_000 },
    ]);
  });

  it('counts a track still loading beside a sound already heard', () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 0);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));

    engine.set({ status: 'playing', layers: [noise, { ...calm, status: 'loading' }] }, 0);
    engine.set({ layers: [noise, calm] }, 4);
    engine.set({ status: 'stopped', layers: [] }, 30);
    expect(ended.map(({ seconds }) => seconds)).toEqual([30]);
  });

  // Sent as it goes, the session's records share its key (docs/decisions/090-a-session-is-recorded-as-it-goes.md).
  it('says what the session under way has played so far, under the key its end has, and goes on', () => {
    const engine = fakeEngine();
    const watcher = watchSessionEnds(engine, () => 1_000_000);
    const ended: EndedSession[] = [];
    watcher.onEnd((session) => ended.push(session));
    expect(watcher.sofar()).toBeNull();

    engine.set({ status: 'playing', layers: [noise] }, 10);
    engine.set({ status: 'paused' }, 70);
    const sofar = watcher.sofar();
    expect(sofar).toMatchObject({ seconds: 60, by: 'stop', layers: [noise], key: expect.any(String) });
    expect(ended).toEqual([]);
    engine.set({ status: 'playing' }, 100);
    engine.set({ status: 'stopped', layers: [] }, 130);
    expect(ended).toEqual([expect.objectContaining({ seconds: 90, key: sofar!.key })]);
    expect(watcher.sofar()).toBeNull();

    // The next session, and what plays on after a flush, are sessions of their own: keys of their own.
    engine.set({ status: 'playing', layers: [noise] }, 200);
    const next = watcher.sofar()!.key;
    watcher.flush();
    expect(new Set([sofar!.key, next, watcher.sofar()!.key]).size).toBe(3);
  });
});
