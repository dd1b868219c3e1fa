import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { duringPress, FakeAudioContext, pass as passTime, stubWebAudio } from '@web/test/fake-audio-context';
import { watchSessionEnds } from './session-ends';
import { PRIME_IDLE_MS, SoundEngine, START_WAIT_MS, STARTING_SHOWN_MS, type LayerSource } from './sound-engine';

// The engine on a stand-in of Web Audio (test/fake-audio-context.ts): this file is about its clock and
// its layers' states, as the session watcher (session-ends.ts) reads them.

const trackOf = (key: string): LayerSource => ({ kind: 'track', key, title: key, url: `/media/${key}.mp3` });
const calm = trackOf('solfeggio:1');
const rain = trackOf('bonus:2');
const ocean = trackOf('bonus:3');
const beat: LayerSource = { kind: 'binaural', leftHz: 200, rightHz: 206 };

let context: FakeAudioContext;
/** The pending fetch of each track's bytes, settled by the test: a track loads as long as it says. */
let loads: Map<string, { resolve: (bytes: ArrayBuffer) => void; reject: (error: Error) => void }>;
let engine: SoundEngine;

/** Lets `seconds` pass, the audio clock with it while the context runs. */
const pass = (seconds: number) => passTime(context, seconds);

/** The fetch of a track's bytes, once the engine has asked for them. */
async function pending(source: LayerSource) {
  await vi.advanceTimersByTimeAsync(0);
  const load = loads.get(source.kind === 'track' ? source.url : '');
  if (!load) throw new Error('the track was not fetched');
  return load;
}

/** The track's bytes arrive (and decode at once). */
async function loaded(source: LayerSource) {
  (await pending(source)).resolve(new ArrayBuffer(8));
  await vi.advanceTimersByTimeAsync(0);
}

/** A track set playing, its bytes arrived: heard from now. */
async function playHeard(source: LayerSource) {
  const playing = engine.setLayer('track', source, 1);
  await loaded(source);
  await playing;
}

/** The track's bytes never come. */
async function failed(source: LayerSource) {
  (await pending(source)).reject(new Error('502 Bad Gateway'));
}

beforeEach(() => {
  vi.useFakeTimers();
  stubWebAudio();
  context = new FakeAudioContext();
  loads = new Map();
  engine = new SoundEngine(() => context as unknown as AudioContext, {
    load: (url) => new Promise((resolve, reject) => loads.set(url, { resolve, reject })),
  });
});

afterEach(() => {
  engine.stop();
  vi.useRealTimers();
});

/**
 * The clock the mini-player and the session screen show and history records (readSessionClock): the
 * session watcher reading this engine's states and clock. `ended`: the seconds of each session that ended.
 */
function clockOf(watched: SoundEngine) {
  const watcher = watchSessionEnds(watched);
  const ended: number[] = [];
  watcher.onEnd((session) => ended.push(session.seconds));
  return { elapsed: () => watcher.elapsed(), ended };
}

describe('the end of a session', () => {
  it('says the sleep timer ended it with no track as with one, so the session screen stops with it', async () => {
    await engine.setLayer('binaural', beat, 0.5);
    engine.setSleepTimer(60, 10);
    await pass(61);
    expect(engine.getState().status).toBe('stopped');
    expect(engine.getState().ended).toEqual({ key: null, by: 'timer' });

    await playHeard(calm);
    engine.setSleepTimer(60, 10);
    await pass(61);
    expect(engine.getState().ended).toEqual({ key: calm.kind === 'track' && calm.key, by: 'timer' });

    await engine.setLayer('binaural', beat, 0.5);
    engine.stop();
    expect(engine.getState().ended).toEqual({ key: null, by: 'stop' });
  });
});

