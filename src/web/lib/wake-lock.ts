import { useEffect } from 'react';

/**
 * Keeps the screen on while `active` (the Screen Wake Lock API), so a phone's auto-lock does not
 * interrupt what needs watching but no touching (docs/product/screens.md#session-screen). The browser
 * releases the lock when the tab is hidden; it is taken again when the tab shows. Where the API is
 * missing or refuses (no user activation, battery saver), nothing happens and nothing is said.
 */
export function useScreenWakeLock(active: boolean): void {
  useEffect(() => {
    const wakeLock = typeof navigator === 'undefined' ? undefined : navigator.wakeLock;
    if (!active || !wakeLock) return;
    let lock: WakeLockSentinel | null = null;
    let asking = false;
    let done = false;
    const take = () => {
      if (done || asking || document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      asking = true;
      wakeLock.request('screen').then(
        (taken) => {
          asking = false;
          if (done) void taken.release().catch(() => undefined);
          else lock = taken;
        },
        () => (asking = false),
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      done = true;
      document.removeEventListener('visibilitychange', take);
      if (lock && !lock.released) void lock.release().catch(() => undefined);
    };
  }, [active]);
}
