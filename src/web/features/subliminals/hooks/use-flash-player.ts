import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Message } from '@shared/contract';
import { browserFrameClock, startFlashScheduler, type FlashScheduler, type FrameClock } from '../lib/flash-scheduler';
import type { PlayerSettings } from '../lib/player-storage';

export interface Flash {
  key: number;
  text: string;
  /** Fractions of the free space (0–1); the overlay turns them into a position fully on screen. */
  x: number;
  y: number;
}

/** Runs the flashing while `playing`; returns the message on screen, if any. */
export function useFlashPlayer(
  playlist: readonly Message[],
  settings: PlayerSettings,
  playing: boolean,
  clock: FrameClock = browserFrameClock(),
  random: () => number = Math.random,
): Flash | null {
  const [flash, setFlash] = useState<Flash | null>(null);
  const latest = useRef({ playlist, random });
  useLayoutEffect(() => {
    latest.current = { playlist, random };
  }, [playlist, random]);
  const clockRef = useRef(clock);
  // The scheduler's first show and its last hide run inside this hook's effect, where React is
  // already committing and flushSync is not allowed; every other change comes from a frame callback.
  const inEffect = useRef(false);
  const commit = useCallback((update: () => void) => (inEffect.current ? update() : flushSync(update)), []);

  const show = useCallback(
    (slot: number) => {
      const { playlist: messages, random: rand } = latest.current;
      const message = messages[Math.floor(rand() * messages.length)];
      if (!message) return;
      // Committed in this very frame (not in a task after its paint), so a message shows and hides
      // on the frame the scheduler chose (e2e/session-screen.spec.ts measures it).
      const next = { key: slot, text: message.message_text, x: rand(), y: rand() };
      commit(() => setFlash(next));
    },
    [commit],
  );

  useEffect(() => {
    if (!playing) return;
    inEffect.current = true;
    const scheduler: FlashScheduler = startFlashScheduler(
      { displayInterval: settings.displayInterval, flashSpeed: settings.flashSpeed },
      { show, hide: () => commit(() => setFlash(null)) },
      clockRef.current,
    );
    inEffect.current = false;
    return () => {
      inEffect.current = true;
      scheduler.stop();
      inEffect.current = false;
      setFlash(null);
    };
  }, [playing, settings.displayInterval, settings.flashSpeed, show, commit]);

  return playing ? flash : null;
}
