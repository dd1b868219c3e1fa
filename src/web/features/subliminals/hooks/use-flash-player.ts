import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
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

  const show = useCallback((slot: number) => {
    const { playlist: messages, random: rand } = latest.current;
    const message = messages[Math.floor(rand() * messages.length)];
    if (!message) return;
    setFlash({ key: slot, text: message.message_text, x: rand(), y: rand() });
  }, []);

  useEffect(() => {
    if (!playing) return;
    const scheduler: FlashScheduler = startFlashScheduler(
      { displayInterval: settings.displayInterval, flashSpeed: settings.flashSpeed },
      { show, hide: () => setFlash(null) },
      clockRef.current,
    );
    return () => {
      scheduler.stop();
      setFlash(null);
    };
  }, [playing, settings.displayInterval, settings.flashSpeed, show]);

  return playing ? flash : null;
}
