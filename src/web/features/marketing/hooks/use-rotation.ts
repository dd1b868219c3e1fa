import { useEffect, useState } from 'react';

/**
 * Cycles an index 0 … count-1 every `intervalMs` (the hero's backgrounds).
 * Paused while `paused` is true (reduced motion): the index then stays where it is.
 */
export function useRotation(count: number, intervalMs: number, paused: boolean): number {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (paused || count < 2) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => window.clearInterval(timer);
  }, [count, intervalMs, paused]);
  return paused ? 0 : index;
}