describe('the session clock, as the engine’s layers and audio clock drive it', () => {
  it('counts from when the first track is heard, and again from 0:00 when a track picked in its place is', async () => {
    const clock = clockOf(engine);
    const first = engine.setLayer('track', calm, 1, { exclusive: true });
    await pass(2);
    expect(clock.elapsed()).toBe(0);
    await loaded(calm);
    await first;
    await pass(30);
    expect(clock.elapsed()).toBeCloseTo(30, 1);

    // Another sound picked: the first stops, the new one is fetched and decoded for 5 s of silence.
    const second = engine.setLayer('track', rain, 1, { exclusive: true });
    expect(engine.getState().layers.map((layer) => layer.status)).toEqual(['loading']);
    expect(clock.ended).toEqual([30]);
    await pass(5);
    expect(clock.elapsed()).toBe(0);
    await loaded(rain);
    await second;
    await pass(10);
    expect(clock.elapsed()).toBeCloseTo(10, 1);
  });

  it('stands still through a pause during the loading, and counts once the track is heard after the resume', async () => {
    const clock = clockOf(engine);
    await playHeard(calm);
    await pass(20);

    const second = engine.setLayer('track', rain, 1);
    await pass(1);
    engine.pause();
    await pass(60);
    expect(context.state).toBe('suspended');
    expect(clock.ended).toEqual([20]);
    expect(clock.elapsed()).toBe(0);
    // Decoded while paused: still nothing heard until the resume.
    await loaded(rain);
    await second;
    expect(clock.elapsed()).toBe(0);
    await engine.resume();
    await pass(10);
    expect(clock.elapsed()).toBeCloseTo(10, 1);
  });

  it('ends with the session when a replacement fails to load and nothing else plays', async () => {
    const clock = clockOf(engine);
    await playHeard(calm);
    await pass(10);

    const failing = engine.setLayer('track', rain, 1).catch((error: unknown) => error);
    await pass(3);
    expect(clock.elapsed()).toBe(0);
    await failed(rain);
    expect(await failing).toBeInstanceOf(Error);
    expect(engine.getState().status).toBe('stopped');
    expect(clock.elapsed()).toBe(0);
    // The track that never loaded was never heard.
    expect(clock.ended).toEqual([10, 0]);

    // The next session counts from its own first sound, with no silence carried over.
    const next = engine.setLayer('track', ocean, 1);
    await pass(1);
    await loaded(ocean);
    await next;
    await pass(4);
    expect(clock.elapsed()).toBeCloseTo(4, 1);
  });

  it('counts only the last of several replacements, from when it is heard, a stale one arriving late counting nothing', async () => {
    const clock = clockOf(engine);
    await playHeard(calm);
    await pass(10);

    const stale = engine.setLayer('track', rain, 1);
    await pass(2);
    const last = engine.setLayer('track', ocean, 1);
    await pass(1);
    await loaded(rain);
    await stale;
    expect(engine.getState().layers.map((layer) => layer.status)).toEqual(['loading']);
    expect(clock.elapsed()).toBe(0);
    await pass(3);
    await loaded(ocean);
    await last;
    await pass(5);
    expect(clock.elapsed()).toBeCloseTo(5, 1);
    expect(clock.ended).toEqual([10, 0]);
  });

  it('counts on while another layer plays through the loading, and stands still when none does', async () => {
    const clock = clockOf(engine);
    const first = engine.setLayer('track', calm, 1);
    engine.setLayer('binaural', beat, 0.5).catch(() => undefined);
    await pass(1);
    // The beat is heard at once: the track's loading is time listened to the beat.
    expect(clock.elapsed()).toBeCloseTo(1, 1);
    await loaded(calm);
    await first;
    await pass(9);
    expect(clock.elapsed()).toBeCloseTo(10, 1);

    // Another track beside the beat: a new session, heard through the beat while the track loads.
    const second = engine.setLayer('track', rain, 1);
    await pass(5);
    expect(clock.elapsed()).toBeCloseTo(5, 1);
    // The beat taken away while the track still loads: silence, until the track is heard.
    engine.removeLayer('binaural');
    await pass(4);
    expect(clock.elapsed()).toBe(0);
    await loaded(rain);
    await second;
    await pass(5);
    expect(clock.elapsed()).toBeCloseTo(5, 1);
    expect(clock.ended.map(Math.round)).toEqual([0, 10, 5]);
  });

  it('counts a generated sound set in place of a track at once, and a track in place of it once loaded', async () => {
    const clock = clockOf(engine);
    await playHeard(calm);
    await pass(10);
    await engine.setLayer('binaural', beat, 0.5, { exclusive: true });
    await pass(5);
    expect(clock.elapsed()).toBeCloseTo(5, 1);

    const track = engine.setLayer('track', rain, 1, { exclusive: true });
    await pass(3);
    expect(clock.elapsed()).toBe(0);
    await loaded(rain);
    await track;
    await pass(2);
    expect(clock.elapsed()).toBeCloseTo(2, 1);
    expect(clock.ended).toEqual([10, 5]);
  });
});

