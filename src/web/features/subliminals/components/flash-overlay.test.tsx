import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlashOverlay } from './flash-overlay';
import { DEFAULT_SETTINGS } from '../lib/player-storage';

function renderOverlay(onStop = vi.fn()) {
  const page = document.createElement('div');
  page.innerHTML = '<button>Start</button>';
  document.body.append(page);
  const view = render(<FlashOverlay flash={null} settings={DEFAULT_SETTINGS} onStop={onStop} />);
  return { page, onStop, ...view };
}

describe('FlashOverlay', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    Reflect.deleteProperty(document, 'fullscreenElement');
  });

  it('is a modal: focus moves to Stop and the page behind is inert until it closes', () => {
    const { page, unmount } = renderOverlay();
    expect(screen.getByRole('dialog', { name: 'Subliminal player' })).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Stop' })).toHaveFocus();
    expect(page.inert).toBe(true);
    unmount();
    expect(page.inert).toBe(false);
  });

  it('in full screen, Escape first leaves full screen and only a later Escape stops', () => {
    const exitFullscreen = vi.fn(() => Promise.resolve());
    document.exitFullscreen = exitFullscreen;
    const { onStop } = renderOverlay();
    const overlay = screen.getByTestId('flash-overlay');
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: overlay });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(exitFullscreen).toHaveBeenCalled();
    expect(onStop).not.toHaveBeenCalled();

    Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: null });
    const now = performance.now();
    const clock = vi.spyOn(performance, 'now').mockReturnValue(now);
    fireEvent(document, new Event('fullscreenchange'));
    // The browser may deliver the Escape that left full screen after the change: still not a stop.
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onStop).not.toHaveBeenCalled();
    clock.mockReturnValue(now + 1000);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onStop).toHaveBeenCalledTimes(1);
  });
});
