import { useCallback, useEffect, useRef, useState } from 'react';
import { SAVE_PROGRESS } from '@web/lib/constants';

/**
 * Upload progress: the browser's real figure when it reports one; until then (or if it never
 * does) a simulated rise of +5 every 200 ms, capped at 90, so the bar never looks stuck.
 */
export function useSaveProgress() {
  const [progress, setProgress] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const real = useRef(false);

  const stopTimer = () => {
    if (timer.current !== undefined) clearInterval(timer.current);
    timer.current = undefined;
  };

  const begin = useCallback(() => {
    stopTimer();
    real.current = false;
    setProgress(0);
    timer.current = setInterval(() => {
      if (real.current) return;
      setProgress((value) => Math.min(SAVE_PROGRESS.max, (value ?? 0) + SAVE_PROGRESS.step));
    }, SAVE_PROGRESS.everyMs);
  }, []);

  const report = useCallback((percent: number) => {
    real.current = true;
    stopTimer();
    setProgress(percent);
  }, []);

  const end = useCallback(() => {
    stopTimer();
    setProgress(null);
  }, []);

  useEffect(() => stopTimer, []);
  return { progress, begin, report, end };
}