describe('a start the browser refuses (docs/decisions/072-sound-the-browser-refuses-waits-paused.md)', () => {
  const status = () => ({ status: engine.getState().status, refused: engine.getState().refused });

  it('pauses a session whose context Chromium leaves suspended, and plays it on the play button’s press', async () => {
    // No gesture of the person's yet: the context stays suspended and resume() is never answered.
    context.state = 'suspended';
    context.autoplay = 'pending';
    const clock = clockOf(engine);
    const started = engine.setLayer('binaural', beat, 0.5);
    await pass(START_WAIT_MS / 1000 + 0.1);
    await started;
    expect(status()).toEqual({ status: 'paused', refused: true });
    expect(engine.getState().layers.map((layer) => [layer.id, layer.status])).toEqual([['binaural', 'ready']]);
    await pass(5);
    expect(clock.elapsed()).toBe(0);

    // The press of play is a gesture: the browser lets it run.
    context.autoplay = 'allowed';
    await engine.resume();
    expect(status()).toEqual({ status: 'playing', refused: false });
    expect(context.state).toBe('running');
    await pass(3);
    expect(clock.elapsed()).toBeCloseTo(3, 1);
  });

  it('pauses a track whose start Safari rejects, with no rejection of its own, and stays paused while refused', async () => {
    context.state = 'suspended';
    context.autoplay = 'rejected';
    const started = engine.setLayer('track', calm, 1);
    await loaded(calm);
    await expect(started).resolves.toBeUndefined();
    expect(status()).toEqual({ status: 'paused', refused: true });
    expect(engine.getState().layers.map((layer) => layer.status)).toEqual(['ready']);

    await expect(engine.resume()).resolves.toBeUndefined();
    expect(status()).toEqual({ status: 'paused', refused: true });

    context.autoplay = 'allowed';
    await engine.resume();
    expect(status()).toEqual({ status: 'playing', refused: false });
  });

  it('stops a session Safari refused without a rejection of its own (Stop, or a saved sound replacing it)', async () => {
    context.state = 'suspended';
    context.autoplay = 'rejected';
    await engine.setLayer('binaural', beat, 0.5);
    expect(status()).toEqual({ status: 'paused', refused: true });
    engine.stop();
    await pass(1);
    expect(status()).toEqual({ status: 'stopped', refused: false });
  });

  it('plays on when a start taken for refused was only slow', async () => {
    context.state = 'suspended';
    context.autoplay = 'pending';
    const started = engine.setLayer('isochronic', { kind: 'isochronic', carrierHz: 200, pulseHz: 10 }, 0.5);
    await pass(START_WAIT_MS / 1000 + 0.1);
    await started;
    expect(status()).toEqual({ status: 'paused', refused: true });
    context.run();
    await pass(0.1);
    expect(status()).toEqual({ status: 'playing', refused: false });
  });

  it('pauses when the system stops the context while it plays, and plays again on the press of play', async () => {
    await engine.setLayer('binaural', beat, 0.5);
    expect(status()).toEqual({ status: 'playing', refused: false });
    // iOS locking the screen, or a call.
    context.setState('interrupted');
    expect(status()).toEqual({ status: 'paused', refused: false });
    await engine.resume();
    expect(status()).toEqual({ status: 'playing', refused: false });
    // Its own pause suspends the context later: no change of its own follows.
    engine.pause();
    await pass(1);
    expect(context.state).toBe('suspended');
    expect(status()).toEqual({ status: 'paused', refused: false });
  });
});

