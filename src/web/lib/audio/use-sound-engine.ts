import { useEffect, useState, useSyncExternalStore } from 'react';
import { soundEngine } from './app-engine';
import { sessionEnds } from './app-session-ends';
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
 * The session's clock: seconds heard (pauses excluded), the sleep timer's time left and whether it
 * fades. The elapsed time is that of the listening session under way as history will record it (by the
 * engine's clock, starting again when another sound takes the place of what played: decision 036);
 * the mini-player, the session screen and the practice history all read this one clock, so they never
 * disagree.
 */
export const readSessionClock = () => ({
  elapsed: sessionEnds.elapsed(),
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
