import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * The ref of a textarea of one line's height, made as tall as its text wrapped at its width, up to its max-height,
 * and keeps it so as the text or the width changes (a phone turned, a panel resized).
 */
export function useFitsItsText(text: string, shown: boolean): RefObject<HTMLTextAreaElement | null> {
  const field = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const node = field.current;
    if (!shown || !node) return;
    const fit = () => {
      node.style.height = 'auto';
      const borders = node.offsetHeight - node.clientHeight;
      const wanted = node.scrollHeight + borders;
      node.style.height = `${wanted}px`;
      // Past its max-height (a long description on a phone) it scrolls; under it, no scroll bar takes a line's width.
      node.style.overflowY = wanted > node.offsetHeight ? 'auto' : 'hidden';
    };
    fit();
    let width = node.clientWidth;
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (node.clientWidth === width) return;
            width = node.clientWidth;
            fit();
          });
    observer?.observe(node);
    return () => observer?.disconnect();
  }, [text, shown]);
  return field;
}
