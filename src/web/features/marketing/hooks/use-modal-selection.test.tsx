import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME } from '@shared/constants';
import { useModalSelection } from './use-modal-selection';

describe('modal selection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes at once and clears the selection 300 ms later', () => {
    const { result } = renderHook(() => useModalSelection<number>());
    act(() => result.current.select(528));
    expect(result.current).toMatchObject({ open: true, selected: 528 });
    act(() => result.current.close());
    expect(result.current).toMatchObject({ open: false, selected: 528 });
    act(() => vi.advanceTimersByTime(HOME.modalClearDelayMs - 1));
    expect(result.current.selected).toBe(528);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.selected).toBeNull();
  });

  it('a new selection within the 300 ms is not cleared by the earlier close', () => {
    const { result } = renderHook(() => useModalSelection<number>());
    act(() => result.current.select(963));
    act(() => result.current.close());
    act(() => vi.advanceTimersByTime(100));
    act(() => result.current.select(174));
    act(() => vi.advanceTimersByTime(HOME.modalClearDelayMs * 2));
    expect(result.current).toMatchObject({ open: true, selected: 174 });
  });
});