describe('a start that comes after calls to the server (docs/decisions/075-a-start-inside-the-press-that-asked-for-it.md)', () => {
  const status = () => ({ status: engine.getState().status, refused: engine.getState().refused });
  /** The server answers some time after the press: the press's handlers have long returned. */
  const serverAnswers = () => pass(0.3);

  beforeEach(() => {
    // Safari: the context runs only when asked inside the press.
    context.state = 'suspended';
    context.autoplay = 'press';
  });

  it('plays when the press primed the context, though the start comes after the server’s answer', async () => {
    duringPress(() => engine.prime());
    await serverAnswers();
    await engine.setLayer('binaural', beat, 0.5);
    expect(status()).toEqual({ status: 'playing', refused: false });
    expect(context.state).toBe('running');
  });

  it('is refused without the prime, as Safari refuses a start outside the press', async () => {
    await serverAnswers();
    await engine.setLayer('binaural', beat, 0.5);
    expect(status()).toEqual({ status: 'paused', refused: true });
  });

  it('lets the audio device sleep again when nothing started after the prime', async () => {
    duringPress(() => engine.prime());
    await pass(0.1);
    expect(context.state).toBe('running');
    await pass(PRIME_IDLE_MS / 1000);
    expect(context.state).toBe('suspended');
    // Unlocked by the press, it still plays without one.
    await engine.setLayer('binaural', beat, 0.5);
    expect(status()).toEqual({ status: 'playing', refused: false });
  });
});

describe('a prime whose start did not come (docs/decisions/080-a-primed-sound-sleeps-when-nothing-plays.md)', () => {
  const status = () => ({ status: engine.getState().status, refused: engine.getState().refused });
  const serverAnswers = () => pass(0.3);

  beforeEach(() => {
    context.state = 'suspended';
    context.autoplay = 'press';
  });

  /** A session started by a press, then paused: its context asleep. */
  async function pausedSession() {
    await duringPress(() => engine.setLayer('binaural', beat, 0.5));
    await pass(1);
    engine.pause();
    await pass(1);
    expect(context.state).toBe('suspended');
  }

  it('puts a paused session’s context back to sleep as soon as the start it was primed for failed', async () => {
    await pausedSession();
    const release = duringPress(() => engine.prime());
    expect(context.state).toBe('running');
    // The server refused the Open: nothing new plays.
    await serverAnswers();
    release();
    expect(context.state).toBe('suspended');
    expect(status()).toEqual({ status: 'paused', refused: false });
    await pass(PRIME_IDLE_MS / 1000);
    expect(context.state).toBe('suspended');
    // Its play button still plays it.
    await engine.resume();
    expect(status()).toEqual({ status: 'playing', refused: false });
  });

  it('lets a stopped engine’s context sleep when the prime is released, not PRIME_IDLE_MS later', async () => {
    const release = duringPress(() => engine.prime());
    await serverAnswers();
    release();
    expect(context.state).toBe('suspended');
  });

  it('keeps the context running for the start that came, and for another press’s start still awaited', async () => {
    const first = duringPress(() => engine.prime());
    const second = duringPress(() => engine.prime());
    await serverAnswers();
    first();
    expect(context.state).toBe('running');
    await engine.setLayer('binaural', beat, 0.5);
    second();
    second();
    expect(context.state).toBe('running');
    expect(status()).toEqual({ status: 'playing', refused: false });
  });

  it('does not let a pause just before the press put the primed context to sleep', async () => {
    await duringPress(() => engine.setLayer('binaural', beat, 0.5));
    engine.pause();
    const release = duringPress(() => engine.prime());
    await serverAnswers();
    expect(context.state).toBe('running');
    await engine.setLayer('isochronic', { kind: 'isochronic', carrierHz: 200, pulseHz: 10 }, 0.5, { exclusive: true });
    release();
    expect(status()).toEqual({ status: 'playing', refused: false });
    expect(context.state).toBe('running');
  });
});

