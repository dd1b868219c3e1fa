import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { floatingSession } from '@web/lib/floating-session';
import { paths } from '@web/lib/paths';
import { sessionStore } from '@web/lib/session';
import { notify } from '@web/lib/toast';
import { FloatingSession, LEFT_THE_PORTAL } from './floating-session';

describe('FloatingSession: the session screen under the portal’s layout', () => {
  afterEach(() => {
    cleanup();
    floatingSession.end();
    sessionStore.clear();
    vi.restoreAllMocks();
  });

  it('shows the session a page started, until it ends', () => {
    render(<FloatingSession />);
    act(() => floatingSession.show(<p>Flashing</p>));
    expect(screen.getByText('Flashing')).toBeInTheDocument();
    act(() => floatingSession.end());
    expect(screen.queryByText('Flashing')).toBeNull();
  });

  it('ends the session when the portal is left, and says so to a person still signed in', () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
    const layout = render(<FloatingSession />);
    act(() => floatingSession.show(<p>Flashing</p>));
    layout.unmount();
    expect(floatingSession.get()).toBeNull();
    expect(info).toHaveBeenCalledWith(LEFT_THE_PORTAL);
  });

  it('ends it without a word on signing out, and says nothing when no session ran', () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    render(<FloatingSession />).unmount();
    expect(info).not.toHaveBeenCalled();
    const layout = render(<FloatingSession />);
    act(() => floatingSession.show(<p>Flashing</p>));
    layout.unmount();
    expect(floatingSession.get()).toBeNull();
    // Still signed in for a moment: the sign-out page is outside the portal, and the layout goes first.
    sessionStore.setTokens({ access: 'a.e30.s', refresh: 'r' }, 'ada@example.com');
    window.history.pushState(null, '', paths.logout);
    const leaving = render(<FloatingSession />);
    act(() => floatingSession.show(<p>Flashing</p>));
    leaving.unmount();
    window.history.pushState(null, '', '/');
    expect(floatingSession.get()).toBeNull();
    expect(info).not.toHaveBeenCalled();
  });
});
