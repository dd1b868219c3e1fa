import { useEffect, useState, useSyncExternalStore } from 'react';
import { soundEngine } from './app-engine';
import type { LayerId } from './sound-engine';

/** The engine's state (status, layers, volume, timer), re-rendering on every change. */
export function useSoundEngine() {
  return useSyncExternalStore(soundEngine.subscribe, soundEngine.getState);
}

/** Whether a layer plays now, and the layer itself. */
export function useLayer(id: LayerId) {
  const state = useSoundEngine();
  return state.layers.find((layer) => layer.id === id) ?? null;
}

/**
 * The session's clock: seconds played (pauses excluded), the sleep timer's time left and whether it
 * fades. The engine keeps it; the mini-player, the session screen and the practice history all read
 * this one clock, so they never disagree.
 */
export const readSessionClock = () => ({
  elapsed: soundEngine.elapsed(),
  remaining: soundEngine.remaining(),
  fading: soundEngine.fading(),
});

/** Reads the engine's clocks (elapsed, remaining, track position), re-rendering 4 times a second while `active`. */
export function useEngineClock<T>(read: () => T, active: boolean): T {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTicks((ticks) => ticks + 1), 250);
    return () => clearInterval(timer);
  }, [active]);
  return read();
}