describe('a press whose start is refused, in Chromium (docs/decisions/085-a-start-belongs-to-its-press-and-its-portal-visit.md)', () => {
  const status = () => ({ status: engine.getState().status, refused: engine.getState().refused });
  const serverAnswers = () => pass(0.3);

  beforeEach(() => {
    // Chromium before any press of the person's: resume() is left unanswered; a press's runs the context.
    context.state = 'suspended';
    context.autoplay = 'pending';
  });

  it('leaves a refused session paused and its context asleep when the start the press primed for is refused', async () => {
    const started = engine.setLayer('binaural', beat, 0.5);
    await pass(START_WAIT_MS / 1000 + 0.1);
    await started;
    expect(status()).toEqual({ status: 'paused', refused: true });

    // Open on a saved subliminal: the press primes, and the context runs.
    const release = duringPress(() => engine.prime());
    await pass(0.01);
    expect(context.state).toBe('running');
    // The server refused the Open (the plan's limit): nothing new plays.
    await serverAnswers();
    release();
    await pass(1);
    expect(status()).toEqual({ status: 'paused', refused: true });
    expect(context.state).toBe('suspended');
    // Its play button still plays it.
    await engine.resume();
    expect(status()).toEqual({ status: 'playing', refused: false });
  });

  it('plays the refused session when the start the press primed for is that session’s', async () => {
    const started = engine.setLayer('binaural', beat, 0.5);
    await pass(START_WAIT_MS / 1000 + 0.1);
    await started;
    const release = duringPress(() => engine.prime());
    await serverAnswers();
    // The press's start joins the session (as "Speak the playlist" adds its voice).
    await engine.setLayer('isochronic', { kind: 'isochronic', carrierHz: 200, pulseHz: 10 }, 0.5);
    release();
    expect(status()).toEqual({ status: 'playing', refused: false });
    expect(context.state).toBe('running');
  });

  it('puts the context back to sleep when the browser answers a prime given up before', async () => {
    // A prime the browser has not answered yet (outside a press of its own here, so the test answers it).
    const release = engine.prime();
    await serverAnswers();
    release();
    expect(context.state).toBe('suspended');
    context.run();
    await pass(0.01);
    expect(context.state).toBe('suspended');
    expect(status()).toEqual({ status: 'stopped', refused: false });
  });
});

describe('a start waiting for the browser (docs/decisions/075-a-start-inside-the-press-that-asked-for-it.md)', () => {
  /** Every `starting` the engine published, in order. */
  function startingSeen() {
    const seen: boolean[] = [];
    engine.subscribe(() => seen.push(engine.getState().starting));
    return seen;
  }

  it('says it is starting once the wait is noticeable, and no longer once the browser refused', async () => {
    context.state = 'suspended';
    context.autoplay = 'pending';
    const started = engine.setLayer('binaural', beat, 0.5);
    await pass(STARTING_SHOWN_MS / 1000 - 0.05);
    expect(engine.getState()).toMatchObject({ status: 'playing', starting: false });
    await pass(0.1);
    expect(engine.getState()).toMatchObject({ status: 'playing', starting: true });
    await pass(START_WAIT_MS / 1000);
    await started;
    expect(engine.getState()).toMatchObject({ status: 'paused', refused: true, starting: false });
  });

  it('lets the device sleep when a session stopped while its start waited is answered after all', async () => {
    for (const answeredAfter of [0.2, START_WAIT_MS / 1000 + 0.5]) {
      context.state = 'suspended';
      context.autoplay = 'pending';
      const started = engine.setLayer('binaural', beat, 0.5);
      await pass(0.1);
      engine.stop();
      await pass(answeredAfter);
      // The browser lets the context run at last (a press elsewhere on the page).
      context.run();
      await started;
      await pass(1);
      expect(engine.getState().status, `answered after ${answeredAfter} s`).toBe('stopped');
      expect(context.state, `answered after ${answeredAfter} s`).toBe('suspended');
    }
  });

  it('says it is starting until a slow context runs, then plays', async () => {
    context.state = 'suspended';
    context.autoplay = 'pending';
    const started = engine.setLayer('binaural', beat, 0.5);
    await pass(0.3);
    expect(engine.getState().starting).toBe(true);
    context.run();
    await started;
    expect(engine.getState()).toMatchObject({ status: 'playing', refused: false, starting: false });
  });

  it('never says it is starting when the browser runs the sound at once', async () => {
    context.state = 'suspended';
    const seen = startingSeen();
    await engine.setLayer('binaural', beat, 0.5);
    await pass(1);
    engine.pause();
    await pass(1);
    await engine.resume();
    await pass(1);
    expect(engine.getState().status).toBe('playing');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((starting) => !starting)).toBe(true);
  });
});
