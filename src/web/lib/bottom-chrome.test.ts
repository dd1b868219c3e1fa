import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { roomForCorner, useBesideCorner } from './bottom-chrome';

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

describe('useBesideCorner', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.documentElement.removeAttribute('style');
  });

  it('with no corner window, neither lays the page out nor restyles it: it measures nothing and leaves the root alone', () => {
    const parent = document.createElement('div');
    const bar = document.createElement('div');
    parent.append(bar);
    document.body.append(parent);
    const measured = vi.spyOn(parent, 'getBoundingClientRect');
    const setProperty = vi.spyOn(document.documentElement.style, 'setProperty');
    const { unmount } = renderHook(() => useBesideCorner({ current: bar }));
    unmount();
    expect(measured).not.toHaveBeenCalled();
    // 0 px is what every use falls back to: setting it would restyle every element of the page.
    expect(setProperty).not.toHaveBeenCalled();
    parent.remove();
  });
});
