import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSaveProgress } from './use-save-progress';

describe('useSaveProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('simulates +5 every 200 ms up to 90 while the browser reports nothing', () => {
    const { result } = renderHook(() => useSaveProgress());
    act(() => result.current.begin());
    expect(result.current.progress).toBe(0);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.progress).toBe(25);
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current.progress).toBe(90);
  });

  it('switches to the real upload progress as soon as the browser reports it', () => {
    const { result } = renderHook(() => useSaveProgress());
    act(() => result.current.begin());
    act(() => vi.advanceTimersByTime(400));
    act(() => result.current.report(63));
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current.progress).toBe(63);
    act(() => result.current.end());
    expect(result.current.progress).toBeNull();
  });
});
