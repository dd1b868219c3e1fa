import { describe, expect, it } from 'vitest';
import { roomForCorner } from './bottom-chrome';

describe('roomForCorner', () => {
  it('ends a bar spanning its parent a gap before the corner’s window', () => {
    // 1280 px: the parent ends at 1248, the window (22 rem, 1 rem from the edge) starts at 912.
    expect(roomForCorner(1248, 912)).toBe(348);
  });

  it('keeps nothing when the window is not there, or already clear of the parent', () => {
    expect(roomForCorner(1248, null)).toBe(0);
    // 1920 px with the page's column centred: it ends at 1500, the window starts at 1552.
    expect(roomForCorner(1500, 1552)).toBe(0);
  });

  it('rounds a fractional edge up, so the gap is never less than 12 px', () => {
    expect(roomForCorner(1000.4, 900)).toBe(113);
  });
});
