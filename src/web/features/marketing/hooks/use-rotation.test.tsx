import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME } from '@shared/constants';
import { useRotation } from './use-rotation';

describe('hero rotation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('moves to the next image every 5 s and wraps after the fourth', () => {
    const { result } = renderHook(() => useRotation(HOME.heroImageCount, HOME.heroRotationMs, false));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs - 1));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs * 2));
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs));
    expect(result.current).toBe(0);
  });

  it('stays on the first image while paused (reduced motion)', () => {
    const { result } = renderHook(() => useRotation(HOME.heroImageCount, HOME.heroRotationMs, true));
    act(() => vi.advanceTimersByTime(HOME.heroRotationMs * 3));
    expect(result.current).toBe(0);
  });
});
