import { act, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@web/lib/api-client';
import { sessionStore } from '@web/lib/session';
import { everyElementShown } from '@web/test/shown';
import ThemedToaster from './themed-toaster';

describe('toasts', () => {
  afterEach(() => {
    act(() => toast.dismiss());
    sessionStore.clear();
  });

  it('the same message again replaces the one on screen instead of stacking', async () => {
    render(<ThemedToaster />);
    act(() => {
      toast.error('The email or password is incorrect!');
      toast.error('The email or password is incorrect!');
      toast.success('Added Focus messages to playlist!');
      toast.success('Added Focus messages to playlist!');
    });
    expect(await screen.findByText('Added Focus messages to playlist!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('The email or password is incorrect!')).toHaveLength(1));
    expect(screen.getAllByText('Added Focus messages to playlist!')).toHaveLength(1);
  });

  it('a toast with an Undo is never replaced by another of the same words: each Undo puts back its own', async () => {
    render(<ThemedToaster />);
    const undone: string[] = [];
    const removed = (which: string) =>
      void toast.success('Day 2 removed; not saved yet.', {
        action: { label: 'Undo', onClick: () => undone.push(which) },
      });
    act(() => removed('first'));
    const first = await screen.findByText('Day 2 removed; not saved yet.');
    act(() => removed('second'));
    await waitFor(() => expect(screen.getAllByText('Day 2 removed; not saved yet.')).toHaveLength(2));
    // Longer than sonner takes to take a replaced toast off the screen here (about 1 s), in steps so that
    // React renders what each of its timers changed.
    for (let step = 0; step < 20; step++) await act(() => new Promise((done) => setTimeout(done, 100)));
    expect(first.isConnected).toBe(true);
    const undos = screen.getAllByRole('button', { name: 'Undo' });
    expect(undos).toHaveLength(2);
    act(() => undos.forEach((undo) => undo.click()));
    expect(undone.sort()).toEqual(['first', 'second']);
  });

  /**
   * A page with the control a removal was pressed on; the keyboard on it, then on the Undo of the toast offered, as
   * Alt+T and Tab or a press of the pointer put it there. (That sonner takes the keyboard from what an action put it
   * on is Chromium's, not jsdom's: e2e/programs-admin.spec.ts.)
   */
  async function pageWithUndo(onUndo: (event: { preventDefault: () => void }) => void) {
    everyElementShown();
    render(
      <>
        <main id="main">
          <h1>Programs</h1>
          <button type="button">Remove day 2</button>
        </main>
        <ThemedToaster />
      </>,
    );
    const removal = screen.getByRole('button', { name: 'Remove day 2' });
    act(() => removal.focus());
    act(() => void toast.success('Day 2 removed; not saved yet.', { action: { label: 'Undo', onClick: onUndo } }));
    await screen.findByText('Day 2 removed; not saved yet.');
    const undo = screen.getByRole('button', { name: 'Undo' });
    act(() => undo.focus());
    return { removal, undo };
  }

  it('an action refused keeps its toast and gives the keyboard back to the page, to its heading once that is gone', async () => {
    const { removal, undo } = await pageWithUndo((event) => event.preventDefault());
    act(() => undo.click());
    expect(removal).toHaveFocus();
    expect(screen.getByText('Day 2 removed; not saved yet.')).toBeInTheDocument();

    act(() => undo.focus());
    act(() => removal.remove());
    act(() => undo.click());
    expect(screen.getByRole('heading', { name: 'Programs' })).toHaveFocus();
  });

  it('an action done is done once, however often its closing toast is pressed', async () => {
    let undone = 0;
    const { undo } = await pageWithUndo(() => undone++);
    act(() => {
      undo.click();
      undo.click();
    });
    expect(undone).toBe(1);
  });

  it('an action whose call fails in a way that may pass comes back with a line saying so; one that will not, does not', async () => {
    const failures: unknown[] = [
      new ApiError(503, null),
      new ApiError(429, { detail: 'Request was throttled.' }),
      new ApiError(403, { detail: 'Part of the Intermediate plan.', code: 'plan_required' }),
    ];
    let presses = 0;
    const { undo } = await pageWithUndo(() => Promise.reject(failures[presses++]!));
    act(() => undo.click());
    const line = 'The Undo did not go through. Press Undo again in a moment.';
    expect(await screen.findByText(line)).toBeInTheDocument();
    // The toast come back, not the one pressed (sonner keeps that a moment as it goes).
    const cameBack = async (pressed: HTMLElement) => {
      let shown: HTMLElement | undefined;
      await waitFor(() => {
        const live = document.querySelectorAll<HTMLElement>('[data-sonner-toast][data-removed="false"]');
        const undos = [...live].flatMap((toast) => within(toast).queryAllByRole('button', { name: 'Undo' }));
        expect(undos).toHaveLength(1);
        expect(undos[0]).not.toBe(pressed);
        shown = undos[0];
      });
      return shown!;
    };
    const again = await cameBack(undo);
    expect(screen.getByRole('button', { name: 'Remove day 2' })).toHaveFocus();
    act(() => again.click());
    const third = await cameBack(again);
    act(() => third.click());
    expect(presses).toBe(3);
    await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast][data-removed="false"]')).toHaveLength(0));
  });

  it('an action come back online stays until pressed or closed, and says the wait the server named, then that it is over (decision 150)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const failures: unknown[] = [
        new ApiError(503, null),
        new ApiError(429, { detail: 'Request was throttled.' }, '30'),
      ];
      let presses = 0;
      const { undo } = await pageWithUndo(() => Promise.reject(failures[presses++]!));
      const live = () => [...document.querySelectorAll<HTMLElement>('[data-sonner-toast][data-removed="false"]')];
      const comeBack = async (pressed: HTMLElement) => {
        await waitFor(() =>
          expect(live().map((shown) => within(shown).queryByRole('button', { name: 'Undo' }))).not.toContain(pressed),
        );
        expect(live()).toHaveLength(1);
        return within(live()[0]!).getByRole('button', { name: 'Undo' });
      };

      act(() => undo.click());
      const again = await comeBack(undo);
      expect(
        within(live()[0]!).getByText('The Undo did not go through. Press Undo again in a moment.'),
      ).toBeInTheDocument();
      // The server failed, the browser online: ten minutes on, the Undo is still there to be pressed.
      act(() => vi.advanceTimersByTime(10 * 60_000));
      expect(live()).toHaveLength(1);
      expect(again).toBeInTheDocument();

      act(() => again.click());
      const third = await comeBack(again);
      const toastShown = live()[0]!;
      expect(
        within(toastShown).getByText(
          'The Undo did not go through: the server asks to wait. Press Undo again in 30 seconds.',
        ),
      ).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(29_000));
      expect(within(toastShown).queryByText('The Undo did not go through. Press Undo again now.')).toBeNull();
      act(() => vi.advanceTimersByTime(1_000));
      expect(
        await within(toastShown).findByText('The Undo did not go through. Press Undo again now.'),
      ).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(10 * 60_000));
      expect(live()).toEqual([toastShown]);
      expect(within(toastShown).getByRole('button', { name: 'Undo' })).toBe(third);

      act(() => within(toastShown).getByRole('button', { name: 'Close toast' }).click());
      await waitFor(() => expect(live()).toHaveLength(0));
      expect(presses).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the same message again is announced again: it comes into the live region anew', async () => {
    render(<ThemedToaster />);
    act(() => void toast.error('An error occurred, please try again.'));
    const first = await screen.findByText('An error occurred, please try again.');
    const liveRegion = first.closest('[aria-live]');
    expect(liveRegion).toHaveAttribute('aria-live', 'polite');
    act(() => void toast.error('An error occurred, please try again.'));
    // A screen reader reads what is added to the region: the second toast is a new node there, not the first one
    // left as it was.
    await waitFor(() => expect(first.isConnected).toBe(false));
    const second = screen.getByText('An error occurred, please try again.');
    expect(second).not.toBe(first);
    expect(liveRegion).toContainElement(second);
  });

  it('a successful login clears what the signed-out screens said', async () => {
    render(<ThemedToaster />);
    act(() => void toast.error('The email or password is incorrect!'));
    expect(await screen.findByText('The email or password is incorrect!')).toBeInTheDocument();
    act(() => sessionStore.setTokens({ access: 'a', refresh: 'r' }, 'member@example.com'));
    await waitFor(() => expect(screen.queryByText('The email or password is incorrect!')).toBeNull());
  });

  it('on a phone a toast sits at the bottom, above what the portal keeps there, not over the page’s heading', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query === '(max-width: 600px)' });
    try {
      render(<ThemedToaster />);
      act(() => void toast.success('Profile updated.'));
      const toaster = (await screen.findByText('Profile updated.')).closest('[data-sonner-toaster]') as HTMLElement;
      expect(toaster).toHaveAttribute('data-y-position', 'bottom');
      expect(toaster.style.getPropertyValue('--mobile-offset-bottom')).toContain('var(--portal-bottom-chrome');
      expect(toaster.style.getPropertyValue('--mobile-offset-bottom')).toContain('var(--portal-page-bar');
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('a toast that sets no time stays 5 s, as the spec’s toast library kept it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(<ThemedToaster />);
      act(() => void toast.success('Profile updated.'));
      expect(await screen.findByText('Profile updated.')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(4500));
      expect(screen.getByText('Profile updated.')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1500));
      await waitFor(() => expect(screen.queryByText('Profile updated.')).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });
});
