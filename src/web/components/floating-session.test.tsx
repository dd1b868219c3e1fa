import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { floatingSession } from '@web/lib/floating-session';
import { paths } from '@web/lib/paths';
import { PORTAL_LEFT_MS, usePortalShown } from '@web/lib/portal-presence';
import { sessionStore } from '@web/lib/session';
import { notify } from '@web/lib/toast';
import { FloatingSession, LEFT_THE_PORTAL } from './floating-session';

/** A portal layout: while one shows, the person is in the portal. */
function Layout() {
  usePortalShown(true);
  return null;
}

/** A screen with state of its own, as the session screen has (its corner, its count). */
function Screen() {
  const [presses, setPresses] = useState(0);
  return <button onClick={() => setPresses(presses + 1)}>Pressed {presses}</button>;
}

describe('FloatingSession: the session screen goes on wherever the portal does', () => {
  let info: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers();
    info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
  });
  afterEach(() => {
    cleanup();
    act(() => floatingSession.end());
    sessionStore.clear();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the session a page started, until it ends', () => {
    render(<FloatingSession />);
    act(() => floatingSession.show(<p>Flashing</p>));
    expect(screen.getByText('Flashing')).toBeInTheDocument();
    act(() => floatingSession.end());
    expect(screen.queryByText('Flashing')).toBeNull();
  });

  it('goes on, as it was, when one portal layout gives way to another (Subliminals → the portal home, a legal page)', () => {
    render(<FloatingSession />);
    const subliminals = render(<Layout />);
    act(() => floatingSession.show(<Screen />));
    act(() => screen.getByRole('button').click());
    subliminals.unmount();
    act(() => vi.advanceTimersByTime(PORTAL_LEFT_MS / 2));
    render(<Layout />);
    act(() => vi.advanceTimersByTime(PORTAL_LEFT_MS * 2));
    expect(screen.getByRole('button')).toHaveTextContent('Pressed 1');
    expect(info).not.toHaveBeenCalled();
  });

  it('ends once no portal layout has come back in time, and says so to a person still signed in', () => {
    render(<FloatingSession />);
    const layout = render(<Layout />);
    act(() => floatingSession.show(<p>Flashing</p>));
    layout.unmount();
    act(() => vi.advanceTimersByTime(PORTAL_LEFT_MS - 1));
    expect(floatingSession.get()).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(floatingSession.get()).toBeNull();
    expect(screen.queryByText('Flashing')).toBeNull();
    expect(info).toHaveBeenCalledWith(LEFT_THE_PORTAL);
  });

  it('ends at once without a word on signing out, and says nothing when no session ran', () => {
    render(<FloatingSession />);
    render(<Layout />).unmount();
    act(() => vi.advanceTimersByTime(PORTAL_LEFT_MS));
    expect(info).not.toHaveBeenCalled();

    // Still signed in for a moment: the sign-out page is outside the portal, and the layout goes first.
    const layout = render(<Layout />);
    act(() => floatingSession.show(<p>Flashing</p>));
    window.history.pushState(null, '', paths.logout);
    act(() => layout.unmount());
    window.history.pushState(null, '', '/');
    expect(floatingSession.get()).toBeNull();

    const expired = render(<Layout />);
    act(() => floatingSession.show(<p>Flashing</p>));
    sessionStore.clear();
    act(() => expired.unmount());
    expect(floatingSession.get()).toBeNull();
    act(() => vi.advanceTimersByTime(PORTAL_LEFT_MS));
    expect(info).not.toHaveBeenCalled();
  });
});
