import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast, Toaster } from 'sonner';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTROLS_IDLE_MS, FlashOverlay } from './flash-overlay';
import { DEFAULT_SETTINGS } from '../lib/player-storage';

const PLAYLIST = [{ id: 1, message_text: 'I breathe slowly.' }];

function renderOverlay(onStop = vi.fn()) {
  const page = document.createElement('div');
  page.innerHTML = '<button>Start</button><input aria-label="Somewhere else" />';
  document.body.append(page);
  const opener = page.querySelector('button')!;
  opener.focus();
  const view = render(<FlashOverlay playlist={PLAYLIST} settings={DEFAULT_SETTINGS} onStop={onStop} />);
  return { page, opener, onStop, ...view };
}

const controls = () => screen.getByTestId('session-controls');

/**
 * Until the tab is on no entry of a session screen's: the Back of a screen unmounted full size has landed (a push
 * while it is on its way would be made past it, lib/session-entry.ts).
 */
const offSessionEntry = () =>
  waitFor(() => expect((window.history.state as { flashSession?: string } | null)?.flashSession).toBeUndefined());

/** The page's own history entry, as the router writes it: each test starts on a new one. */
const pageEntry = { usr: { from: 'the page' }, key: 'page', idx: 3 };

describe('FlashOverlay (the session screen)', () => {
  beforeEach(async () => {
    // The previous test's screen is gone with its entry.
    await offSessionEntry();
    // A new entry at the player's address: the entries a test moves forward to, and the address it leaves, go.
    window.history.pushState(pageEntry, '', '/subliminals');
  });
  afterEach(() => {
    // Real timers first: the Back of the screen unmounted is a task of the browser's (jsdom's), which a fake
    // clock left behind would never run.
    vi.useRealTimers();
    cleanup();
    document.body.innerHTML = '';
    Reflect.deleteProperty(document, 'fullscreenElement');
  });

  it('is a modal: focus moves into it, the page behind is inert, and focus goes back to the opener', async () => {
    const { page, opener, unmount } = renderOverlay();
    const screenElement = screen.getByRole('dialog', { name: 'Subliminal session' });
    expect(screenElement).toHaveAttribute('aria-modal', 'true');
    expect(screenElement).toHaveFocus();
    expect(page.inert).toBe(true);
    unmount();
    expect(page.inert).toBe(false);
    await act(() => Promise.resolve());
    expect(opener).toHaveFocus();
  });

  it('clears the page’s notes as it opens full size, so none sits over the session', async () => {
    render(<Toaster />);
    act(() => void toast.success('Added Calm messages to playlist!'));
    expect(await screen.findByText('Added Calm messages to playlist!')).toBeInTheDocument();
    renderOverlay();
    await waitFor(() => expect(screen.queryByText('Added Calm messages to playlist!')).toBeNull());
  });

  it('has its controls in the Tab order, and Escape stops', () => {
    const { onStop } = renderOverlay();
    for (const name of ['Pause', 'Stop', 'In a corner', 'Full screen']) {
      const button = screen.getByRole('button', { name });
      expect(button).not.toHaveAttribute('tabindex', '-1');
      expect(button).toBeEnabled();
    }
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('full size, keeps the keyboard inside: Tab after its last control comes back to the first, Shift+Tab the other way', async () => {
    const user = userEvent.setup();
    renderOverlay();
    const first = screen.getByRole('button', { name: 'Pause' });
    const last = screen.getByRole('button', { name: 'Full screen' });
    // From the screen itself, as it opens, Shift+Tab goes to its last control, not to the page behind.
    await user.tab({ shift: true });
    expect(last).toHaveFocus();
    await user.tab();
    expect(first).toHaveFocus();
    await user.tab({ shift: true });
    expect(last).toHaveFocus();
    // In a corner the page is usable: Tab goes on to it.
    fireEvent.click(screen.getByRole('button', { name: 'In a corner' }));
    await waitFor(() => expect(screen.getByTestId('flash-overlay')).toHaveAttribute('data-mode', 'corner'));
    screen.getByRole('button', { name: 'Back to full size' }).focus();
    await user.tab();
    expect(screen.getByTestId('flash-overlay')).not.toContainElement(document.activeElement as HTMLElement);
  });

  it('shows the controls, hides them after a stillness, and shows them again on a pointer movement or focus', () => {
    vi.useFakeTimers();
    renderOverlay();
    expect(controls()).toHaveAttribute('data-shown', 'true');
    act(() => vi.advanceTimersByTime(CONTROLS_IDLE_MS - 100));
    expect(controls()).toHaveAttribute('data-shown', 'true');
    act(() => vi.advanceTimersByTime(200));
    expect(controls()).toHaveAttribute('data-shown', 'false');
    expect(controls()).toHaveClass('opacity-0');

    fireEvent.pointerMove(screen.getByTestId('flash-overlay'));
    expect(controls()).toHaveAttribute('data-shown', 'true');
    act(() => vi.advanceTimersByTime(CONTROLS_IDLE_MS + 10));
    expect(controls()).toHaveAttribute('data-shown', 'false');

    // A keyboard user tabbing to a control sees them again.
    act(() => screen.getByRole('button', { name: 'Stop' }).focus());
    expect(controls()).toHaveAttribute('data-shown', 'true');
  });

  it('stays shown while paused, and keeps them while the pointer rests on them', () => {
    vi.useFakeTimers();
    renderOverlay();
    fireEvent.pointerEnter(controls());
    act(() => vi.advanceTimersByTime(CONTROLS_IDLE_MS * 2));
    expect(controls()).toHaveAttribute('data-shown', 'true');
    fireEvent.pointerLeave(controls());
    act(() => screen.getByRole('button', { name: 'Pause' }).click());
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.getByTestId('session-time')).toHaveTextContent(/^Paused/);
    act(() => vi.advanceTimersByTime(CONTROLS_IDLE_MS * 2));
    expect(controls()).toHaveAttribute('data-shown', 'true');
  });

  it('in the corner, the page is usable and Escape there is the page’s; focus stays on the toggle', () => {
    const { page, onStop } = renderOverlay();
    const toggle = screen.getByRole('button', { name: 'In a corner' });
    act(() => toggle.focus());
    act(() => toggle.click());
    const overlay = screen.getByTestId('flash-overlay');
    expect(overlay).toHaveAttribute('data-mode', 'corner');
    expect(overlay).toHaveAttribute('aria-modal', 'false');
    expect(page.inert).toBe(false);
    expect(screen.getByRole('button', { name: 'Back to full size' })).toHaveFocus();

    // Typing in the page and pressing Escape there does not end the session...
    const field = screen.getByRole('textbox', { name: 'Somewhere else' });
    act(() => field.focus());
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(onStop).not.toHaveBeenCalled();
    // ...but Escape inside the corner screen does.
    act(() => screen.getByRole('button', { name: 'Back to full size' }).focus());
    fireEvent.keyDown(screen.getByRole('button', { name: 'Back to full size' }), { key: 'Escape' });
    expect(onStop).toHaveBeenCalledTimes(1);

    act(() => screen.getByRole('button', { name: 'Back to full size' }).click());
    expect(overlay).toHaveAttribute('data-mode', 'full');
    expect(page.inert).toBe(true);
  });

  it('in the corner, leaves the keyboard where the person is on the page when it ends (its sleep timer, say)', async () => {
    const { opener, unmount } = renderOverlay();
    act(() => screen.getByRole('button', { name: 'In a corner' }).click());
    const field = screen.getByRole('textbox', { name: 'Somewhere else' });
    act(() => field.focus());
    unmount();
    await act(() => Promise.resolve());
    expect(field).toHaveFocus();
    expect(opener).not.toHaveFocus();
  });

  it('in the corner, gives the keyboard back to the opener when it ends with the keyboard inside it', async () => {
    const { opener, unmount } = renderOverlay();
    const toggle = screen.getByRole('button', { name: 'In a corner' });
    act(() => toggle.focus());
    act(() => toggle.click());
    expect(screen.getByRole('button', { name: 'Back to full size' })).toHaveFocus();
    unmount();
    await act(() => Promise.resolve());
    expect(opener).toHaveFocus();
  });

  it('returns focus to the control it is given rather than the one focused at opening', async () => {
    const target = document.createElement('button');
    document.body.append(target);
    const ref = createRef<HTMLElement>();
    (ref as { current: HTMLElement }).current = target;
    const { unmount } = render(
      <FlashOverlay playlist={PLAYLIST} settings={DEFAULT_SETTINGS} onStop={vi.fn()} returnFocusTo={ref} />,
    );
    unmount();
    await act(() => Promise.resolve());
    expect(target).toHaveFocus();
  });

  it('flashes the playlist’s messages over the animated background', async () => {
    renderOverlay();
    expect(screen.getByTestId('session-background')).toBeInTheDocument();
    expect(await screen.findByTestId('flash-message')).toHaveTextContent('I breathe slowly.');
    expect(screen.getByTestId('session-layers')).toHaveTextContent('No sound playing');
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
    clock.mockRestore();
  });

  it('keeps the screen on while it flashes, lets it go when paused or stopped, and takes it again when the tab shows', async () => {
    const locks: { released: boolean; release: ReturnType<typeof vi.fn> }[] = [];
    const request = vi.fn(async () => {
      const lock = { released: false, release: vi.fn(async () => void (lock.released = true)) };
      locks.push(lock);
      return lock;
    });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { wakeLock: { request } }));
    let visibility: DocumentVisibilityState = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    try {
      const { unmount } = renderOverlay();
      await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
      expect(request).toHaveBeenCalledWith('screen');

      // Hidden, the browser lets the lock go; shown again, it is taken again.
      visibility = 'hidden';
      locks[0]!.released = true;
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(request).toHaveBeenCalledTimes(1);
      visibility = 'visible';
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await waitFor(() => expect(request).toHaveBeenCalledTimes(2));

      act(() => screen.getByRole('button', { name: 'Pause' }).click());
      expect(locks[1]!.release).toHaveBeenCalled();
      act(() => screen.getByRole('button', { name: 'Resume' }).click());
      await waitFor(() => expect(request).toHaveBeenCalledTimes(3));

      unmount();
      expect(locks[2]!.release).toHaveBeenCalled();
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(request).toHaveBeenCalledTimes(3);
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });

  it('runs as before where the browser has no wake lock or refuses it', async () => {
    const request = vi.fn(() => Promise.reject(new DOMException('Battery saver', 'NotAllowedError')));
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { wakeLock: { request } }));
    try {
      renderOverlay();
      await waitFor(() => expect(request).toHaveBeenCalled());
      expect(screen.getByRole('dialog', { name: 'Subliminal session' })).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
    cleanup();
    await offSessionEntry();
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { wakeLock: undefined }));
    try {
      renderOverlay();
      expect(screen.getByRole('dialog', { name: 'Subliminal session' })).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  describe('Back', () => {
    /**
     * Back, until the tab is on `to`. (Not by waiting for the `popstate`: the one off the session's entry to the
     * page's own is kept from later listeners, as from the router.)
     */
    const back = async (to: unknown = pageEntry) => {
      window.history.back();
      await waitFor(() => expect(window.history.state).toEqual(to));
    };
    /** The entry the session adds is there (after the commit's microtask). */
    const sessionEntryAdded = () => waitFor(() => expect(window.history.state).not.toEqual(pageEntry));

    it('full size, the session has an entry of its own at the page’s URL: Back stops it and stays on the page', async () => {
      const { onStop } = renderOverlay();
      await sessionEntryAdded();
      expect(window.history.state).toMatchObject({ usr: pageEntry.usr, key: 'page', idx: 4 });
      expect(window.location.pathname).toBe('/subliminals');
      await back();
      expect(onStop).toHaveBeenCalledTimes(1);
      expect(window.history.state).toEqual(pageEntry);
      expect(window.location.pathname).toBe('/subliminals');
    });

    it('stopped another way, it takes its entry back, so a later Back goes where it would have gone', async () => {
      const { onStop, unmount } = renderOverlay();
      await sessionEntryAdded();
      unmount();
      await waitFor(() => expect(window.history.state).toEqual(pageEntry));
      expect(onStop).not.toHaveBeenCalled();
      // A link followed next, then Back: the page, not a leftover entry of the session.
      window.history.pushState({ idx: 4 }, '', '/music');
      await back();
      expect(window.history.state).toEqual(pageEntry);
      expect(window.location.pathname).toBe('/subliminals');
    });

    it('Stop and Escape take the entry back first and stop once it is gone: no click on the page comes between', async () => {
      for (const press of [
        () => fireEvent.click(screen.getByRole('button', { name: 'Stop' })),
        () => fireEvent.keyDown(window, { key: 'Escape' }),
      ]) {
        const stoppedOn: unknown[] = [];
        const { page, unmount } = renderOverlay(vi.fn(() => void stoppedOn.push(window.history.state)));
        await sessionEntryAdded();
        press();
        // Still the full-size screen over an inert page, until the browser has gone back.
        expect(stoppedOn).toEqual([]);
        expect(page.inert).toBe(true);
        await waitFor(() => expect(stoppedOn).toEqual([pageEntry]));
        unmount();
        document.body.innerHTML = '';
      }
    });

    it('in the corner, Back is the page’s: the entry goes with full size and comes back with it', async () => {
      const { onStop, page } = renderOverlay();
      await sessionEntryAdded();
      fireEvent.click(screen.getByRole('button', { name: 'In a corner' }));
      // The page is usable, and "Back to full size" there, only once the entry is gone.
      expect(screen.getByTestId('flash-overlay')).toHaveAttribute('data-mode', 'full');
      expect(page.inert).toBe(true);
      await waitFor(() => expect(screen.getByTestId('flash-overlay')).toHaveAttribute('data-mode', 'corner'));
      expect(page.inert).toBe(false);
      expect(window.history.state).toEqual(pageEntry);
      expect(onStop).not.toHaveBeenCalled();

      fireEvent.click(screen.getByRole('button', { name: 'Back to full size' }));
      await sessionEntryAdded();
      await back();
      expect(onStop).toHaveBeenCalledTimes(1);
    });
  });
});
