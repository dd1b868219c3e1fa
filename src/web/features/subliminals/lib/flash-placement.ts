// Where a flashed message goes (docs/product/screens.md#session-screen). The message is laid out at
// its natural width first (one line when it fits, else as wide as the screen allows), measured, and
// only then placed: (x, y) are fractions of the free space left around that box, so the whole box is
// always inside the area and a message near the right edge never narrows into a column.

export interface Size {
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
}

/** Keeps a message this far from the area's edges (px), and less on a very small area. */
export const FLASH_MARGIN = 12;

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.5);

/** The widest a message may lay out in an area this wide (it wraps only past this). */
export function flashMaxWidth(areaWidth: number, margin = FLASH_MARGIN): number {
  return Math.max(0, areaWidth - 2 * Math.min(margin, areaWidth / 4));
}

/**
 * The top-left corner of a `box` placed at fractions (x, y) of the free space in `area`. A box larger
 * than the area (a huge font on a tiny window) starts at the margin, so its beginning is readable.
 */
export function placeFlash(
  fraction: { x: number; y: number },
  box: Size,
  area: Size,
  margin = FLASH_MARGIN,
): Placement {
  const axis = (position: number, size: number, room: number) => {
    const edge = Math.min(margin, room / 4);
    const free = room - 2 * edge - size;
    return free > 0 ? edge + clamp01(position) * free : Math.max(0, Math.min(edge, room - size));
  };
  return { left: axis(fraction.x, box.width, area.width), top: axis(fraction.y, box.height, area.height) };
}

/** The smallest a message is made to fit its area (px); below this it stays, starting at the margin. */
export const FLASH_MIN_FONT_PX = 12;

/**
 * The font size a message is shown at: the chosen one, or, when the message laid out at that size
 * would be taller than `room` (a long message at a large size on a phone), the largest of a few steps
 * down at which it is not, so the message stays wholly on the screen. `heightAt` lays the message out
 * at a size and measures it.
 */
export function fittingFontSize(chosen: number, room: number, heightAt: (fontPx: number) => number): number {
  let size = chosen;
  while (size > FLASH_MIN_FONT_PX && heightAt(size) > room) {
    size = Math.max(FLASH_MIN_FONT_PX, Math.floor(size * 0.85));
  }
  return size;
}
