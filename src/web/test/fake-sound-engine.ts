import type { SoundEngineState } from '@web/lib/audio/sound-engine';

// jsdom has no Web Audio: the app's engine stands in with its state and its audio clock (seconds, frozen
// while paused: a test moves `engine.now`). One per test file (each file has its modules of its own):
//   vi.mock('@web/lib/audio/app-engine', async () => ({
//     soundEngine: (await import('@web/test/fake-sound-engine')).fakeSoundEngine,
//   }));

const listeners = new Set<() => void>();

export const fakeEngine = {
  state: { status: 'stopped', volume: 0.8, layers: [], timer: null, ended: null } as SoundEngineState,
  now: 0,
  /** Changes the engine's state as playing would, and tells its subscribers. */
  set(next: Partial<SoundEngineState>) {
    fakeEngine.state = { ...fakeEngine.state, ...next };
    for (const listener of listeners) listener();
  },
};

export const fakeSoundEngine = {
  getState: () => fakeEngine.state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  now: () => fakeEngine.now,
  elapsed: () => fakeEngine.now,
  remaining: () => null,
  fading: () => false,
  stop: () => {
    if (fakeEngine.state.status !== 'stopped') fakeEngine.set({ status: 'stopped', layers: [] });
  },
};
