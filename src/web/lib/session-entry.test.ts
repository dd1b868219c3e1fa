import { afterEach, describe, expect, it, vi } from 'vitest';
import { addSessionEntry, leaveSessionEntryBehind, type SessionEntry } from './session-entry';

/** The page before the player, and the player's own entry, as the router writes them. */
const before = { usr: null, key: 'before', idx: 2 };
const player = { usr: { from: 'the page' }, key: 'player', idx: 3 };

/**
 * Waits until the tab has settled on `state` (each history move of jsdom is a task of its own). Not by waiting
 * for a `popstate`: the one off the session's entry to the page's own is kept from later listeners.
 */
const settledOn = (state: unknown) => vi.waitFor(() => expect(window.history.state).toEqual(state));

function openPlayer() {
  window.history.replaceState(before, '', '/music');
  window.history.pushState(player, '', '/subliminals');
}

describe('the session screen’s history entry', () => {
  let entry: SessionEntry | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    entry?.release();
    entry = undefined;
    // Whatever a test left to the browser (a Back it started) is done before the next one.
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('is a copy of the page’s entry, one further: the person’s Back calls onBack and leaves the tab on the page', async () => {
    openPlayer();
    const onBack = vi.fn();
    entry = addSessionEntry(onBack);
    expect(window.history.state).toMatchObject({ usr: player.usr, key: 'player', idx: 4 });
    expect(window.location.pathname).toBe('/subliminals');
    window.history.back();
    await settledOn(player);
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('the router, listening after it, is not told of a Back off the entry to the page’s own; of one further, it is', async () => {
    openPlayer();
    const router = vi.fn();
    window.addEventListener('popstate', router);
    try {
      entry = addSessionEntry(vi.fn());
      window.history.back();
      await settledOn(player);
      expect(router).not.toHaveBeenCalled();
      entry = addSessionEntry(vi.fn());
      window.history.go(-2);
      await settledOn(before);
      expect(router).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('a leave (Stop, In a corner) goes on only once the entry is gone, so nothing comes between', async () => {
    openPlayer();
    const onBack = vi.fn();
    entry = addSessionEntry(onBack);
    const seen: unknown[] = [];
    entry.leave(() => seen.push(window.history.state));
    expect(seen).toEqual([]);
    await settledOn(player);
    expect(seen).toEqual([player]);
    expect(onBack).not.toHaveBeenCalled();
  });

  it('Forward onto the entry of a screen that is gone changes nothing: the tab goes back to the page’s own', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    window.history.back();
    await settledOn(player);
    const forward = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    window.history.forward();
    await forward;
    expect(window.history.state).toMatchObject({ key: 'player', idx: 4 });
    await settledOn(player);
    // The next Back leaves the player.
    window.history.back();
    await settledOn(before);
  });

  it('on an entry a reload left behind, the starting app goes back to the page’s own', async () => {
    openPlayer();
    window.history.pushState({ ...player, idx: 4, flashSession: 'reloaded' }, '');
    leaveSessionEntryBehind();
    await settledOn(player);
  });

  it('released while the tab is on it (the session ended elsewhere), it is taken back', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    entry.release();
    await settledOn(player);
  });

  // A move of the router's over the screen: a redirect, or a sign-out elsewhere that sends the tab to log in. The
  // router numbers its new entry from the one it is on, the session's (idx 4).
  const login = { usr: null, key: 'login', idx: 4 };
  const routerMoves = () => window.history.pushState({ ...login, idx: 5 }, '', '/login');

  it('a move of the router’s from the entry takes its place, and the entry comes back over the new page', async () => {
    openPlayer();
    const onBack = vi.fn();
    entry = addSessionEntry(onBack);
    const router = vi.fn();
    window.addEventListener('popstate', router);
    try {
      routerMoves();
      expect(window.location.pathname).toBe('/login');
      expect(window.history.state).toMatchObject({ ...login, idx: 5, flashSession: expect.any(String) });
      // Back stops the screen still full size there, the tab staying on the new page, the router not told.
      window.history.back();
      await settledOn(login);
      expect(onBack).toHaveBeenCalledTimes(1);
      expect(router).not.toHaveBeenCalled();
      // The next Back goes to the player's entry in one step: no entry of the session's is left between.
      window.history.back();
      await settledOn(player);
      expect(router).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('closed by the router’s move (signing out ends it), it leaves no entry behind the new page', async () => {
    openPlayer();
    const onBack = vi.fn();
    entry = addSessionEntry(onBack);
    const router = vi.fn();
    window.addEventListener('popstate', router);
    try {
      routerMoves();
      entry.release();
      await settledOn(login);
      expect(router).not.toHaveBeenCalled();
      window.history.back();
      await settledOn(player);
      expect(onBack).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('closed as the router moves (a session expired: signed out, then sent to log in), the move stays', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    const router = vi.fn();
    window.addEventListener('popstate', router);
    const forward = vi.spyOn(window.history, 'forward');
    try {
      // Released first, the router's push coming before the browser has taken the entry back.
      entry.release();
      routerMoves();
      // The Back lands before the router's entry, and the tab goes forward again to it: waited for, not timed.
      await vi.waitFor(() => expect(forward).toHaveBeenCalledTimes(1));
      await settledOn(login);
      expect(window.location.pathname).toBe('/login');
      // Told of the Back, the router took it for a move to the player and dropped its own (the tab stayed there).
      expect(router).not.toHaveBeenCalled();
      window.history.back();
      await settledOn(player);
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('closed as the route guard replaces the page (signed out in another tab), the replace lands on the page’s own entry', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    const router = vi.fn();
    window.addEventListener('popstate', router);
    try {
      // Released first, the guard's replace coming before the browser has taken the entry back (a busy machine).
      entry.release();
      window.history.replaceState({ ...login, idx: 4 }, '', '/login?redirect=%2Fsubliminals');
      // On the player's entry, numbered as it is.
      await settledOn({ ...login, idx: 3 });
      expect(window.location.pathname).toBe('/login');
      expect(router).not.toHaveBeenCalled();
      // No entry of the player's or the session's behind it: Back goes to the page before.
      window.history.back();
      await settledOn(before);
      expect(router).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('a replace of the router’s while the screen stays full size (a redirect) is done on the page’s own entry, the entry back over it', async () => {
    openPlayer();
    const onBack = vi.fn();
    entry = addSessionEntry(onBack);
    const router = vi.fn();
    window.addEventListener('popstate', router);
    try {
      window.history.replaceState({ ...login, idx: 4 }, '', '/login');
      // The session's entry, marked still, over the new page.
      await settledOn({ ...login, idx: 4, flashSession: expect.any(String) });
      expect(window.location.pathname).toBe('/login');
      expect(router).not.toHaveBeenCalled();
      // Back stops the screen and stays on the new page, the router not told.
      window.history.back();
      await settledOn({ ...login, idx: 3 });
      expect(onBack).toHaveBeenCalledTimes(1);
      expect(router).not.toHaveBeenCalled();
      // The page the replace was for is gone: the next Back goes to the page before.
      window.history.back();
      await settledOn(before);
      expect(router).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('popstate', router);
    }
  });

  it('left (Stop) while the Back for a replace is on its way, it does not come back over the new page', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    window.history.replaceState({ ...login, idx: 4 }, '', '/login');
    const then = vi.fn();
    entry.leave(then);
    await settledOn({ ...login, idx: 3 });
    expect(then).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(window.history.state).toEqual({ ...login, idx: 3 });
  });

  it('a push of the router’s while the Back for a replace is on its way is where the tab ends, the replace behind it', async () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    window.history.replaceState({ ...login, idx: 4 }, '', '/login');
    const forward = vi.spyOn(window.history, 'forward');
    window.history.pushState({ usr: null, key: 'next', idx: 5 }, '', '/next');
    // The Back lands on the page's entry, which takes the replace, and the tab goes forward to the new page.
    await vi.waitFor(() => expect(forward).toHaveBeenCalledTimes(1));
    await settledOn({ usr: null, key: 'next', idx: 4 });
    expect(window.location.pathname).toBe('/next');
    // No entry of the session's left: Stop goes on at once.
    const then = vi.fn();
    entry.leave(then);
    expect(then).toHaveBeenCalledTimes(1);
    window.history.back();
    await settledOn({ ...login, idx: 3 });
    window.history.back();
    await settledOn(before);
  });

  it('a leave goes on without the browser’s Back should it never come', () => {
    openPlayer();
    entry = addSessionEntry(vi.fn());
    vi.useFakeTimers();
    vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
    const then = vi.fn();
    entry.leave(then);
    vi.advanceTimersByTime(1999);
    expect(then).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(then).toHaveBeenCalledTimes(1);
  });
});
