// Times the player's flashes against display frames. Every show is due at start + k·interval and
// every hide at that show's due time + flashSpeed, computed from the start time (never from the
// previous tick), so frame jitter and slow frames never accumulate into drift. Every show is painted
// in at least one frame.

export interface FrameClock {
  now(): number;
  requestFrame(callback: () => void): number;
  cancelFrame(handle: number): void;
}

export interface FlashTiming {
  displayInterval: number;
  flashSpeed: number;
}

export interface FlashHandlers {
  /** A message is due; `slot` counts shows from 0. */
  show(slot: number): void;
  hide(): void;
}

export interface FlashScheduler {
  stop(): void;
}

export const browserFrameClock = (): FrameClock => ({
  now: () => performance.now(),
  requestFrame: (callback) => requestAnimationFrame(() => callback()),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
});

export function startFlashScheduler(timing: FlashTiming, handlers: FlashHandlers, clock: FrameClock): FlashScheduler {
  const startedAt = clock.now();
  let nextSlot = 0;
  let hideAt: number | undefined;
  let handle: number | undefined;
  let stopped = false;

  const tick = () => {
    if (stopped) return;
    const now = clock.now();
    if (hideAt !== undefined && now >= hideAt) {
      hideAt = undefined;
      handlers.hide();
    }
    const due = startedAt + nextSlot * timing.displayInterval;
    if (now >= due) {
      // After a long stall (a background tab), skip the missed slots rather than burst through them.
      const slot = Math.floor((now - startedAt) / timing.displayInterval);
      const slotStart = startedAt + slot * timing.displayInterval;
      nextSlot = slot + 1;
      handlers.show(slot);
      // Hidden at the earliest on the next frame: a show that came late (a slow frame, a busy
      // machine) is still painted once, never shown and hidden unseen within one frame.
      hideAt = slotStart + Math.min(timing.flashSpeed, timing.displayInterval);
    }
    handle = clock.requestFrame(tick);
  };
  tick();

  return {
    stop() {
      stopped = true;
      if (handle !== undefined) clock.cancelFrame(handle);
      if (hideAt !== undefined) handlers.hide();
      hideAt = undefined;
    },
  };
}
