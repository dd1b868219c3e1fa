import { useEffect, type RefObject } from 'react';

// What the portal keeps over the bottom of the screen (docs/product/screens.md#portal-bar): the
// mini-player and a subliminal session in its corner. Their heights are published as CSS variables on
// the document, so that nothing on screen hides a control: the corner sits above the mini-player, a
// page's own sticky bar at the bottom (the player's Start/Stop, an editor's Save) sits above both,
// and the portal's main area keeps room at its end for the corner, which is fixed, so the end of a
// page can scroll clear of it. On a phone the corner is a strip across the screen resting on the
// mini-player, the two one dock with no gap between them; from WIDE up it is a window with a gap.
//   --portal-bottom-chrome  the mini-player's height, plus the corner's (and its gap) while it shows
//   --portal-corner-space   the corner's height and its gap while it shows, else 0
//   --portal-corner-bottom  where the corner's bottom edge sits: on the mini-player, or a gap above it

/** The space kept between the stacked bars, in px (Tailwind's 3, 0.75 rem). */
const BOTTOM_GAP_PX = 12;
/** Tailwind's `sm`: from here up the corner is a window, below it a strip on the mini-player. */
const WIDE = '(min-width: 40rem)';

const heights = { miniPlayer: 0, corner: 0 };
type Part = keyof typeof heights;
let wide: MediaQueryList | undefined;

function publish() {
  const gap = wide?.matches ? BOTTOM_GAP_PX : 0;
  const corner = heights.corner > 0 ? heights.corner + gap : 0;
  const style = document.documentElement.style;
  style.setProperty('--portal-bottom-chrome', `${heights.miniPlayer + corner}px`);
  style.setProperty('--portal-corner-space', `${corner}px`);
  style.setProperty('--portal-corner-bottom', `${heights.miniPlayer + gap}px`);
}

/** Publishes `part`'s height while `shown` (its element rendered), following it as it wraps; 0 once it goes. */
export function useBottomChromePart(part: Part, element: RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    const node = element.current;
    if (!shown || !node) return;
    if (!wide) {
      wide = window.matchMedia(WIDE);
      wide.addEventListener('change', publish);
    }
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
