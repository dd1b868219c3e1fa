import { useCallback, useEffect, useRef, useState } from 'react';
import { HOME } from '@shared/constants';

/**
 * The item a modal shows. Closing hides the modal at once but keeps the item until
 * HOME.modalClearDelayMs later, so the closing fade still has its content.
 */
export function useModalSelection<T>() {
  const [selected, setSelected] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const clearTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(clearTimer.current), []);

  const select = useCallback((item: T) => {
    window.clearTimeout(clearTimer.current);
    setSelected(item);
    setOpen(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    window.clearTimeout(clearTimer.current);
    clearTimer.current = window.setTimeout(() => setSelected(null), HOME.modalClearDelayMs);
  }, []);

  return { selected, open, select, close };
}
