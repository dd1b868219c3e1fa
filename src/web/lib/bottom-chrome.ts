import { useEffect, useLayoutEffect, type RefObject } from 'react';

// What the portal keeps over the bottom of the screen (docs/product/screens.md#portal-bar): the
// mini-player and a subliminal session in its corner. Their heights are published as CSS variables on
// the document, so that nothing on screen hides a control: the corner sits above the mini-player, a
// page's own sticky bar at the bottom (the player's Start/Stop, an editor's Save) sits above both,
// and the portal's main area keeps room at its end for the corner, which is fixed, so the end of a
// page can scroll clear of it. On a phone the corner is a strip across the screen resting on the
// mini-player, the two one dock with no gap between them; from WIDE up it is a window with a gap.
// From DESK up the player's Start/Stop bar shares the bottom row with that window instead, ending a gap
// before it (useBesideCorner): the three take less of the screen's height.
//   --portal-bottom-chrome  the mini-player's height, plus the corner's (and its gap) while it shows
//   --portal-mini-player    the mini-player's height (0 when it is not there)
//   --portal-beside-corner  from DESK up, the margin a bar using useBesideCorner keeps at its end
//   --portal-corner-space   the corner's height and its gap while it shows, else 0
//   --portal-corner-bottom  where the corner's bottom edge sits: on the mini-player, or a gap above it
//   --portal-page-bar       a page's own bar stuck above them (the player's Start/Stop): its height and the
//                           gap under it, so that a control reached with Tab stops clear of it too (styles.css)

/** The space kept between the stacked bars, in px (Tailwind's 3, 0.75 rem). */
const BOTTOM_GAP_PX = 12;
/** Tailwind's `sm`: from here up the corner is a window, below it a strip on the mini-player. */
const WIDE = '(min-width: 40rem)';
/** Tailwind's `lg`: from here up a bar using useBesideCorner sits beside the corner's window, not above it. */
export const DESK = '(min-width: 64rem)';

const heights = { miniPlayer: 0, corner: 0, pageBar: 0 };
type Part = keyof typeof heights;
let wide: MediaQueryList | undefined;
/** The corner's window, while it shows: what a bar beside it measures against. */
let cornerNode: HTMLElement | null = null;
const listeners = new Set<() => void>();

/**
 * Sets a variable on the document only when its value changes (unset counts as 0px, every use's fallback): a
 * change of a variable on the root styles the whole page again, a second or more at a phone's speed on a page
 * of thousands of elements (the player with its own messages: bench/player.mjs).
 */
function setRootVariable(name: string, value: string) {
  const style = document.documentElement.style;
  if ((style.getPropertyValue(name) || '0px') !== value) style.setProperty(name, value);
}

function publish() {
  const gap = wide?.matches ? BOTTOM_GAP_PX : 0;
  const corner = heights.corner > 0 ? heights.corner + gap : 0;
  setRootVariable('--portal-bottom-chrome', `${heights.miniPlayer + corner}px`);
  setRootVariable('--portal-mini-player', `${heights.miniPlayer}px`);
  setRootVariable('--portal-corner-space', `${corner}px`);
  setRootVariable('--portal-corner-bottom', `${heights.miniPlayer + gap}px`);
  setRootVariable('--portal-page-bar', `${heights.pageBar > 0 ? heights.pageBar + BOTTOM_GAP_PX : 0}px`);
  for (const listener of listeners) listener();
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
    if (part === 'corner') cornerNode = node;
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
      if (part === 'corner') cornerNode = null;
      heights[part] = 0;
      publish();
    };
  }, [part, element, shown]);
}

/**
 * The room a bar spanning its parent's width leaves at its end so that, from DESK up, it ends a gap before
 * the corner's window (0 when the window is not there or already clear of the bar's parent).
 */
export function roomForCorner(parentRight: number, cornerLeft: number | null): number {
  return cornerLeft === null ? 0 : Math.max(0, Math.ceil(parentRight - cornerLeft + BOTTOM_GAP_PX));
}

/**
 * From DESK up, publishes the right margin that keeps `element` (a page's bar stuck to the bottom, spanning
 * its parent's width) clear of the corner's window, as `--portal-beside-corner`, so that the two can share
 * the bottom row: the bar's own classes take that margin and put it on the mini-player there
 * (`lg:mr-[var(--portal-beside-corner,0px)] lg:bottom-[calc(var(--portal-mini-player,0px)+0.75rem)]`).
 */
export function useBesideCorner(element: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const node = element.current;
    const parent = node?.parentElement;
    if (!node || !parent) return;
    const desk = window.matchMedia(DESK);
    const place = () => {
      const cornerLeft = desk.matches && cornerNode ? cornerNode.getBoundingClientRect().left : null;
      // Without the corner's window nothing is measured: measuring here, as the page first renders, laid out
      // the whole new page in this effect, before its first frame did so again.
      const room = cornerLeft === null ? 0 : roomForCorner(parent.getBoundingClientRect().right, cornerLeft);
      setRootVariable('--portal-beside-corner', `${room}px`);
    };
    place();
    listeners.add(place);
    window.addEventListener('resize', place);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    observer?.observe(parent);
    return () => {
      listeners.delete(place);
      window.removeEventListener('resize', place);
      observer?.disconnect();
      setRootVariable('--portal-beside-corner', '0px');
    };
  }, [element]);
}
