import { describe, expect, it } from 'vitest';
import { FLASH_MARGIN, FLASH_MIN_FONT_PX, fittingFontSize, flashMaxWidth, placeFlash } from './flash-placement';

const area = { width: 390, height: 700 };
const inside = (place: { left: number; top: number }, box: { width: number; height: number }) => {
  expect(place.left).toBeGreaterThanOrEqual(0);
  expect(place.top).toBeGreaterThanOrEqual(0);
  expect(place.left + box.width).toBeLessThanOrEqual(area.width);
  expect(place.top + box.height).toBeLessThanOrEqual(area.height);
};

describe('placeFlash', () => {
  it('puts the box at a fraction of the free space, inside the margins', () => {
    const box = { width: 190, height: 100 };
    expect(placeFlash({ x: 0, y: 0 }, box, area)).toEqual({ left: FLASH_MARGIN, top: FLASH_MARGIN });
    expect(placeFlash({ x: 1, y: 1 }, box, area)).toEqual({
      left: area.width - FLASH_MARGIN - box.width,
      top: area.height - FLASH_MARGIN - box.height,
    });
    expect(placeFlash({ x: 0.5, y: 0.5 }, box, area)).toEqual({ left: 100, top: 300 });
  });

  it('keeps every box wholly inside the area, wherever it is asked to go', () => {
    for (const box of [
      { width: 10, height: 10 },
      { width: 366, height: 40 },
      { width: 389, height: 699 },
    ]) {
      for (const x of [0, 0.3, 0.999, 1]) for (const y of [0, 0.7, 1]) inside(placeFlash({ x, y }, box, area), box);
    }
  });

  it('reads out-of-range or missing fractions as the nearest edge or the middle', () => {
    const box = { width: 100, height: 100 };
    expect(placeFlash({ x: -3, y: 7 }, box, area)).toEqual(placeFlash({ x: 0, y: 1 }, box, area));
    expect(placeFlash({ x: Number.NaN, y: 0 }, box, area).left).toBe(placeFlash({ x: 0.5, y: 0 }, box, area).left);
  });

  it('starts a box larger than the area at its top-left margin, never off the top or left', () => {
    expect(placeFlash({ x: 1, y: 1 }, { width: 500, height: 900 }, area)).toEqual({ left: 0, top: 0 });
    expect(placeFlash({ x: 1, y: 1 }, { width: 380, height: 690 }, area)).toEqual({ left: 10, top: 10 });
  });

  it('lets a message lay out as wide as the area minus its margins (no narrow column)', () => {
    expect(flashMaxWidth(390)).toBe(390 - 2 * FLASH_MARGIN);
    expect(flashMaxWidth(20)).toBe(10);
  });
});

describe('fittingFontSize', () => {
  // A message whose height grows with the square of its size (lines get longer and more numerous).
  const heightAt = (fontPx: number) => fontPx * fontPx;

  it('keeps the chosen size when the message fits', () => {
    expect(fittingFontSize(40, 2000, heightAt)).toBe(40);
  });

  it('steps down to the largest size that fits the room', () => {
    const size = fittingFontSize(70, 700, heightAt);
    expect(heightAt(size)).toBeLessThanOrEqual(700);
    expect(size).toBeGreaterThan(20);
    expect(size).toBeLessThan(70);
  });

  it('stops at the smallest size however long the message', () => {
    expect(fittingFontSize(70, 10, heightAt)).toBe(FLASH_MIN_FONT_PX);
  });
});
