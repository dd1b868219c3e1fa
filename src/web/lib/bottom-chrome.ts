import { useEffect, useSyncExternalStore, type RefObject } from 'react';

// What the portal keeps over the bottom of the screen (docs/product/screens.md#portal-bar): the
// mini-player and a subliminal session in its corner. Their heights are published as CSS variables on
// the document, so that nothing on screen hides a control: the corner sits above the mini-player, a
// page's own sticky bar at the bottom (the player's Start/Stop, an editor's Save) sits above both,
// and the portal's main area keeps room at its end for the corner, which is fixed, so the end of a
// page can scroll clear of it.
//   --portal-bottom-chrome  the mini-player's height, plus the corner's and a gap while it shows
//   --portal-corner-space   the corner's height and a gap while it shows, else 0

/** The space kept between the stacked bars, in px (Tailwind's 3, 0.75 rem). */
export const BOTTOM_GAP_PX = 12;

const heights = { miniPlayer: 0, corner: 0 };
type Part = keyof typeof heights;
const listeners = new Set<() => void>();

function publish() {
  const corner = heights.corner > 0 ? heights.corner + BOTTOM_GAP_PX : 0;
  const style = document.documentElement.style;
  style.setProperty('--portal-bottom-chrome', `${heights.miniPlayer + corner}px`);
  style.setProperty('--portal-corner-space', `${corner}px`);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Publishes `part`'s height while `shown` (its element rendered), following it as it wraps; 0 once it goes. */
export function useBottomChromePart(part: Part, element: RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    const node = element.current;
    if (!shown || !node) return;
    const measure = () => {
      if (heights[part] === node.offsetHeight) return;
      heights[part] = node.offsetHeight;
      publish();
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      heights[part] = 0;
      publish();
    };
  }, [part, element, shown]);
}

/** The mini-player's height, 0 while it does not show: the corner session sits above it. */
export function useMiniPlayerHeight(): number {
  return useSyncExternalStore(
    subscribe,
    () => heights.miniPlayer,
    () => 0,
  );
}
