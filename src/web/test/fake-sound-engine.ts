import { vi } from 'vitest';
import { planSleepTimer } from '@web/lib/audio/mixer';
import {
  STOPPED_ENGINE_STATE as STOPPED,
  type LayerId,
  type LayerSource,
  type LayerState,
  type SoundEngineState,
} from '@web/lib/audio/sound-engine';
import { inPress } from './fake-audio-context';

// jsdom has no Web Audio: the app's engine stands in with its state, its calls and its audio clock
// (seconds, frozen while paused: a test moves `engine.now`). It keeps the real engine's rules a screen
// relies on: `exclusive` plays one sound at a time, the last layer removed stops the session, a stop
// tells which track ended, and it ticks as the real engine does: every 250 ms while a session is on (on
// the test's timers, fake or real), a tick that ends a sleep timer run out (`now` past its end) and
// otherwise publishes nothing, so a render count over ticks sees what a screen does in the app.
// One per test file (each file has its modules of its own):
//   vi.mock('@web/lib/audio/app-engine', async () => ({
//     soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
//   }));
// and `fakeEngine.reset()` after each test (with vi.clearAllMocks() for the calls).

const listeners = new Set<() => void>();
/** The real engine's tick (SoundEngine's ticker). */
const TICK_MS = 250;
let ticker: ReturnType<typeof setInterval> | undefined;

export const fakeEngine = {
  state: STOPPED,
  now: 0,
  /**
   * While true, a track set by `setLayer` stays 'loading' and its call waits until the test settles it
   * with `pending` (loaded: 'ready'; failed: removed, as never played); else it is 'ready' at once.
   */
  holdTracks: false,
  pending: undefined as { resolve(): void; reject(error: unknown): void } | undefined,
  /**
   * While true the browser lets sound start only inside a person's press, as Safari does: a start or resume
   * outside one is refused (paused, `refused`) unless a press has primed the engine or started it before.
   */
  pressOnly: false,
  /** A press has let the sound start (`prime`, or a start inside one): it may start outside one from now on. */
  unlocked: false,
  /** Primes not yet released: each control that primes releases its prime once its start came or will not. */
  primed: 0,
  /** Changes the engine's state as playing would, and tells its subscribers. */
  set(next: Partial<SoundEngineState>) {
    fakeEngine.state = { ...fakeEngine.state, ...next };
    // A session on: the engine's ticker runs, as from its start to its stop in the real one.
    if (fakeEngine.state.status === 'stopped') {
      clearInterval(ticker);
      ticker = undefined;
    } else ticker ??= setInterval(tick, TICK_MS);
    for (const listener of listeners) listener();
  },
  /** Back to a stopped engine at 0 s that loads at once (the calls are cleared by vi.clearAllMocks()). */
  reset() {
    fakeEngine.now = 0;
    fakeEngine.holdTracks = false;
    fakeEngine.pending = undefined;
    fakeEngine.pressOnly = false;
    fakeEngine.unlocked = false;
    fakeEngine.primed = 0;
    fakeEngine.set(STOPPED);
  },
};

/** Whether the browser lets a start or resume run now (see `pressOnly`). */
function allowed() {
  if (inPress()) fakeEngine.unlocked = true;
  return !fakeEngine.pressOnly || fakeEngine.unlocked;
}

const withLayer = (layers: readonly LayerState[], layer: LayerState) => [
  ...layers.filter((other) => other.id !== layer.id),
  layer,
];

function stop(by: 'stop' | 'timer' = 'stop', { neverPlayed = false }: { neverPlayed?: boolean } = {}) {
  if (fakeEngine.state.status === 'stopped') return;
  const track = fakeEngine.state.layers.find((layer) => layer.id === 'track')?.source;
  fakeEngine.set({
    status: 'stopped',
    refused: false,
    layers: [],
    timer: null,
    ended: neverPlayed ? null : { key: track?.kind === 'track' ? track.key : null, by },
  });
}

/** As the real engine's tick: a sleep timer run out ends the session; nothing else is published. */
function tick() {
  const timer = fakeEngine.state.timer;
  if (timer && fakeEngine.now >= timer.endsAt) stop('timer');
}

function removeLayer(id: LayerId, options: { neverPlayed?: boolean } = {}) {
  const layers = fakeEngine.state.layers;
  if (!layers.some((layer) => layer.id === id)) return;
  if (layers.length === 1) stop('stop', options);
  else fakeEngine.set({ layers: layers.filter((layer) => layer.id !== id) });
}

export const fakeSoundEngine = {
  getState: () => fakeEngine.state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  now: () => fakeEngine.now,
  remaining: () => null,
  fading: () => false,
  trackPosition: () => ({ position: 12, duration: 59.98 }),
  setLayer: vi.fn(async (id: LayerId, source: LayerSource, gain: number, options: { exclusive?: boolean } = {}) => {
    const loading = source.kind === 'track' && fakeEngine.holdTracks;
    const layer: LayerState = { id, source, gain, status: loading ? 'loading' : 'ready' };
    const runs = allowed();
    fakeEngine.set({
      status: runs ? 'playing' : 'paused',
      refused: !runs,
      ended: null,
      layers: withLayer(options.exclusive ? [] : fakeEngine.state.layers, layer),
    });
    if (!loading) return;
    await new Promise<void>((resolve, reject) => {
      fakeEngine.pending = {
        resolve: () => {
          fakeEngine.set({ layers: withLayer(fakeEngine.state.layers, { ...layer, status: 'ready' }) });
          resolve();
        },
        reject: (error) => {
          removeLayer(id, { neverPlayed: true });
          reject(error);
        },
      };
    });
  }),
  removeLayer: vi.fn(removeLayer),
  setLayerGain: vi.fn(),
  retune: vi.fn(),
  seekTrack: vi.fn(),
  setVoiceLevel: vi.fn(),
  setVolume: vi.fn((volume: number) => fakeEngine.set({ volume })),
  setSleepTimer: vi.fn((seconds: number | null, fadeSeconds = 60) => {
    if (fakeEngine.state.status === 'stopped') return;
    const timer =
      seconds === null
        ? null
        : {
            ...planSleepTimer(fakeEngine.now, seconds, fadeSeconds),
            seconds,
            fadeSeconds: Math.min(fadeSeconds, seconds),
          };
    fakeEngine.set({ timer });
  }),
  pause: vi.fn(() => {
    if (fakeEngine.state.status === 'playing') fakeEngine.set({ status: 'paused' });
  }),
  resume: vi.fn(async () => {
    if (fakeEngine.state.status === 'paused' && allowed()) fakeEngine.set({ status: 'playing', refused: false });
  }),
  prime: vi.fn(() => {
    allowed();
    fakeEngine.primed++;
    let released = false;
    return () => {
      if (!released) fakeEngine.primed--;
      released = true;
    };
  }),
  stop: vi.fn(stop),
};
